/* hotdice: the first visit's offer of a guided first turn. A returning player (the flag in localStorage, set
   by the guided turn's page or by "No thanks") is not bothered. */
"use strict";

(() => {
  const SEEN = "hotdice.learned";
  const box = document.getElementById("welcome");
  let seen = true;
  try { seen = localStorage.getItem(SEEN) !== null; } catch (err) { /* no storage: do not offer at every visit */ }
  if (!box || seen) return;
  box.hidden = false;
  document.getElementById("welcome-skip").addEventListener("click", () => {
    try { localStorage.setItem(SEEN, "1"); } catch (err) { /* private mode */ }
    box.hidden = true;
  });
})();
