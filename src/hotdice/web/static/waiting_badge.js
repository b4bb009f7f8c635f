/* hotdice: the count of games waiting for you (your games, on the home page) on the installed app's icon, where
   the browser has the Badging API (an installed web app on a phone or a desktop); cleared when none waits. */
"use strict";

(() => {
  const yours = document.getElementById("your-games");
  const waiting = yours ? Number(yours.dataset.waiting || 0) : 0;
  if (!("setAppBadge" in navigator)) return;
  (waiting > 0 ? navigator.setAppBadge(waiting) : navigator.clearAppBadge()).catch(() => {});
})();
