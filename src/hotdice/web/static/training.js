/* hotdice: training — tap the best set-aside of a roll; choose bank or roll. Nothing here is recorded. */
"use strict";

(() => {
  const { api, t, num, toast, dieSVG, escapeHTML, combos, lang } = HD;
  const exact = new Intl.NumberFormat(lang === "fr" ? "fr-FR" : "en-US", { maximumFractionDigits: 1 });
  const rules = document.getElementById("training").dataset.rules;
  const $ = (id) => document.getElementById(id);
  let question = null;
  let picked = new Set();
  let drill = null;
  // The streak of right answers, on this page only: never sent, never in statistics.
  const streak = { now: 0, best: 0 };

  /** Counts the first answer to each question or drill only: answering again teaches, it does not score. */
  function count(asked, correct) {
    if (asked.counted) return;
    asked.counted = true;
    streak.now = correct ? streak.now + 1 : 0;
    streak.best = Math.max(streak.best, streak.now);
    $("streak").textContent = t("training.streak", { n: streak.now, best: streak.best });
  }

  async function nextQuestion() {
    question = await api("GET", `/api/training/question?rules=${encodeURIComponent(rules)}`);
    picked = new Set();
    $("quiz-feedback").textContent = "";
    $("quiz-feedback").className = "feedback";
    $("quiz-why").textContent = "";
    drawQuestion();
  }

  function drawQuestion() {
    $("quiz-dice").innerHTML = question.roll.map((face, i) =>
      `<button type="button" class="die" data-index="${i}" aria-pressed="${picked.has(i)}" aria-label="${escapeHTML(t("table.die_label", { n: i + 1, face }))}">${dieSVG(face)}</button>`
    ).join("");
  }

  $("quiz-dice").addEventListener("click", (event) => {
    const die = event.target.closest(".die");
    if (!die) return;
    const i = Number(die.dataset.index);
    if (picked.has(i)) picked.delete(i); else picked.add(i);
    die.setAttribute("aria-pressed", String(picked.has(i)));
  });

  async function answer(keep) {
    try {
      const result = await api("POST", "/api/training/question", { rules, roll: question.roll, keep });
      const best = result.best_keep === null ? t("training.best_farkle") : t("training.best", { keep: result.best_keep.split("").join(" "), points: num(result.best_points) });
      $("quiz-feedback").textContent = `${result.correct ? t("training.right") : t("training.wrong")} ${best}`;
      $("quiz-feedback").className = `feedback ${result.correct ? "right" : "wrong"}`;
      const why = result.combinations.length ? [t("combo.scores", { parts: combos(result.combinations) })] : [];
      if (result.combinations.length && result.rest.length) why.push(t("combo.rest", { dice: result.rest.join(" ") }));
      $("quiz-why").textContent = why.join(" ");
      count(question, result.correct);
    } catch (err) {
      toast(err.message, true);
    }
  }

  $("quiz-check").addEventListener("click", () => {
    const keep = [...picked].map((i) => question.roll[i]).sort().join("");
    if (!keep) { toast(t("training.pick"), true); return; }
    answer(keep);
  });
  $("quiz-farkle").addEventListener("click", () => answer("farkle"));
  $("quiz-next").addEventListener("click", nextQuestion);

  async function nextDrill() {
    $("drill-state").textContent = t("training.thinking");
    drill = await api("GET", `/api/training/drill?rules=${encodeURIComponent(rules)}`);
    $("drill-feedback").textContent = "";
    $("drill-feedback").className = "feedback";
    $("drill-values").textContent = "";
    $("drill-state").textContent = t(drill.hot_dice ? "training.drill_state_hot" : "training.drill_state", { total: num(drill.turn_total), n: drill.dice });
  }

  async function decide(choice) {
    try {
      const result = await api("POST", "/api/training/drill", { rules, turn_total: drill.turn_total, dice: drill.dice, hot_dice: drill.hot_dice, answer: choice });
      $("drill-feedback").textContent = `${result.correct ? t("training.right") : t("training.wrong")} ${t(`training.better.${result.answer}`)}`;
      $("drill-feedback").className = `feedback ${result.correct ? "right" : "wrong"}`;
      $("drill-values").textContent = t("training.compare", { bank: exact.format(result.bank_value), roll: exact.format(result.roll_value), farkle: HD.pct(result.farkle_chance) });
      count(drill, result.correct);
    } catch (err) {
      toast(err.message, true);
    }
  }

  $("drill-roll").addEventListener("click", () => decide("roll"));
  $("drill-bank").addEventListener("click", () => decide("bank"));
  $("drill-next").addEventListener("click", nextDrill);

  nextQuestion().catch((err) => toast(err.message, true));
  nextDrill().catch((err) => toast(err.message, true));
})();
