/* hotdice: how to play — a guided first turn. The engine plays it (GET /api/training/first-turn) and hands out
   its steps as facts; this script only words them and shows the dice. */
"use strict";

(() => {
  const { api, t, num, toast, dieSVG, escapeHTML, combos } = HD;
  const $ = (id) => document.getElementById(id);
  const rules = $("learn").dataset.rules;
  const SEEN = "hotdice.learned";  // first visit: the home page offers this page until it is seen or skipped
  let screens = [];
  let at = 0;

  try { localStorage.setItem(SEEN, "1"); } catch (err) { /* private mode: the offer may come back */ }

  /** The dice of a roll, those of ``marked`` (a set-aside, by faces) pressed. */
  function draw(roll, marked = []) {
    const left = [...marked];
    $("learn-dice").innerHTML = roll.map((face, i) => {
      const k = left.indexOf(face);
      const on = k >= 0;
      if (on) left.splice(k, 1);
      const named = face ? `role="img" aria-label="${escapeHTML(t("table.die_label", { n: i + 1, face }))}"` : 'aria-hidden="true"';
      return `<span class="die${face ? "" : " ghost"}" ${named} data-index="${i}" data-set-aside="${on}">${dieSVG(face)}</span>`;
    }).join("");
  }

  function decide(step) {
    if (step.bank === null) return t("learn.decide", { total: num(step.turn_total) });
    return t(`learn.no_bank.${step.bank.code}`, Object.fromEntries(Object.entries(step.bank.values).map(([k, v]) => [k, num(v)])));
  }

  /** One screen per step of the engine's turn, a first one before the first roll and a last one after it. */
  function build(turn) {
    const out = [{ dice: Array(turn.dice).fill(0), text: t("learn.start", { n: turn.dice }), total: 0 }];
    let roll = [];
    for (const step of turn.steps) {
      if (step.kind === "roll") {
        roll = step.dice;
        const rest = [...roll];
        step.combinations.forEach((c) => c.dice.forEach((d) => rest.splice(rest.indexOf(d), 1)));
        const parts = [t("learn.roll", { dice: roll.join(" ") }), t("combo.scores", { parts: combos(step.combinations) })];
        if (rest.length) parts.push(t("combo.rest", { dice: rest.join(" ") }));
        out.push({ dice: roll, text: parts.join(" "), total: step.turn_total, kind: "roll" });
      } else if (step.kind === "set-aside") {
        const parts = [t("learn.set_aside", { dice: step.dice.join(" "), points: num(step.points), total: num(step.turn_total) })];
        if (step.hot_dice) parts.push(t("learn.hot", { n: step.dice_in_hand, total: num(step.turn_total) }));
        else parts.push(t(step.dice_in_hand === 1 ? "learn.left_one" : "learn.left", { n: step.dice_in_hand }));
        parts.push(decide(step));
        out.push({ dice: roll, marked: step.dice, text: parts.join(" "), total: step.turn_total, kind: step.hot_dice ? "hot-dice" : "set-aside" });
      } else {
        out.push({ dice: step.dice, text: t("learn.farkle", { dice: step.dice.join(" "), total: num(step.points) }), total: 0, kind: "farkle" });
      }
    }
    out.push({ dice: [], text: t("learn.end"), total: 0, kind: "end" });
    return out;
  }

  function show() {
    const screen = screens[at];
    $("learn").dataset.step = screen.kind || "start";
    $("learn-step").textContent = t("learn.step", { n: at + 1, count: screens.length });
    draw(screen.dice, screen.marked);
    $("learn-total").textContent = screen.total ? t("learn.total", { total: num(screen.total) }) : "";
    $("learn-text").textContent = screen.text;
    const last = at === screens.length - 1;
    $("learn-next").hidden = last;
    $("learn-skip").hidden = last;
    $("learn-done").hidden = !last;
    $("learn-dice").classList.toggle("farkled", screen.kind === "farkle");
  }

  $("learn-next").addEventListener("click", () => { at += 1; show(); $("learn-next").focus(); });
  $("learn-again").addEventListener("click", () => { at = 0; show(); $("learn-next").focus(); });

  api("GET", `/api/training/first-turn?rules=${encodeURIComponent(rules)}`)
    .then((turn) => { screens = build(turn); show(); })
    .catch((err) => toast(err.message, true));
})();
