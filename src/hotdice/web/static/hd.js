/* hotdice: what every page shares — translations, numbers, the API, dice drawings, small page behaviours. */
"use strict";

const HD = (() => {
  const catalog = self.hotdiceCatalog;  // set by catalog.<lang>.js, loaded just before
  const lang = document.documentElement.lang || "en";
  const numberFormat = new Intl.NumberFormat(lang === "fr" ? "fr-FR" : "en-US");
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

  /** The catalog's text for key, with {name} placeholders filled in. */
  function t(key, params = {}) {
    const text = catalog[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (all, name) => (name in params ? String(params[name]) : all));
  }

  /** A seat's name as shown: one nobody chose (its code: hotdice.play.names) in this page's language, a chosen
      one as it was typed. */
  function seatName(name, code) {
    if (!code) return name;
    if (code.code === "computer") return code.level ? t("name.computer", { level: t(`level.${code.level}`) }) : t("game.computer");
    return code.n ? t("home.player_n", { n: code.n }) : t("home.default_name");
  }

  function num(n) { return numberFormat.format(n); }
  function pct(p) { return (100 * p).toLocaleString(lang === "fr" ? "fr-FR" : "en-US", { maximumFractionDigits: 1, minimumFractionDigits: 1 }) + "\u202f%"; }

  /** values with each player's name that comes with its seat (x beside x_seat; names x beside their seats x_seats)
      worded from that seat's default name (seats: each seat's, null for a chosen one), as hotdice.i18n.seated does. */
  function seated(values, seats) {
    if (!seats) return values;
    const out = { ...values };
    for (const [key, value] of Object.entries(values)) {
      const seat = values[`${key}_seat`];
      const several = values[`${key}_seats`];
      if (typeof value === "string" && Number.isInteger(seat)) out[key] = seatName(value, seats[seat]);
      if (Array.isArray(value) && Array.isArray(several)) out[key] = value.map((v, i) => seatName(v, seats[several[i]]));
    }
    return out;
  }

  /** A fact the server tells ({key, values}: an event of a table's log, hotdice.game.told.told_event) worded from
      the catalogue as hotdice.i18n.told words it: whole numbers as this language writes them, {x:faces} dice
      apart, {x:and} names joined by "and", each player's name from its seat (seats: as seated). */
  function said(key, values, seats) {
    const named = seated(values || {}, seats);
    return (catalog[key] ?? key).replace(/\{(\w+)(?::(\w+))?\}/g, (all, name, spec) => {
      if (!(name in named)) return all;
      const value = named[name];
      if (spec === "faces") return value.join(" ");
      if (spec === "and") return value.join(t("log.and"));
      return Number.isInteger(value) ? num(value) : String(value);
    });
  }

  /** A refusal of the engine, the rules or the modes ({code, values}: hotdice.game.refusals) worded from the
      catalogue, as hotdice.i18n words it: {x:dice} faces side by side, {x:or} choices joined by "or", {x:list}
      names joined by commas, a refusal among the values worded in turn; null if the catalogue has no words for it. */
  function refusal(r, seats = r && r.seats) {
    const text = r && catalog[`refusal.${r.code}`];
    if (text === undefined || text === null) return null;
    const values = seated(r.values || {}, seats);
    return text.replace(/\{(\w+)(?::(\w+))?\}/g, (all, key, spec) => {
      if (!(key in values)) return all;
      const value = values[key];
      if (value && typeof value === "object" && !Array.isArray(value)) return refusal(value, seats) ?? all;
      if (spec === "dice") return value.join("");
      if (spec === "or") return value.join(lang === "fr" ? " ou " : " or ");
      if (spec === "list") return value.join(", ");
      if (spec === "six_dice") return t(`knob.${value}`).toLowerCase();  // the combination the knob scores
      return String(value);
    });
  }

  /** Why the server refused, in this page's language: its refusal or its message (a catalogue key and values)
      when it carries one the catalogue words, else the server's own sentence. */
  function reasonOf(body, status) {
    const refused = body && refusal(body.refusal);
    if (refused) return body.refusal.bank ? t("refusal.cannot_bank", { reason: refused }) : refused;
    const said = body && body.message;
    if (said && said.key in catalog) return t(said.key, seated(said.values || {}, said.seats));
    return (body && body.detail) || `HTTP ${status}`;
  }

  class ApiError extends Error {
    constructor(status, body) {
      super(reasonOf(body, status));
      this.status = status;
      this.body = body || {};
    }
  }

  /** JSON in, JSON out; a refusal (4xx) becomes an ApiError carrying the server's reason. */
  async function api(method, url, body) {
    const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(url, options);
    } catch (err) {
      throw new ApiError(0, { detail: t("js.offline") });
    }
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  let toastTimer = 0;
  function toast(message, bad = false) {
    const box = document.getElementById("toast");
    if (!box) return;
    box.textContent = message;
    box.classList.toggle("bad", bad);
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { box.hidden = true; }, bad ? 5000 : 2600);
  }

  const PIPS = {
    1: [[50, 50]],
    2: [[28, 28], [72, 72]],
    3: [[27, 27], [50, 50], [73, 73]],
    4: [[28, 28], [72, 28], [28, 72], [72, 72]],
    5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
    6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
  };

  /** An SVG drawing of a die face (0: a blank die). */
  function dieSVG(face) {
    const r = face === 1 ? 11 : 9;
    const pips = (PIPS[face] || []).map(([x, y]) => `<circle class="pip" cx="${x}" cy="${y}" r="${r}"/>`).join("");
    return `<svg viewBox="0 0 100 100" aria-hidden="true" focusable="false">${pips}</svg>`;
  }

  function miniDice(faces) {
    return `<span class="mini" aria-hidden="true">${faces.map((f) => `<svg viewBox="0 0 100 100"><rect x="4" y="4" width="92" height="92" rx="20" fill="#fffaf0" stroke="#cdbf9f" stroke-width="6"/>${(PIPS[f] || []).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="10" fill="${f === 1 ? "#b3261e" : "#22201c"}"/>`).join("")}</svg>`).join("")}</span>`;
  }

  function escapeHTML(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }

  function go(url) { window.location.assign(url); }

  const PLAIN_COMBOS = { "three-pairs": "combo.three_pairs", "two-triplets": "combo.two_triples", "four-kind-pair": "combo.four_pair" };

  /** The engine's combinations ({kind, dice, points}) in words: "3 3 3 → three 3s = 300; 1 → a 1 = 100". */
  function combos(list) {
    return list.map(({ kind, dice, points }) => {
      let name;
      if (kind === "single") name = t("combo.a", { face: dice[0] });
      else if (kind === "of-a-kind") name = t("combo.n", { count: t(`count.${dice.length}`), face: dice[0] });
      else if (kind.endsWith("straight")) name = t("combo.straight", { run: `${dice[0]}-${dice[dice.length - 1]}` });
      else name = t(PLAIN_COMBOS[kind]);
      return t("combo.part", { dice: dice.join(" "), name, points: num(points) });
    }).join(lang === "fr" ? " ; " : "; ");
  }

  function busy(button, on) {
    if (!button) return;
    button.disabled = on;
    button.setAttribute("aria-busy", on ? "true" : "false");
  }

  /* Buttons that POST and follow the answer's url (or reload): [data-post]. */
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-post]");
    if (!button) return;
    event.preventDefault();
    busy(button, true);
    try {
      const data = await api("POST", button.dataset.post, {});
      if ("reload" in button.dataset || !data.url) window.location.reload();
      else go(data.url);
    } catch (err) {
      toast(err.message, true);
      busy(button, false);
    }
  });

  /* Copy buttons: [data-copy="#input"]. Links to this very page: [data-self-link]. */
  document.querySelectorAll("[data-self-link]").forEach((input) => { input.value = window.location.href.replace(/\/results$/, ""); });
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const input = document.querySelector(button.dataset.copy);
    try {
      await navigator.clipboard.writeText(input.value);
    } catch (err) {
      input.select();
      document.execCommand("copy");
    }
    toast(t("js.copied"));
  });

  /* The navigation folds into a menu on a phone (the CSS shows the button there): open, close, Escape. */
  const menu = document.getElementById("menu-button");
  if (menu) {
    const top = menu.closest(".top");
    top.classList.add("has-menu");
    const open = (on) => { menu.setAttribute("aria-expanded", String(on)); top.classList.toggle("menu-open", on); };
    menu.addEventListener("click", () => open(menu.getAttribute("aria-expanded") !== "true"));
    top.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && top.classList.contains("menu-open")) { open(false); menu.focus(); }
    });
  }

  /* The service worker that shows the offline page (/sw.js), told this page's language for it. */
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => registration.active.postMessage({ lang }))
      .catch(() => {});  // no worker (a private window, an old browser): the browser's own error page then
  }

  return { t, said, refusal, seatName, num, pct, api, toast, dieSVG, miniDice, escapeHTML, go, busy, combos, reducedMotion, lang, ApiError };
})();
