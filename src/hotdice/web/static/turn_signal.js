/* hotdice: on an online table whose tab is hidden, the title and the icon say that it is your turn; with the
   player's leave (asked only when they click "Tell me when it is my turn", never on load), one notification per
   turn of theirs, none while the tab is visible, nor for a turn seen in it before it was hidden. table.js marks
   the table: data-your-turn="1", data-turn and data-n. */
"use strict";

(() => {
  const { t } = HD;
  const root = document.getElementById("table");
  if (!root || root.dataset.live !== "1") return;
  const icon = document.querySelector('link[rel="icon"]');
  const ask = document.getElementById("notify-turns");
  const plainIcon = icon ? icon.href : null;
  const turnIcon = ask ? ask.dataset.turnIcon : null;
  const plainTitle = document.title;
  let toldAt = null; // the turn of yours already told: notified, or seen with the tab in view

  function yourTurn() { return root.dataset.yourTurn === "1"; }

  function signal() {
    const badge = document.hidden && yourTurn();
    document.title = badge ? `${t("turn.title_badge")} ${plainTitle}` : plainTitle;
    if (icon && turnIcon) icon.href = badge ? turnIcon : plainIcon;
    if (!yourTurn()) return;
    const turn = root.dataset.turn || root.dataset.n;
    if (!document.hidden) toldAt = turn;
    if (toldAt === turn || !("Notification" in window) || Notification.permission !== "granted") return;
    toldAt = turn;
    new Notification(t("turn.notify_title"), { body: t("turn.notify_body"), tag: `hotdice-${location.pathname}` });
  }

  new MutationObserver(signal).observe(root, { attributes: true, attributeFilter: ["data-your-turn", "data-n"] });
  document.addEventListener("visibilitychange", signal);
  signal(); // a page opened hidden on your turn (a tab opened in the background, or restored) says so at once

  if (ask && "Notification" in window && Notification.permission === "default") {
    ask.hidden = false;
    ask.addEventListener("click", async () => {
      await Notification.requestPermission();
      ask.hidden = true;
    });
  }
})();
