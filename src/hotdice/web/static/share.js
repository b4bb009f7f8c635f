/* hotdice: the daily's share buttons. The text comes from the server (GET /api/daily/{day}/share) in the page's
   language; "Share" hands the emoji form to the Web Share API where the browser has it, else copies it; the
   plain button copies the form without emoji (screen readers, places where emoji do not render). Either way the
   plain form is shown on the page. */
"use strict";

(() => {
  const { api, toast, t } = HD;

  document.querySelectorAll("[data-share]").forEach((box) => {
    const shown = box.querySelector(".share-text");

    async function give(plain) {
      let found;
      try {
        found = await api("GET", box.dataset.share);
      } catch (err) {
        toast(err.message, true);
        return;
      }
      shown.textContent = found.plain;
      shown.hidden = false;
      const text = plain ? found.plain : found.text;
      if (!plain && navigator.share) {
        try {
          await navigator.share({ text });
          return;
        } catch (err) {
          if (err.name === "AbortError") return; // the player closed the share sheet
        }
      }
      try {
        await navigator.clipboard.writeText(text);
        toast(t("share.copied"));
      } catch (err) {
        toast(err.message, true); // no clipboard either: the text stays shown, to select by hand
      }
    }

    box.querySelector("[data-share-text]").addEventListener("click", () => give(false));
    box.querySelector("[data-share-plain]").addEventListener("click", () => give(true));
  });
})();
