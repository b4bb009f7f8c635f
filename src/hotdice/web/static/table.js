/* hotdice: the table. The server holds the game; this page shows it and sends intents with the action
   number it saw. It knows no rule: which dice may be set aside, their points, whether a bank is allowed and
   the farkle risk all come from the server's view of the game. */
"use strict";

(() => {
  const { t, said, refusal, seatName, num, pct, api, toast, dieSVG, miniDice, escapeHTML, reducedMotion, ApiError } = HD;
  const $ = (id) => document.getElementById(id);
  const root = $("table");
  const live = root.dataset.live === "1";

  let view = JSON.parse($("view").textContent);
  const you = view.you; // the seats this device plays (none: watching)
  let selected = new Set(); // indices of the roll's dice picked to set aside
  let events = view.events; // the game's events: the page's, then each view's new ones (it carries the last few)
  let seen = events.length; // events already told
  let sending = false;
  let stepTimer = 0;
  let quietUntil = 0; // a moment is on screen until then: the computer waits for it
  let hint = null;
  // another player of this online table asked for a rematch: "Join the rematch" (the page learns of it live)
  let rematchOffered = root.dataset.rematchOffered === "1";
  let pad = null; // the score pad's roll being typed: {intent, count, faces}

  const storeKey = () => `hotdice:${view.id}:${view.n}`;
  const name = (seat) => seatName(view.players[seat].name, view.seats[seat].default);
  const defaults = () => view.seats.map((s) => s.default); // how a fact's names are shown (HD.said)
  const mine = () => view.to_act !== null && you.includes(view.to_act);
  const computerToPlay = () => view.to_act !== null && view.seats[view.to_act].computer !== null && you.length > 0;

  function restoreSelection() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(storeKey()) || "[]");
      selected = new Set(saved.filter((i) => view.roll && i < view.roll.length));
    } catch (err) {
      selected = new Set();
    }
  }
  function saveSelection() {
    try { sessionStorage.setItem(storeKey(), JSON.stringify([...selected])); } catch (err) { /* private mode */ }
  }

  function selectedKeep() {
    return [...selected].map((i) => view.roll[i]).sort((a, b) => a - b).join("");
  }
  function selectedOption() {
    if (view.phase !== "set-aside" || selected.size === 0) return null;
    const keep = selectedKeep();
    return view.options.find((o) => o.set_aside === keep) || null;
  }

  /* -- drawing ------------------------------------------------------------------------------------ */

  function renderScores() {
    const winners = view.outcome ? view.outcome.winners : [];
    $("scores").innerHTML = view.players.map((p, i) => {
      const meta = [];
      if (view.outcome === null && i === view.current) meta.push(`<span class="tag turn">${escapeHTML(t("table.playing"))}</span>`);
      if (view.seats[i].computer) meta.push(`<span class="tag">${escapeHTML(t("level." + view.seats[i].computer))}</span>`);
      else if (you.includes(i) && you.length < view.players.length && view.players.length > 1) meta.push(`<span class="tag">${escapeHTML(t("board.you"))}</span>`);
      if (view.seats[i].bot) meta.push(`<span class="tag">${escapeHTML(t("board.bot"))}</span>`);
      const text = (words) => `<span>${escapeHTML(words)}</span>`;
      if (view.turn_limit && view.outcome === null && i === view.current) meta.push(text(t("table.turns_of", { turns: view.round, limit: view.turn_limit })));
      else if (view.turn_limit) meta.push(text(t("table.turns_played_of", { turns: p.turns, limit: view.turn_limit })));
      else meta.push(text(t(p.turns === 1 ? "table.turns_one" : "table.turns", { turns: p.turns })));
      if (view.entry > 0 && !p.entered) meta.push(text(t("table.not_entered", { entry: num(view.entry) })));
      if (p.farkles_in_row > 0) meta.push(`<span class="farkle-marks" title="${escapeHTML(t("table.farkles_in_row", { n: p.farkles_in_row }))}">${"✕".repeat(p.farkles_in_row)}</span>`);
      if (view.last_round_by === i) meta.push(text(t("table.reached")));
      const classes = ["score", view.outcome === null && i === view.current ? "current" : "", winners.includes(i) ? "winner" : ""].join(" ");
      const label = t("table.score_label", { name: name(i), score: num(p.score) });
      return `<li class="${classes}" aria-label="${escapeHTML(label)}"${i === view.current ? ' aria-current="true"' : ""}>
        <span class="name" title="${escapeHTML(name(i))}">${escapeHTML(name(i))}</span>
        <span class="points">${num(p.score)}</span><span class="meta">${meta.join("")}</span></li>`;
    }).join("");
  }

  function renderTurnLine() {
    let text;
    if (view.outcome) text = escapeHTML(t("table.game_over"));
    else if (mine() && you.length === 1) text = `<span class="who">${escapeHTML(t("table.your_turn"))}</span>`;
    else text = `<span class="who">${escapeHTML(name(view.current))}</span> ${escapeHTML(computerToPlay() || view.seats[view.current].computer ? t("table.computer_playing") : t("table.to_play"))}`;
    if (view.turn_limit && !view.outcome) text += ` · ${escapeHTML(t("table.turn_of", { turn: view.round, limit: view.turn_limit }))}`;
    if (view.target && !view.outcome) text += ` · ${escapeHTML(t("table.target", { target: num(view.target) }))}`;
    if (view.last_round_by !== null && !view.outcome) text += ` · <strong>${escapeHTML(t("moment.last-round"))}</strong>`;
    // The challenge was closed while this attempt is under way: it may be finished until its grace deadline.
    if (view.finish_by && !view.outcome) text += ` · <strong id="finish-by">${escapeHTML(t("table.finish_by", { when: `${view.finish_by.slice(0, 16).replace("T", " ")} UTC` }))}</strong>`;
    $("turn-line").innerHTML = text;
    $("turn-total").textContent = num(view.turn_total);
  }

  function renderDice() {
    const box = $("dice");
    box.classList.remove("farkled");
    const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.index : null;
    if (view.roll) {
      const active = mine() && view.phase === "set-aside" && !sending;
      box.setAttribute("aria-label", t("table.dice_rolled"));
      box.innerHTML = view.roll.map((face, i) => {
        const label = t("table.die_label", { n: i + 1, face });
        return `<button type="button" class="die" data-index="${i}" data-face="${face}" aria-pressed="${selected.has(i)}"
          aria-label="${escapeHTML(label)}"${active ? "" : " disabled"}>${dieSVG(face)}</button>`;
      }).join("");
      const again = focused === null ? null : box.querySelector(`[data-index="${focused}"]`);
      if (again && !again.disabled) again.focus({ preventScroll: true });
      return;
    }
    const failed = view.dead_roll; // the roll that ended the last turn (a farkle or a bust), until the next roll
    if (failed) {
      box.classList.add("farkled");
      box.setAttribute("aria-label", t("table.last_roll"));
      box.innerHTML = failed.map((face) => `<span class="die dead" role="img" aria-label="${face}">${dieSVG(face)}</span>`).join("");
      return;
    }
    box.setAttribute("aria-label", t("table.dice_to_roll", { n: view.dice_in_hand }));
    box.innerHTML = view.outcome ? "" : Array.from({ length: view.dice_in_hand }, () => '<span class="die ghost" aria-hidden="true"></span>').join("");
  }

  function renderTray() {
    $("tray").innerHTML = view.set_asides.map((keep) =>
      `<span class="group" role="listitem" aria-label="${escapeHTML(keep.split("").join(" "))}">${keep.split("").map((f) => `<span class="die" aria-hidden="true">${dieSVG(Number(f))}</span>`).join("")}</span>`
    ).join("");
  }

  function rollCount(option) {
    return option ? option.risk.dice : view.dice_in_hand;
  }

  function renderControls() {
    const roll = $("roll");
    const bank = $("bank");
    const playing = mine() && !sending && view.outcome === null && !view.ended;
    const option = selectedOption();
    let canRoll = false;
    let canBank = false;
    let why = "";
    let risk = null;
    let selection = "";
    let bankTotal = view.turn_total;
    let records = view.bank_records;
    if (view.phase === "set-aside") {
      if (selected.size === 0) {
        selection = mine() ? escapeHTML(t("table.pick")) : "";
      } else if (option) {
        selection = t("table.selection", { keep: option.set_aside.split("").join(" "), points: `<strong>+${num(option.points)}</strong>`, total: num(view.turn_total + option.points) });
        canRoll = !option.wins;
        canBank = option.bank_refusal === null;
        why = refusal(option.bank_refusal) || "";
        risk = option.wins ? null : option.risk;
        bankTotal = view.turn_total + option.points;
        records = option.records;
        if (option.hot_dice) selection += ` · <strong>${escapeHTML(t("moment.hot-dice"))}</strong>`;
      } else {
        // The engine's own reason (view.refusals), else the commonest one.
        const reason = refusal(view.refusals[selectedKeep()]) || t("table.not_scoring");
        selection = `<span class="bad">${escapeHTML(reason)}</span>`;
      }
    } else if (view.phase === "decide" && view.outcome === null) {
      canRoll = view.can_roll;
      canBank = view.can_bank;
      why = view.can_bank || view.turn_total === 0 ? "" : refusal(view.bank_refusal) || "";
      risk = view.risk;
      if (view.hot_dice) selection = `<strong>${escapeHTML(t("moment.hot-dice"))}</strong> ${escapeHTML(t("table.hot_dice_choice"))}`;
    }
    $("selection").innerHTML = selection;
    roll.disabled = !(playing && canRoll) || pad !== null;
    bank.disabled = !(playing && canBank) || pad !== null;
    const count = rollCount(option);
    roll.textContent = view.mode === "pad" ? t("pad.roll", { n: count }) : t("table.roll_n", { n: count });
    if (option && option.wins) bank.textContent = t("table.bank_win");
    else bank.textContent = records ? (bankTotal > 0 ? t("table.bank_n", { points: num(bankTotal) }) : t("table.bank")) : t("table.stop_lost");
    $("why").textContent = mine() && view.outcome === null ? why : "";
    $("risk").innerHTML = mine() && risk && view.outcome === null
      ? t("table.risk", { n: risk.dice, p: `<strong>${pct(risk.p)}</strong>`, exact: risk.exact })
      : "";
    renderBest(playing);
    $("hint").hidden = !(view.hints && mine() && view.outcome === null);
    $("hint").disabled = sending;
    renderHint();
  }

  /** One tap sets aside the roll's best-points set-aside (the engine's first: the view's ``best``). */
  function renderBest(playing) {
    const button = $("best");
    const best = view.best === null ? null : view.options.find((o) => o.set_aside === view.best);
    button.hidden = !(best && mine() && view.outcome === null && !view.ended);
    button.disabled = !playing || pad !== null;
    if (!best) return;
    const words = { dice: best.set_aside.split("").join(" "), points: num(best.points) };
    button.textContent = t("table.best", words);
    button.setAttribute("aria-label", t("table.best_label", words));
  }

  function setAsideBest() {
    if ($("best").hidden || $("best").disabled) return;
    send({ keep: view.best });
  }

  function renderHint() {
    const box = $("hint-box");
    if (!hint || hint.n !== view.n) {
      box.hidden = true;
      return;
    }
    const worth = (c) => {
      if (hint.measure === "win") return t("hint.win", { p: pct(c.value) });
      if (hint.measure === "turns") return t("hint.turns", { n: c.value.toFixed(2) });
      return t("hint.points", { points: num(Math.round(c.value)) });
    };
    const what = (c) => (c.set_aside ? t("hint.keep_then_" + c.then, { keep: c.set_aside.split("").join(" ") }) : t("hint.then_" + c.then));
    const items = hint.choices.slice(0, 4).map((c, i) =>
      `<li class="${i === 0 ? "best" : ""}">${escapeHTML(what(c))} — ${escapeHTML(worth(c))}${i > 0 && c.cost > 0 ? ` <span class="muted">(${escapeHTML(t("hint.cost"))} ${escapeHTML(hint.measure === "win" ? pct(c.cost) : c.cost.toFixed(hint.measure === "turns" ? 2 : 0))})</span>` : ""}</li>`
    ).join("");
    const best = hint.choices[0];
    const working = hint.solver && hint.solver.state !== "ready"
      ? `<p class="muted">${escapeHTML(solverText(hint.solver, "hint.working"))}</p>` : "";
    box.innerHTML = `<h3>${escapeHTML(t("hint.title"))}</h3>${working}<ol>${items}</ol>` +
      (best.set_aside && view.roll ? `<button type="button" class="button small" id="hint-use">${escapeHTML(t("hint.use"))}</button>` : "");
    box.hidden = false;
    const use = $("hint-use");
    if (use) use.addEventListener("click", () => { pickDice(best.set_aside); });
  }

  function pickDice(keep) {
    const wanted = keep.split("").map(Number);
    selected = new Set();
    view.roll.forEach((face, i) => {
      const at = wanted.indexOf(face);
      if (at >= 0) { selected.add(i); wanted.splice(at, 1); }
    });
    saveSelection();
    renderDice();
    renderControls();
  }

  /** An event's line: what the server says it says (its catalogue key and values), with the dice drawn. */
  function logLine(e) {
    const dice = (e.kind === "roll" || e.kind === "set-aside") && e.dice.length ? ` ${miniDice(e.dice)}` : "";
    return [escapeHTML(said(e.key, e.values, defaults())) + dice, e.kind];
  }

  let lines = []; // the log, one [html, kind] per event

  function renderLog() {
    lines = events.map(logLine);
    const log = $("log");
    log.innerHTML = lines.map(([html, kind]) => `<li class="${kind}">${html}</li>`).join("");
    log.scrollTop = log.scrollHeight;
  }

  function renderRollOff() {
    const box = $("roll-off");
    if (!view.roll_off) { box.hidden = true; return; }
    const rounds = view.roll_off.map((round) => round.map(([p, die]) => `${escapeHTML(name(p))} ${miniDice([die])}`).join(", "));
    box.innerHTML = `<strong>${escapeHTML(t("table.roll_off"))}</strong> ${rounds.join(" · ")} → ${escapeHTML(t("table.starts", { name: name(events[0].seat) }))}`;
    box.hidden = false;
  }

  function renderOver() {
    const over = $("over");
    over.closest(".felt").classList.toggle("done", view.outcome !== null || view.ended !== null);
    if (!view.outcome) { over.hidden = true; return; }
    // Ended unfinished: the dice key was revealed before the game was played out (no winners).
    const winners = view.outcome ? view.outcome.winners : [];
    const names = winners.map(name);
    let title;
    const ended = view.outcome && view.outcome.ended ? view.outcome : null;  // the key revealed: {ended, at}
    if (ended) title = t("over.ended", { when: `${ended.at.slice(11, 16)} UTC` });
    else if (view.mode === "race") {  // a race is won in turns: they lead, the score follows
      const turns = view.players[0].turns;
      title = t(turns === 1 ? "over.race_one" : "over.race", { turns, target: num(view.target), score: num(view.players[0].score) });
    } else if (view.players.length === 1) title = t("over.score", { score: num(view.players[0].score) });
    else if (winners.length === 1 && you.length === 1 && winners[0] === you[0]) title = t("over.you_win");
    else if (winners.length === 1) title = t("over.wins", { name: names[0] });
    else title = t("over.share", { names: names.join(" & ") });
    $("over-title").textContent = title;
    $("final").innerHTML = view.standing.map((p) => `<li class="${winners.includes(p.seat) ? "won" : ""}"><span>${escapeHTML(name(p.seat))}</span><span>${num(p.score)}</span></li>`).join("");
    let extra = "";
    const buttons = [];
    if (view.mode === "daily") {
      extra = escapeHTML(t("over.daily"));
      buttons.push(`<a class="button primary" href="/daily">${escapeHTML(t("over.leaderboard"))}</a>`);
    } else if (view.mode === "challenge") {
      buttons.push(`<a class="button primary" href="/c/${view.challenge}/results">${escapeHTML(t("over.results"))}</a>`);
      buttons.push(`<button type="button" class="button" id="again">${escapeHTML(t("over.challenge_back"))}</button>`);
    } else {
      const label = rematchOffered ? "over.rematch_offered" : view.mode === "online" ? "over.rematch" : "over.again";
      buttons.push(`<button type="button" class="button primary" id="again">${escapeHTML(t(label))}</button>`);
    }
    // The record, to check with `hotdice verify` (its dice key is in it once revealed).
    buttons.push(`<a class="button" id="record" href="/api/games/${encodeURIComponent(view.id)}/record" download="hotdice-${escapeHTML(view.id)}.json">${escapeHTML(t("over.record"))}</a>`);
    // Every roll and decision weighed exactly, on a page of its own (hotdice.analysis.game_review).
    buttons.push(`<a class="button" id="review" href="/review/${encodeURIComponent(view.id)}">${escapeHTML(t("over.review"))}</a>`);
    buttons.push(`<a class="button" href="/">${escapeHTML(t("over.home"))}</a>`);
    $("over-extra").textContent = extra;
    $("over-buttons").innerHTML = buttons.join("");
    const again = $("again");
    if (again) again.addEventListener("click", playAgain);
    over.hidden = false;
  }

  /* The rematch (POST /api/games/{id}/rematch): the same players and rules, the next player first; made once,
     so a second tap, or another player's, is answered 409 with the same one, where it goes too. */
  async function playAgain() {
    try {
      const made = await api("POST", `/api/games/${encodeURIComponent(view.id)}/rematch`);
      window.location.assign(made.url);
    } catch (err) {
      if (err.body && err.body.rematch) window.location.assign(err.body.rematch.url);
      else toast(err.message, true);
    }
  }

  function render() {
    root.dataset.n = String(view.n); // the action number shown (scripts and tests can wait for it)
    root.dataset.phase = view.outcome ? "over" : view.phase;
    root.dataset.yourTurn = !view.outcome && view.you.includes(view.to_act) ? "1" : "0"; // turn_signal.js
    root.dataset.turn = `${view.to_act}:${view.players.map((p) => p.turns).join(",")}`; // which turn it is
    renderScores();
    renderTurnLine();
    renderDice();
    renderTray();
    renderControls();
    renderLog();
    renderRollOff();
    renderOver();
    renderSolver();
  }

  /* -- Hard's table, solved in the background: its progress, asked for every second until it is ready --- */

  let solverTimer = null;

  function solverText(status, key, waitingKey = "table.hard_waiting") {
    if (status.state === "queued" || status.state === "solving") return t(key, { percent: pct(status.progress) });
    // Why the table will not come, worded from its facts (hotdice.i18n Translator.unsolved): Hard cannot solve these
    // rules (its bounds), the solver's queue is full or the solve failed (solver.<code>).
    const long = status.too_long, why = status.why;
    const reason = long ? t("hard.too_long", { max: long.max_target, target: long.target })
      : why ? t(`solver.${why.code}`, why.values) : status.state;
    return t(waitingKey, { reason });
  }

  function renderSolver() {
    const line = $("solver-line");
    const status = view.solver;
    line.hidden = !status || status.state === "ready";
    // Hard waits for its exact play if the player chose so (a failed solve: it plays expected points).
    const waits = view.seats.some((s) => s.wait) && status && status.state !== "failed";
    if (!line.hidden) {
      line.textContent = waits ? solverText(status, "table.hard_working_wait", "table.hard_waiting_wait")
        : solverText(status, "table.hard_working");
    }
    clearTimeout(solverTimer);
    if (line.hidden || !["queued", "solving", "full"].includes(status.state)) return; // refused, failed: final
    solverTimer = setTimeout(async () => {
      try {
        const fresh = await api("GET", `/api/games/${view.id}`);
        if (fresh.id === view.id) view.solver = fresh.solver;
      } catch (err) { /* asked again in a second */ }
      renderSolver();
    }, 1000);
  }

  /* -- what just happened: the roll, the moments, the announcement ---------------------------------- */

  const MOMENT_ORDER = ["game-over", "last-round", "penalty", "hot-dice", "farkle", "bust", "entry-missed"];

  function tell(fresh, previousCurrent) {
    if (fresh.length === 0) return;
    const words = lines.slice(lines.length - fresh.length).map(([html]) => html.replace(/<[^>]+>/g, "")).join(". ");
    const rolled = fresh.filter((e) => e.kind === "roll").pop();
    $("announce").textContent = rolled ? `${words}. ${t("table.rolled", { dice: rolled.dice.join(" ") })}` : words;
    if (rolled) tumble(rolled.dice);
    const moments = [];
    for (const kind of MOMENT_ORDER) {
      const e = fresh.find((x) => x.kind === kind);
      if (!e) continue;
      if (kind === "game-over") {
        const w = view.outcome.winners;
        moments.push(["winner", view.players.length === 1 ? num(view.players[0].score) : (w.length === 1 ? t("moment.wins", { name: name(w[0]) }) : t("moment.tie"))]);
      } else if (kind === "penalty" || kind === "farkle") moments.push([kind, said(e.key.replace(/^log\./, "moment."), e.values)]);
      else moments.push([kind, t("moment." + kind)]);
    }
    const passed = you.length > 1 && view.outcome === null && view.current !== previousCurrent && you.includes(view.current);
    if (passed) moments.push(["pass", t("moment.pass", { name: name(view.current) })]);
    showMoments(moments.slice(0, 2));
    if (fresh.some((e) => e.kind === "game-over")) setTimeout(() => $("over").focus(), 50);
  }

  function tumble(faces) {
    const box = $("dice");
    if (reducedMotion.matches) return;
    box.classList.remove("rolling");
    void box.offsetWidth; // restart the animation
    box.classList.add("rolling");
    const dice = [...box.querySelectorAll(".die")];
    let flips = 0;
    const timer = setInterval(() => {
      flips += 1;
      dice.forEach((d, i) => {
        d.innerHTML = dieSVG(flips >= 5 ? Number(d.dataset.face || faces[i]) : 1 + Math.floor(Math.random() * 6));
      });
      if (flips >= 5) clearInterval(timer);
    }, 90);
    setTimeout(() => box.classList.remove("rolling"), 700);
  }

  function showMoments(list) {
    const box = $("moment");
    list.forEach(([kind, text], i) => {
      setTimeout(() => {
        box.className = `moment ${kind}`;
        box.textContent = text;
        void box.offsetWidth;
        box.classList.add("show");
      }, i * 1400);
    });
    if (list.length) {
      quietUntil = Date.now() + list.length * 1400;
      setTimeout(() => { box.className = "moment"; }, list.length * 1400 + 200);
    }
  }

  /* -- acting -------------------------------------------------------------------------------------- */

  function update(next) {
    const known = next.id === view.id ? events : [];
    // Nothing new; but a game its key's reveal has just ended is shown ended, at the same action number.
    if (next.n <= view.n && next.id === view.id && next.events_from + next.events.length <= seen
        && next.ended === view.ended) return;
    if (next.events_from > known.length) { // events missed (a screen polled past several moves): ask for them
      api("GET", `/api/games/${next.id}?since=${known.length}`).then(update, () => {});
      return;
    }
    const previousCurrent = view.current;
    events = known.slice(0, next.events_from).concat(next.events);
    const fresh = events.slice(seen);
    view = { ...next, you };
    seen = events.length;
    hint = null;
    restoreSelection();
    render();
    tell(fresh, previousCurrent);
    keepFocus();
    if (view.current !== previousCurrent) showFelt();
    schedule();
  }

  /** The player handed the turn sees the dice and Roll/Bank without scrolling (a phone's scoreboard of eight
      pushes them below the screen, or under the Roll/Bank bar that stays at the bottom of it). */
  function showFelt() {
    if (!mine() || view.outcome !== null) return;
    const dice = $("dice").getBoundingClientRect();
    const actions = root.querySelector(".actions").getBoundingClientRect();
    if (dice.top < 0 || dice.bottom > actions.top || actions.bottom > window.innerHeight) {
      $("felt").scrollIntoView({ block: "start", behavior: reducedMotion.matches ? "auto" : "smooth" });
    }
  }

  /** A keyboard or screen-reader player whose control was just disabled or redrawn stays on the table: on the
      dice or Roll/Bank when it is to act, else on the felt (which hands the focus on when its turn comes). */
  function keepFocus() {
    const active = document.activeElement;
    const lost = !active || active === document.body || active.disabled;
    if (you.length === 0 || !(lost || active === $("felt"))) return;
    const controls = view.phase === "set-aside" ? [$("dice").querySelector("button.die")] : [$("roll"), $("bank")];
    const target = mine() ? controls.find((c) => c && !c.disabled) : null;
    (target || $("felt")).focus({ preventScroll: true });
  }

  async function send(intent) {
    if (sending) return;
    sending = true;
    renderControls();
    try {
      const data = await api("POST", `/api/games/${view.id}/act`, { n: view.n, ...intent });
      sending = false;
      if (!data.applied) toast(t("js.repeated"));
      update(data.game);
    } catch (err) {
      sending = false;
      if (err.body && err.body.game) {
        if (err.body.code === "key-revealed") toast(err.message, true);
        else toast(t("js.stale"));
        update(err.body.game);
      } else {
        toast(err.message, true);
      }
    } finally {
      sending = false;
      renderControls();
      renderDice();
      keepFocus();
    }
  }

  function schedule() {
    clearTimeout(stepTimer);
    if (view.outcome || !computerToPlay()) return;
    const pause = reducedMotion.matches ? 350 : 800;
    stepTimer = setTimeout(step, Math.max(pause, quietUntil - Date.now()));
  }

  async function step() {
    try {
      const data = await api("POST", `/api/games/${view.id}/computer`, { n: view.n });
      if (data.waiting) { // Hard waits for its table (its line tells how far it is): asked again in a second
        view.solver = data.waiting;
        renderSolver();
        stepTimer = setTimeout(step, 1000);
        return;
      }
      update(data.game);
    } catch (err) {
      if (err.body && err.body.game) update(err.body.game);
      else {
        toast(err.message, true);
        stepTimer = setTimeout(step, 3000);
      }
    }
  }

  function toggle(index) {
    if (!view.roll || index >= view.roll.length || !mine() || view.phase !== "set-aside" || sending) return;
    if (selected.has(index)) selected.delete(index);
    else selected.add(index);
    saveSelection();
    const die = $("dice").querySelector(`[data-index="${index}"]`);
    if (die) die.setAttribute("aria-pressed", String(selected.has(index)));
    renderControls();
  }

  function intentFor(then) {
    const option = selectedOption();
    if (view.phase === "set-aside") return option ? { keep: option.set_aside, then } : null;
    return { then };
  }

  function roll() {
    if ($("roll").disabled) return;
    const intent = intentFor("roll");
    if (!intent) return;
    if (view.mode === "pad") { openPad(intent, rollCount(selectedOption())); return; }
    send(intent);
  }

  function bank() {
    if ($("bank").disabled) return;
    const intent = intentFor("bank");
    if (intent) send(intent);
  }

  async function askHint() {
    if ($("hint").hidden || $("hint").disabled) return;
    $("hint").disabled = true;
    try {
      hint = await api("GET", `/api/games/${view.id}/hint`);
      renderHint();
    } catch (err) {
      toast(err.message, true);
    } finally {
      $("hint").disabled = false;
    }
  }

  /* -- the score pad: type in the roll the table's real dice show ------------------------------------ */

  function openPad(intent, count) {
    pad = { intent, count, faces: [] };
    $("pad-entry").hidden = false;
    renderPad();
    renderControls();
    $("pad-entry").querySelector(".face-button").focus();
  }
  function closePad() {
    pad = null;
    $("pad-entry").hidden = true;
    renderControls();
  }
  function renderPad() {
    if (!pad) return;
    $("pad-prompt").textContent = t("pad.prompt", { n: pad.count, typed: pad.faces.length });
    $("pad-typed").innerHTML = pad.faces.map((f) => `<span class="die" role="img" aria-label="${f}">${dieSVG(f)}</span>`).join("");
    $("pad-ok").disabled = pad.faces.length !== pad.count;
  }
  document.querySelectorAll(".face-button").forEach((b) => {
    b.innerHTML = dieSVG(Number(b.dataset.face));
    b.addEventListener("click", () => addFace(Number(b.dataset.face)));
  });
  function addFace(face) {
    if (pad && pad.faces.length < pad.count) { pad.faces.push(face); renderPad(); }
  }
  $("pad-undo").addEventListener("click", () => { if (pad) { pad.faces.pop(); renderPad(); } });
  $("pad-cancel").addEventListener("click", closePad);
  $("pad-ok").addEventListener("click", () => {
    if (!pad || pad.faces.length !== pad.count) return;
    const intent = { ...pad.intent, dice: pad.faces.join("") };
    closePad();
    send(intent);
  });

  /* -- input ----------------------------------------------------------------------------------------- */

  $("dice").addEventListener("click", (event) => {
    const die = event.target.closest("button.die");
    if (die) toggle(Number(die.dataset.index));
  });
  $("roll").addEventListener("click", roll);
  $("bank").addEventListener("click", bank);
  $("hint").addEventListener("click", askHint);
  $("best").addEventListener("click", setAsideBest);

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, select, textarea")) return;
    const key = event.key.toLowerCase();
    if (pad) {
      if (/^[1-6]$/.test(key)) addFace(Number(key));
      else if (key === "backspace") { pad.faces.pop(); renderPad(); }
      else if (key === "enter") $("pad-ok").click();
      else if (key === "escape") closePad();
      else return;
      event.preventDefault();
      return;
    }
    if (/^[1-6]$/.test(key)) toggle(Number(key) - 1);
    else if (key === "r") roll();
    else if (key === "b") bank();
    else if (key === "h") askHint();
    else if (key === "a") setAsideBest();
    else if (key === "escape") { selected.clear(); saveSelection(); renderDice(); renderControls(); }
    else return;
    event.preventDefault();
  });

  /* -- live tables: every move arrives over a WebSocket ------------------------------------------------ */

  function connect() {
    let delay = 500;
    let told = false;  // the refusal of a connection is shown once, not at every try again
    const open = () => {
      const scheme = window.location.protocol === "https:" ? "wss" : "ws";
      const socket = new WebSocket(`${scheme}://${window.location.host}/ws/games/${view.id}`);
      socket.addEventListener("message", (event) => {
        const data = JSON.parse(event.data);
        if (data.type === "game") { delay = 500; told = false; }
        if (data.type === "game" && !sending) update(data.view);
        if (data.type === "rematch") { rematchOffered = true; renderOver(); } // another player asked for it
        // too many screens or requests: the server's refusal, worded in this page's language; it closes next
        if (data.type === "refused" && !told) { told = true; toast(new ApiError(1008, data).message, true); }
      });
      socket.addEventListener("close", (event) => {
        if (event.code === 4404) return;
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 8000);
      });
    };
    open();
  }

  restoreSelection();
  render();
  showFelt();
  schedule();
  if (live) connect();
})();
