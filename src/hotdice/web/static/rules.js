/* hotdice: the rules and settings page. The server reads every rules string (GET /api/rules): this page
   only gathers the knobs into a string and shows what the server says back. */
"use strict";

(() => {
  const { api, t, num, escapeHTML } = HD;
  const text = document.getElementById("rules-text");
  const preset = document.getElementById("preset");
  const error = document.getElementById("rules-error");
  const knobs = [...document.querySelectorAll("[data-knob]")];
  let timer = 0;
  let current = text.value;
  let asked = 0; // answers to older questions are dropped: the newest edit wins
  let knobsShown = "";

  function fill(rules, fromText) {
    current = rules.rules;
    if (!fromText || document.activeElement !== text) text.value = rules.rules;
    knobs.forEach((input) => {
      const value = rules[input.dataset.knob];
      input.value = typeof value === "boolean" ? (value ? "yes" : "no") : String(value);
    });
    preset.value = rules.rules.split(",")[0];
    knobsShown = fromKnobs();
    document.querySelector("#scoring tbody").innerHTML = rules.scoring
      .map((row) => `<tr><td>${escapeHTML(row.shown)}</td><td class="num">${num(row.points)}</td></tr>`).join("");
    error.hidden = true;
    text.removeAttribute("aria-invalid");
  }

  async function check(candidate, fromText = false) {
    const question = ++asked;
    try {
      const rules = await api("GET", `/api/rules?text=${encodeURIComponent(candidate)}`);
      if (question === asked) fill(rules, fromText);
      return true;
    } catch (err) {
      if (question !== asked) return false;
      error.textContent = err.message;
      error.hidden = false;
      text.setAttribute("aria-invalid", "true");
      return false;
    }
  }

  function fromKnobs() {
    return [preset.value, ...knobs.map((input) => `${input.dataset.knob}=${input.value}`)].join(",");
  }

  knobs.forEach((input) => input.addEventListener("change", () => {
    if (fromKnobs() !== knobsShown) check(fromKnobs());
  }));
  preset.addEventListener("change", () => check(preset.value));
  text.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => check(text.value, true), 350);
  });
  text.addEventListener("change", () => { if (error.hidden) text.value = current; });
  knobsShown = fromKnobs();

  document.getElementById("rules-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    clearTimeout(timer);
    if (text.value !== current && !(await check(text.value, true))) return;
    try {
      const saved = await api("POST", "/api/me", { rules: current });
      document.getElementById("saved").textContent = t("rules.saved", { rules: saved.rules });
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
})();
