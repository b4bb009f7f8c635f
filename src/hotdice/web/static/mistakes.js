/* hotdice: "learn from your mistakes" — the mistakes and blunders of one's own finished games (GET
   /api/training/mistakes), each played again and checked against the exact values of its review. Nothing recorded. */
"use strict";

(() => {
  const { api, t, num, escapeHTML, miniDice, lang } = HD;
  const $ = (id) => document.getElementById(id);
  let list = [];
  let at = 0;

  const decimal = (x, digits) => x.toLocaleString(lang === "fr" ? "fr-FR" : "en-US",
    { minimumFractionDigits: digits, maximumFractionDigits: digits });

  function decision(text) {
    const m = /^set aside (\S+), then (roll|bank)$/.exec(text);
    return m ? t(`hint.keep_then_${m[2]}`, { keep: m[1] }) : t(`hint.then_${text}`);
  }

  function value(measure, v) {
    if (measure === "win") return t("cli.percent", { value: decimal(100 * v, 1) });
    if (measure === "turns") return t("review.turns", { n: decimal(v, 2) });
    return t("review.points", { n: num(Math.round(v)) });
  }

  function loss(measure, x) {
    if (measure === "win") return t("cli.advise.cost_win", { cost: decimal(100 * x, 2) });
    if (measure === "turns") return t("cli.advise.cost_turns", { cost: decimal(x, 3) });
    return t("cli.advise.cost_points", { cost: decimal(x, 1) });
  }

  function draw() {
    $("mistakes-feedback").textContent = "";
    $("mistakes-why").textContent = "";
    $("mistakes-next").hidden = true;
    if (!list.length) {
      $("mistakes-count").textContent = t("training.mistakes_none");
      return;
    }
    const e = list[at];
    const fields = e.position.split(" ");
    const scores = fields[0].split(",").map((s) => num(parseInt(s, 10))).join("-");
    const dice = fields[3] !== "-" && fields[3] !== "?" ? miniDice(fields[3].split("").map(Number)) : "";
    $("mistakes-count").textContent = t("training.mistakes_count", { n: at + 1, count: list.length });
    $("mistakes-position").innerHTML = `${dice} ${escapeHTML(t("review.at", { scores, total: num(Number(fields[2].split("/")[0])) }))}`;
    $("mistakes-choices").innerHTML = e.choices.map((c) =>
      `<button type="button" class="button" data-decision="${escapeHTML(c.decision)}">${escapeHTML(decision(c.decision))}</button>`).join("");
  }

  $("mistakes-choices").addEventListener("click", async (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    const e = list[at];
    const answer = await api("POST", "/api/training/mistakes", { game: e.game, step: e.step, decision: button.dataset.decision });
    const done = answer.exercise;
    const best = done.choices[0];
    $("mistakes-feedback").className = `feedback ${answer.correct ? "right" : "wrong"}`;
    $("mistakes-feedback").textContent = answer.correct ? t("training.mistake_right", { value: value(done.measure, best.value) })
      : t("training.mistake_wrong", { answer: decision(answer.answer), loss: loss(done.measure, answer.loss), best: decision(done.best) });
    $("mistakes-why").textContent = `${t("training.mistake_was", { played: decision(done.played), label: t(`review.label.${done.label}`) })} `
      + done.choices.map((c) => `${decision(c.decision)}: ${value(done.measure, c.value)}`).join(" · ");
    for (const b of $("mistakes-choices").querySelectorAll("button")) b.classList.toggle("gold", b.dataset.decision === done.best);
    $("mistakes-next").hidden = list.length < 2;
  });

  $("mistakes-next").addEventListener("click", () => { at = (at + 1) % list.length; draw(); });

  api("GET", "/api/training/mistakes").then((found) => { list = found; draw(); }).catch(() => draw());
})();
