/* hotdice: the home page's forms (name, new games, challenges, tables) and the small pages' buttons. */
"use strict";

(() => {
  const { api, toast, go, busy, t } = HD;

  async function start(button, body) {
    busy(button, true);
    try {
      const game = await api("POST", "/api/games", body);
      go(game.url);
    } catch (err) {
      toast(err.message, true);
      busy(button, false);
    }
  }

  const me = document.getElementById("me-form");
  if (me) {
    me.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const saved = await api("POST", "/api/me", { name: me.elements.name.value });
        me.elements.name.value = saved.name;
        document.querySelectorAll('.names li:first-child input').forEach((input) => { input.value = saved.name; });
        toast(t("js.name_saved", { name: saved.name }));
      } catch (err) {
        toast(err.message, true);
      }
    });
  }

  document.querySelectorAll("[data-new-game]").forEach((button) => {
    button.addEventListener("click", () => {
      const body = JSON.parse(button.dataset.newGame);
      if (button.dataset.rollOff) body.roll_off = document.querySelector(button.dataset.rollOff).checked;
      if (button.dataset.wait) body.wait = document.querySelector(button.dataset.wait).checked;
      start(button, body);
    });
  });

  document.querySelectorAll("[data-names-form]").forEach((form) => {
    const mode = form.dataset.namesForm;
    const least = mode === "pad" ? 1 : 2;
    const list = form.querySelector(".names");
    const refresh = () => {
      const count = list.children.length;
      form.querySelector("[data-add-name]").disabled = count >= 8;
      form.querySelector("[data-remove-name]").disabled = count <= least;
    };
    form.querySelector("[data-add-name]").addEventListener("click", () => {
      const n = list.children.length + 1;
      const item = document.createElement("li");
      const input = document.createElement("input");
      Object.assign(input, { name: "n", maxLength: 200, placeholder: t("home.player_n", { n }) });
      input.setAttribute("aria-label", t("home.player_n", { n }));
      item.append(input);
      list.append(item);
      input.focus();
      refresh();
    });
    form.querySelector("[data-remove-name]").addEventListener("click", () => {
      if (list.children.length > least) list.lastElementChild.remove();
      refresh();
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      // A name left blank is the seat's default name (its placeholder), worded wherever the game is shown.
      const names = [...list.querySelectorAll("input")].map((input) => input.value.trim() || null);
      const rollOff = form.querySelector('[name="roll_off"]');
      start(form.querySelector('[type="submit"]'), { mode, names, roll_off: rollOff ? rollOff.checked : false });
    });
    refresh();
  });

  const challenge = document.querySelector("[data-challenge-new]");
  if (challenge) {
    challenge.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = challenge.querySelector('[type="submit"]');
      busy(button, true);
      try {
        const made = await api("POST", "/api/challenges", { preset: challenge.elements.preset.value });
        go(made.url);
      } catch (err) {
        toast(err.message, true);
        busy(button, false);
      }
    });
  }

  const table = document.querySelector("[data-table-new]");
  if (table) {
    table.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = table.querySelector('[type="submit"]');
      busy(button, true);
      try {
        const made = await api("POST", "/api/tables", { roll_off: table.elements.roll_off.checked });
        go(made.url);
      } catch (err) {
        toast(err.message, true);
        busy(button, false);
      }
    });
  }

  document.querySelectorAll("[data-code-form]").forEach((form) => {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const code = form.elements.code.value.trim().toUpperCase().replace(/\s+/g, "");
      if (code) go(form.dataset.codeForm + encodeURIComponent(code));
    });
  });
})();
