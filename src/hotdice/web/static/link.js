/* hotdice: use this device. The code comes typed, or after the "#" of the address a QR code opened (never sent
   to the server in an address); it is taken out of the address at once, so that history and bookmarks keep
   no code. Claiming it (POST /api/me/links/{code}/claim) makes this browser the player who made it. */
"use strict";

(() => {
  const { api, toast, t, busy, go } = HD;
  const form = document.getElementById("link-form");
  const input = document.getElementById("link-input");
  const fragment = window.location.hash.slice(1);
  if (fragment) {
    let given = fragment;
    try {
      given = decodeURIComponent(fragment);
    } catch (err) {
      // a fragment mangled on its way (a lone "%"): shown as it came, for the claim to refuse it with why
    }
    input.value = given;
    window.history.replaceState(null, "", window.location.pathname);
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    busy(button, true);
    try {
      const claimed = await api("POST", `/api/me/links/${encodeURIComponent(input.value.trim())}/claim`);
      toast(claimed.name ? t("link.done", { name: claimed.name }) : t("link.done_unnamed"));
      go("/");
    } catch (err) {
      toast(err.message, true);
      busy(button, false);
    }
  });
})();
