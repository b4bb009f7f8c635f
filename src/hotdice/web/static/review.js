/* The review page: draws GET /api/games/{id}/review (hotdice.analysis.game_review) — the graph as SVG with a point
   per step that takes keyboard focus, the step under it with every choice and its exact value, the summary, and a
   table of every step for screen readers. Nothing is computed here but the drawing. */
"use strict";

(() => {
  const { t, num, api, escapeHTML, miniDice, lang } = HD;
  const $ = (id) => document.getElementById(id);
  const root = $("review");
  const gameId = root.dataset.game;
  const W = 640, H = 240, PAD = { left: 56, right: 12, top: 12, bottom: 28 };
  const MARKED = ["inaccuracy", "mistake", "blunder"];
  let review = null;
  let current = 0;  // the step shown (0: the start, k: after steps[k - 1])

  const decimal = (x, digits) => x.toLocaleString(lang === "fr" ? "fr-FR" : "en-US",
    { minimumFractionDigits: digits, maximumFractionDigits: digits });

  /** A value in the review's measure, as the CLI words it. */
  function value(v) {
    if (review.measure === "win") return t("cli.percent", { value: decimal(100 * v, 1) });
    if (review.measure === "turns") return t("review.turns", { n: decimal(v, 2) });
    return t("review.points", { n: num(Math.round(v)) });
  }

  function loss(x) {
    if (review.measure === "win") return t("cli.advise.cost_win", { cost: decimal(100 * x, 2) });
    if (review.measure === "turns") return t("cli.advise.cost_turns", { cost: decimal(x, 3) });
    return t("cli.advise.cost_points", { cost: decimal(x, 1) });
  }

  function change(x) {
    const shown = review.measure === "win" ? 100 * x : x;
    const digits = { win: 2, points: 1, turns: 3 }[review.measure];
    const sign = Number(shown.toFixed(digits)) >= 0 ? "+" : "-";
    return t(`review.change_${review.measure}`, { change: sign + decimal(Math.abs(shown), digits) });
  }

  /** A decision in the engine's notation ("set aside 155, then roll", "bank") in the page's words. */
  function decision(text) {
    const m = /^set aside (\S+), then (roll|bank)$/.exec(text);
    return m ? t(`hint.keep_then_${m[2]}`, { keep: m[1] }) : t(`hint.then_${text}`);
  }

  const name = (seat) => review.players[seat].name;
  const stepAt = (k) => (k > 0 ? review.steps[k - 1] : null);

  function describe(k) {
    const step = stepAt(k);
    if (!step) return t("review.at_start");
    const what = step.kind === "roll" ? t("review.rolled", { dice: step.dice.split("").join(" ") })
      : decision(step.played);
    return t("review.step_title", { turn: step.turn, name: name(step.seat), what });
  }

  // -- the chart ------------------------------------------------------------------------------------------------

  function scale() {
    const all = [review.start, ...review.steps.map((s) => s.values)].flat();
    let low = review.measure === "win" ? 0 : Math.min(...all), high = review.measure === "win" ? 1 : Math.max(...all);
    if (high - low < 1e-9) { low -= 1; high += 1; }
    const n = review.steps.length;
    const x = (k) => PAD.left + (W - PAD.left - PAD.right) * (n ? k / n : 0);
    // Fewer turns is better: the chart still rises when the game goes well.
    const up = review.measure === "turns" ? (v) => (high - v) / (high - low) : (v) => (v - low) / (high - low);
    const y = (v) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - up(v));
    return { x, y, low, high };
  }

  function drawChart() {
    const { x, y, low, high } = scale();
    const seats = review.players.map((p) => p.seat);
    const series = (seat) => [review.start[seat], ...review.steps.map((s) => s.values[seat])];
    const lines = seats.map((seat) => `<polyline class="review-line seat-${seat}" fill="none" points="${
      series(seat).map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ")}"/>`).join("");
    const top = review.measure === "turns" ? low : high, bottom = review.measure === "turns" ? high : low;
    const axis = `<line class="axis" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${H - PAD.bottom}"/>`
      + `<line class="axis" x1="${PAD.left}" y1="${H - PAD.bottom}" x2="${W - PAD.right}" y2="${H - PAD.bottom}"/>`
      + `<text class="tick" x="${PAD.left - 4}" y="${PAD.top + 8}" text-anchor="end">${escapeHTML(value(top))}</text>`
      + `<text class="tick" x="${PAD.left - 4}" y="${H - PAD.bottom}" text-anchor="end">${escapeHTML(value(bottom))}</text>`
      + `<text class="tick" x="${PAD.left}" y="${H - 8}">${escapeHTML(t("review.turn_n", { n: 1 }))}</text>`
      + `<text class="tick" x="${W - PAD.right}" y="${H - 8}" text-anchor="end">${escapeHTML(t("review.turn_n", { n: review.steps.length ? review.steps[review.steps.length - 1].turn : 1 }))}</text>`;
    // One point per step on the line of the seat that acted: focus moves along them with the arrow keys.
    const points = [0, ...review.steps.map((_, i) => i + 1)].map((k) => {
      const step = stepAt(k);
      const seat = step ? step.seat : 0;
      const v = step ? step.values[seat] : review.start[0];
      const mark = step && MARKED.includes(step.label) ? ` ${step.label}` : "";
      const label = `${describe(k)}: ${value(v)}${mark ? `, ${t(`review.label.${step.label}`)}` : ""}`;
      return `<circle class="point seat-${seat}${mark}" data-k="${k}" cx="${x(k).toFixed(1)}" cy="${y(v).toFixed(1)}" r="${mark ? 5 : 3}" tabindex="-1" role="button" aria-label="${escapeHTML(label)}"><title>${escapeHTML(label)}</title></circle>`;
    }).join("");
    $("review-chart").innerHTML = `<svg class="review-svg" viewBox="0 0 ${W} ${H}" role="group" aria-label="${escapeHTML(t("review.chart_title"))}">${axis}${lines}<g id="review-points">${points}</g></svg>`;
    $("review-legend").innerHTML = review.players.map((p) => `<li><span class="swatch seat-${p.seat}" aria-hidden="true"></span>${escapeHTML(p.name)}</li>`).join("");
    const group = $("review-points");
    group.addEventListener("click", (e) => { const k = e.target.dataset && e.target.dataset.k; if (k !== undefined) show(Number(k), true); });
    group.addEventListener("keydown", (e) => {
      const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowUp: 1, ArrowDown: -1, Home: -Infinity, End: Infinity };
      if (e.key in moves) { e.preventDefault(); show(current + moves[e.key], true); }
      else if (e.key === "m" || e.key === "M") { e.preventDefault(); nextMistake(true); }
    });
  }

  // -- one step -------------------------------------------------------------------------------------------------

  function show(k, focus = false) {
    current = Math.max(0, Math.min(review.steps.length, k));
    for (const point of document.querySelectorAll("#review-points .point")) {
      const on = Number(point.dataset.k) === current;
      point.setAttribute("tabindex", on ? "0" : "-1");
      point.classList.toggle("current", on);
      if (on && focus) point.focus();
    }
    const step = stepAt(current);
    $("step-title").textContent = describe(current);
    $("review-prev").disabled = current === 0;
    $("review-next").disabled = current === review.steps.length;
    $("review-mistake").disabled = nextMarked() === null;
    const body = [];
    if (!step) {
      body.push(`<p>${review.players.map((p) => escapeHTML(`${p.name}: ${value(review.start[p.seat])}`)).join(" · ")}</p>`);
    } else {
      const fields = step.position.split(" ");
      const scores = fields[0].split(",").map((s) => num(parseInt(s, 10)));
      const total = fields[2].split("/")[0];
      body.push(`<p class="small muted">${escapeHTML(t("review.at", { scores: scores.join("-"), total: num(Number(total)) }))}</p>`);
      if (step.kind === "roll") {
        body.push(`<p>${miniDice(step.dice.split("").map(Number))} ${escapeHTML(t("review.roll_luck", { before: value(step.before), after: value(step.after), luck: change(review.measure === "turns" ? -step.luck : step.luck) }))}</p>`);
      } else {
        if (fields[3] !== "-" && fields[3] !== "?") body.push(`<p>${miniDice(fields[3].split("").map(Number))}</p>`);
        body.push(`<p><strong class="label-${step.label}">${escapeHTML(t(`review.label.${step.label}`))}</strong> — ${escapeHTML(t("review.played_best", { played: decision(step.played), best: decision(step.best), loss: loss(step.loss) }))}</p>`);
        const rows = step.choices.map((c) => {
          const classes = [c.decision === step.best ? "best" : "", c.decision === step.played ? "played" : ""].join(" ").trim();
          const note = [c.decision === step.best ? t("review.best_mark") : "", c.decision === step.played ? t("review.played_mark") : ""].filter(Boolean).join(", ");
          return `<tr class="${classes}"><th scope="row">${escapeHTML(decision(c.decision))}${note ? ` <span class="small">(${escapeHTML(note)})</span>` : ""}</th><td>${escapeHTML(value(c.value))}</td><td>${c.loss > 1e-9 ? escapeHTML(loss(c.loss)) : "—"}</td></tr>`;
        }).join("");
        body.push(`<div class="table-scroll" tabindex="0" role="region" aria-label="${escapeHTML(t("review.choices"))}"><table class="review-table choices"><caption class="visually-hidden">${escapeHTML(t("review.choices"))}</caption><thead><tr><th scope="col">${escapeHTML(t("cli.advise.choice"))}</th><th scope="col">${escapeHTML(t("review.value"))}</th><th scope="col">${escapeHTML(t("cli.advise.cost"))}</th></tr></thead><tbody>${rows}</tbody></table></div>`);
      }
    }
    $("step-body").innerHTML = body.join("");
  }

  function nextMarked() {
    for (let k = current + 1; k <= review.steps.length; k++) if (MARKED.includes(stepAt(k).label)) return k;
    return null;
  }

  function nextMistake(focus) {
    const k = nextMarked();
    if (k !== null) show(k, focus);
  }

  // -- summary and the table of every step -------------------------------------------------------------------------

  function drawSummary() {
    const heads = ["review.player", "review.start", "review.end", "review.luck", "review.skill", "review.accuracy",
      "review.label.inaccuracy", "review.label.mistake", "review.label.blunder"];
    const rows = review.players.map((p) => [p.name, value(p.start), value(p.end),
      change(review.measure === "turns" ? -p.luck : p.luck), loss(p.skill_lost),
      p.accuracy === null ? "—" : decimal(p.accuracy, 1), p.labels.inaccuracy, p.labels.mistake, p.labels.blunder]);
    $("summary-table").innerHTML = `<thead><tr>${heads.map((h) => `<th scope="col">${escapeHTML(t(h))}</th>`).join("")}</tr></thead><tbody>${
      rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${escapeHTML(c)}</th>` : `<td>${escapeHTML(String(c))}</td>`)).join("")}</tr>`).join("")}</tbody>`;
    const heads2 = ["review.turn", "review.player", "review.step", "review.value", "cli.advise.cost", "review.label"];
    $("steps-table").innerHTML = `<thead><tr>${heads2.map((h) => `<th scope="col">${escapeHTML(t(h))}</th>`).join("")}</tr></thead><tbody>${
      review.steps.map((s) => `<tr><td>${s.turn}</td><td>${escapeHTML(name(s.seat))}</td><td>${escapeHTML(s.kind === "roll" ? t("review.rolled", { dice: s.dice.split("").join(" ") }) : decision(s.played))}</td><td>${escapeHTML(value(s.after))}</td><td>${s.kind === "roll" ? escapeHTML(change(review.measure === "turns" ? -s.luck : s.luck)) : escapeHTML(loss(s.loss))}</td><td>${s.label ? escapeHTML(t(`review.label.${s.label}`)) : ""}</td></tr>`).join("")}</tbody>`;
  }

  async function load() {
    try {
      review = await api("GET", `/api/games/${encodeURIComponent(gameId)}/review`);
    } catch (err) {
      $("review-status").textContent = err.message;
      const said = err.body && err.body.message;
      if (said && said.key === "error.review_preparing") setTimeout(load, 2000);  // the solver is at work: ask again
      return;
    }
    $("review-status").hidden = true;
    $("review-measure").textContent = t(`review.page_measure.${review.measure}`);
    if (review.approximate) { $("review-note").textContent = t("review.approximate"); $("review-note").hidden = false; }
    drawChart();
    drawSummary();
    for (const id of ["review-figure", "review-step", "review-summary", "review-table-box"]) $(id).hidden = false;
    $("review-prev").addEventListener("click", () => show(current - 1));
    $("review-next").addEventListener("click", () => show(current + 1));
    $("review-mistake").addEventListener("click", () => nextMistake(false));
    show(0);
  }

  load();
})();
