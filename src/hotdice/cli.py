"""The ``hotdice`` command. Commands only ask the library; a bad input is one line on stderr, exit 2."""

from __future__ import annotations

import contextlib
import errno
import json
import secrets
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from hotdice.analysis.odds import odds as exact_odds
from hotdice.game.rules import KNOBS, Rules, RulesError
from hotdice.game.scoring import DiceError, ScoringLine, parse_dice, scorer, scoring_table
from hotdice.game.variants import VARIANTS
from hotdice.play.players import PLAYERS

if TYPE_CHECKING:
    from hotdice.game.told import Told
    from hotdice.i18n import Translator

__all__ = ["app", "main"]

LANGUAGES = ("en", "fr")  # hotdice.i18n's, which is imported only by a command that prints words

app = typer.Typer(
    name="hotdice",
    help="Farkle, 10 000 and 5000 dice games: exact rules, scoring and odds.",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
out = Console(highlight=False)

_KNOB_HELP = "\n\n".join(f"{k.name}: {k.help} [{k.accepted()}]" for k in KNOBS)
_RULES_HELP = (
    "The rules in force: a preset (" + ", ".join(v.name for v in VARIANTS) + ") followed by "
    "comma-separated knob=value overrides, e.g. farkle,entry=500,three_farkles=1000."
)
RulesOption = Annotated[str, typer.Option("--rules", "-r", help=_RULES_HELP, metavar="RULES")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


class BadInput(Exception):
    """A user mistake as facts: the catalogue's key of its sentence (``cli.error.*``) and the values it names,
    worded in the user's language only at the edge (:func:`_fail`), so that scripts read the same English."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key, self.values = key, values


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    lang: Annotated[str, typer.Option("--lang", help="The language of the tables and sentences: en or fr (the "
                                      "JSON is the same in both).")] = "en",
) -> None:
    if lang not in LANGUAGES:
        raise BadInput("cli.error.language", lang=lang, languages=", ".join(LANGUAGES))
    ctx.obj = lang
    # `hotdice` alone prints the help, which is what a newcomer wants.
    if ctx.invoked_subcommand is None:
        print(ctx.get_help())


def _t(ctx: typer.Context) -> Translator:
    """The words of the language ``--lang`` chose (the catalogue is read only by a command that prints them)."""
    from hotdice.i18n import Translator

    return Translator(ctx.obj or "en")


def _rules(text: str) -> Rules:
    try:
        return Rules.parse(text)
    except RulesError as exc:
        raise BadInput("cli.error.rules", reason=exc) from None


def _percent(t: Translator, p: float) -> str:
    """66.7 % (the command's English keeps its space), 66,7 % in French."""
    return t("cli.percent", value=t.decimal(100 * p))


def _point(t: Translator, figure: str) -> str:
    """A figure Python wrote (its precision, as the English output has always had it) with the language's
    decimal sign."""
    from babel.numbers import get_decimal_symbol

    return figure.replace(".", get_decimal_symbol(t.lang))


@app.command(
    "rules",
    help="Print the rules and scoring table in force, or the presets with --list.\n\nKnobs:\n\n" + _KNOB_HELP,
)
def rules_command(
    ctx: typer.Context,
    rules: Annotated[str, typer.Argument(help=_RULES_HELP, metavar="RULES")] = "farkle",
    list_presets: Annotated[bool, typer.Option("--list", help="List the presets.")] = False,
    as_json: JsonOption = False,
) -> None:
    if list_presets:
        if as_json:
            print(
                json.dumps(
                    [
                        {"name": v.name, "title": v.title, "source": v.source, "rules": v.rules.to_json()}
                        for v in VARIANTS
                    ]
                )
            )
            return
        t = _t(ctx)
        table = Table(t("cli.rules.preset"), t("cli.rules.game"), t("cli.rules.source"), title=t("cli.rules.presets"))
        for v in VARIANTS:
            table.add_row(v.name, v.title, v.source)
        out.print(table)
        return
    r = _rules(rules)
    acting = r.acting_knobs()  # a knob that cannot act under these rules is not shown
    if as_json:
        idle = {k.name for k in KNOBS} - {k.name for k in acting}
        print(
            json.dumps(
                {**{name: value for name, value in r.to_json().items() if name not in idle},
                 "scoring": [{"combination": c.name, "points": c.points} for c in scoring_table(r)]}
            )
        )
        return
    t = _t(ctx)
    out.print(t("cli.rules.line", rules=r))
    knobs = Table(t("cli.rules.knob"), t("cli.rules.value"), t("cli.rules.meaning"), title=t("cli.rules.in_force"))
    for k in acting:
        knobs.add_row(k.name, k.write(getattr(r, k.name)), t(f"cli.knob.{k.name}"))
    out.print(knobs)
    table = Table(t("cli.rules.combination"), t("cli.rules.points"), title=t("cli.rules.scoring"))
    for line in scoring_table(r):
        table.add_row(_combination(t, line), str(line.points))
    out.print(table)


def _combination(t: Translator, line: ScoringLine) -> str:
    """A combination's name: the library's English, or the catalogue's words for its kind in another language."""
    if t.lang == "en":
        return line.name
    from hotdice.i18n.scoring import combination_name

    return combination_name(t, line)


def _score_json(dice: tuple[int, ...], r: Rules) -> dict[str, Any]:
    s = scorer(r)
    options = s.options(dice)
    best = options[0] if options else None
    return {
        "dice": list(dice),
        "rules": str(r),
        "farkle": best is None,
        "wins_game": s.wins_game(dice),
        "best": None if best is None else {"keep": list(best.set_aside), "points": best.points},
        "options": [{"keep": list(o.set_aside), "points": o.points, "dice_left": o.dice_left} for o in options],
    }


@app.command("score", help="Score one roll: every legal set-aside, best first. Use - to read rolls from stdin.")
def score_command(
    ctx: typer.Context,
    dice: Annotated[list[str], typer.Argument(help="The dice rolled: 1 1 1 1 5 5, 111155, or - for stdin.")],
    rules: RulesOption = "farkle",
    as_json: JsonOption = False,
) -> None:
    r = _rules(rules)
    if dice == ["-"]:
        for number, line in enumerate(sys.stdin, start=1):
            if not line.strip():
                continue
            try:
                roll = parse_dice(line, r.dice)
            except DiceError as exc:
                raise BadInput("cli.error.line", number=number, reason=exc) from None
            print(json.dumps(_score_json(roll, r)), flush=True)
        return
    roll = parse_dice(dice, r.dice)
    data = _score_json(roll, r)
    if as_json:
        print(json.dumps(data))
        return
    shown = " ".join(map(str, roll))
    t = _t(ctx)
    if data["wins_game"]:
        out.print(t("cli.score.wins", roll=shown))
    if data["farkle"]:
        out.print(t("cli.score.farkle", roll=shown))
        return
    table = Table(t("cli.score.set_aside"), t("cli.score.points"), t("cli.score.dice_left"),
                  title=t("cli.score.title", roll=shown, rules=r))
    for o in data["options"]:
        left = t("cli.score.hot_dice") if o["dice_left"] == 0 else str(o["dice_left"])
        table.add_row(" ".join(map(str, o["keep"])), str(o["points"]), left)
    out.print(table)


@app.command("odds", help="Exact odds of one roll per number of dice: farkle risk and mean best score.")
def odds_command(ctx: typer.Context, rules: RulesOption = "farkle", as_json: JsonOption = False) -> None:
    r = _rules(rules)
    rows = exact_odds(r)
    if as_json:
        print(
            json.dumps(
                {
                    "rules": str(r),
                    "dice": [
                        {
                            "dice": o.dice,
                            "farkle": str(o.farkle),
                            "farkle_percent": round(100 * float(o.farkle), 4),
                            "mean_best": str(o.mean),
                            "mean_best_points": round(float(o.mean), 4),
                            "wins_game": str(o.wins_game),
                            "best": {str(k): str(v) for k, v in o.best.items()},
                        }
                        for o in rows
                    ],
                }
            )
        )
        return
    t = _t(ctx)
    table = Table(t("cli.odds.dice"), t("cli.odds.risk"), t("cli.odds.exact"), t("cli.odds.mean"),
                  title=t("cli.odds.title", rules=r))
    for o in reversed(rows):
        table.add_row(str(o.dice), _percent(t, float(o.farkle)), str(o.farkle), t.decimal(float(o.mean)))
    out.print(table)


@app.command("simulate", help="Play computer players against each other; seats rotate from game to game.")
def simulate_command(
    ctx: typer.Context,
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            metavar="A,B[,...]",
            help="Comma-separated player specs, e.g. greedy,random or greedy:400,greedy. "
            + "; ".join(f"{k.name}: {k.help}" for k in PLAYERS.values()),
        ),
    ],
    rules: RulesOption = "farkle",
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="Number of games.")] = 1000,
    seed: Annotated[
        str | None, typer.Option("--seed", metavar="S", help="Same seed, same games, same report (default: random).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    r = _rules(rules)
    t = _t(ctx)
    specs = [p.strip() for p in players.split(",")]
    seed = secrets.token_hex(8) if seed is None else seed
    from rich.progress import Progress

    from hotdice.sim.simulate import SimulationError, simulate  # imported when used: start-up stays light

    try:
        if as_json or not sys.stderr.isatty():
            report = simulate(r, specs, games, seed)
        else:
            with Progress(console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task(t("cli.simulate.playing"), total=games)
                report = simulate(r, specs, games, seed, on_game=lambda: bar.advance(task))
    except SimulationError as exc:
        raise BadInput("cli.error.plain", message=exc) from None
    if as_json:
        print(json.dumps(report.to_json()))
        return
    out.print(t("cli.simulate.line", games=games, rules=r, seed=seed))
    table = Table(*(t(f"cli.simulate.{column}") for column in ("player", "wins", "win_rate", "ci", "mean_score",
                                                               "mean_turns")), title=t("cli.simulate.title"))
    for number, p in enumerate(report.players, start=1):
        low, high = p.ci95
        table.add_row(
            f"{number}. {p.spec}",
            _point(t, f"{float(p.wins):.10g}"),
            _percent(t, p.win_rate),
            f"{_percent(t, low)} – {_percent(t, high)}",
            t.decimal(p.mean_score, 0),
            t.decimal(p.mean_turns),
        )
    out.print(table)
    by_seat = ", ".join(_percent(t, float(wins / games)) for wins in report.seat_wins)
    out.print(t("cli.simulate.by_seat", rates=by_seat))


def _read_record(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInput("cli.error.read", file=file, reason=exc) from None
    except UnicodeDecodeError:
        raise BadInput("cli.error.not_text", file=file) from None


@app.command("replay", help="Replay a game record turn by turn, checking it; --json prints the rebuilt final state.")
def replay_command(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="The game record (JSON).", metavar="FILE")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the rebuilt final state as JSON.")] = False,
) -> None:
    from hotdice.game.record import Record, RecordError, replay, state_json, told
    from hotdice.play.modes import shown_rules

    text = _read_record(file)
    try:
        record = Record.from_json(text)
        if as_json:
            print(json.dumps(state_json(replay(record))))
            return
        facts = told(record, rules_shown=shown_rules(record.rules))
    except RecordError as exc:
        raise BadInput("cli.error.file", file=file, reason=exc) from None
    for fact, line in zip(facts, _tell(ctx.obj or "en", facts), strict=True):
        style = "bold" if fact.code in _HEADINGS else None
        out.print(line, style=style, markup=False, soft_wrap=True)


_HEADINGS = ("turn", "game_over", "game_over_shared", "unfinished")  # the facts a replay shows in bold


def _tell(lang: str, facts: Sequence[Told]) -> list[str]:
    """Facts of a replay or a verification (:mod:`hotdice.game.told`): the library's English, or the catalogue's
    words in another language."""
    if lang == "en":
        return [str(fact) for fact in facts]
    from hotdice.i18n import Translator
    from hotdice.i18n.told import tell

    return tell(Translator(lang), facts)


@app.command("verify", help="Check a finished game's record against its revealed dice key: every roll, the key's "
             "commitment, every action and the result. Exit 0 if it verifies; 1 if it describes a game whose dice, "
             "key, commitment or result do not match (the first mismatch); 2 if it cannot describe a game under its "
             "rules (unreadable, a set-up or a history line the rules refuse, a turn limit its history never "
             "reaches) or there is nothing to check.")
def verify_command(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="The game record (JSON).", metavar="RECORD")],
    key: Annotated[str | None, typer.Option("--key", help="The revealed dice key, when the record lacks it.",
                                            metavar="HEX")] = None,
    commitment: Annotated[str | None, typer.Option("--commitment", help="The published SHA-256 of the key.",
                                                   metavar="HEX")] = None,
) -> int:
    from hotdice.game.verify import VerifyError, verify_text

    text = _read_record(file)
    try:
        verdict = verify_text(text, key=key, commitment=commitment)
    except VerifyError as exc:
        raise BadInput("cli.error.file", file=file, reason=exc) from None
    for line in _tell(ctx.obj or "en", verdict.told):
        print(line)
    return 0 if verdict.valid else 1


@app.command("review", help="Review a game: the chance to win (or expected points, or turns) after every roll and "
             "decision, each decision labelled by what it lost against the best play, luck apart from skill, and each "
             "player's accuracy. RECORD: a record file, or - for stdin. --json: the same object as the web API's.")
def review_command(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="The game record (JSON), or - to read it from stdin.", metavar="RECORD")],
    as_json: JsonOption = False,
    player: Annotated[int | None, typer.Option("--player", metavar="N", help="Only player N's decisions (1 for the "
                                               "first seat), and the chart of N's value.")] = None,
    lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help="Language of the text.")] = None,
) -> None:
    from hotdice.analysis.game_review import game_review
    from hotdice.game.record import Record, RecordError

    if lang is not None and lang not in LANGUAGES:
        raise BadInput("cli.error.language", lang=lang, languages=", ".join(LANGUAGES))
    ctx.obj = lang or ctx.obj
    t = _t(ctx)
    text = sys.stdin.read() if file == "-" else _read_record(Path(file))
    try:
        record = Record.from_json(text)
        if player is not None and not 1 <= player <= len(record.players):
            raise BadInput("cli.error.review_player", player=player, players=len(record.players))
        with _solving(t("cli.advise.solving"), as_json):
            review = game_review(record)
    except RecordError as exc:
        raise BadInput("cli.error.file", file=file, reason=exc) from None
    if as_json:
        print(review.json_text())
        return
    from hotdice.i18n.review import review_lines

    for line in review_lines(t, review, player=None if player is None else player - 1, width=out.width):
        print(line)


@app.command("stats", help="Statistics and records of the games played (training never counts).")
def stats_command(ctx: typer.Context, as_json: JsonOption = False) -> None:
    # Imported here: SQLAlchemy is slow to import and only this command needs it.
    from sqlalchemy.exc import SQLAlchemyError

    from hotdice.play.modes import shown_rules
    from hotdice.store import Store, data_dir
    from hotdice.store.stats import statistics

    try:
        with Store() as store:
            stats = statistics(store, owner="")
    except (OSError, SQLAlchemyError) as exc:
        raise BadInput("cli.error.stats", folder=data_dir(), reason=str(exc)) from None
    if as_json:
        print(json.dumps(stats.to_json()))
        return
    t = _t(ctx)
    if stats.games == 0:
        out.print(t("cli.stats.empty"))
        return
    for key, tallies in (("mode", stats.by_mode), ("opponent", stats.by_opponent)):
        if tallies:
            table = Table(t(f"cli.stats.{key}"), t("cli.stats.played"), t("cli.stats.won"),
                          title=t(f"cli.stats.by_{key}"))
            for name, tally in tallies.items():
                table.add_row(name, str(tally.played), "—" if tally.won is None else str(tally.won))
            out.print(table)

    def shown(value: int | None) -> str:
        return "—" if value is None else str(value)

    records = Table(t("cli.stats.record"), t("cli.stats.value"), title=t("cli.stats.records"))
    for key, value in (("best_turn", stats.best_turn), ("best_ten_turns", stats.best_ten_turns),
                       ("fewest_turns", stats.fewest_turns), ("longest_streak", stats.longest_win_streak),
                       ("current_streak", stats.current_win_streak), ("farkle_free", stats.longest_farkle_free_run),
                       ("hot_dice", stats.hot_dice)):
        records.add_row(t(f"cli.stats.{key}"), shown(value))
    out.print(records)
    if stats.farkle_rates:
        luck = Table(*(t(f"cli.stats.{column}") for column in ("rules", "dice_rolled", "rolls", "farkles",
                                                               "your_rate", "expected")),
                     title=t("cli.stats.farkles_by_dice"))
        for f in stats.farkle_rates:
            rate, expected = _percent(t, f.rate), _percent(t, float(f.expected))
            luck.add_row(shown_rules(f.rules), str(f.dice), str(f.rolls), str(f.farkles), rate, expected)
        out.print(luck)
    if stats.dailies:
        daily = Table(t("cli.stats.day"), t("cli.stats.score"), t("cli.stats.official"), title=t("cli.stats.daily"))
        for d in stats.dailies:
            daily.add_row(t.date(d.day), str(d.score), t("cli.stats.yes") if d.official else t("cli.stats.no"))
        out.print(daily)


@app.command("play", help="Play in the terminal: solo, against the computer, together, daily, challenges, training.")
def play_command(
    rules: Annotated[
        str | None, typer.Option("--rules", "-r", help=_RULES_HELP + " Default: the rules of your settings.")
    ] = None,
    lang: Annotated[
        str | None, typer.Option("--lang", metavar="fr|en", help="Language (default: from your locale).")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the game saved when you last quit.")] = False,
) -> None:
    # Imported here: Textual is only needed to play.
    from hotdice.tui import SaveError, run, saved_game

    if lang is not None and lang not in ("fr", "en"):
        raise BadInput("cli.error.play_lang", lang=lang)
    r = None if rules is None else _rules(rules)
    try:
        session = saved_game() if resume else None
    except SaveError as exc:
        raise BadInput("cli.error.plain", message=exc) from None
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise BadInput("cli.error.terminal")
    run(rules=r, lang=lang, resume=session)


@app.command("serve", help="Play in the browser: start the web app (HOTDICE_DATA_DIR, HOTDICE_DATABASE_URL). "
             "Logs one JSON object per line on stderr; GET /healthz tells whether it can serve.")
def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="Server processes sharing the port; "
                                         "each builds its own app from the environment.")] = 1,
    proxy_headers: Annotated[bool, typer.Option("--proxy-headers/--no-proxy-headers", help="Take the client's "
                                                "address and scheme from X-Forwarded-For and X-Forwarded-Proto "
                                                "sent by a trusted proxy.")] = True,
    forwarded_allow_ips: Annotated[str, typer.Option("--forwarded-allow-ips", help="Comma-separated addresses of "
                                                     "the trusted reverse proxies, or '*'.")] = "127.0.0.1",
) -> None:
    # Imported here: the web stack is only needed to serve.
    import socket

    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from hotdice.store.migrate import upgrade
    from hotdice.web import Settings
    from hotdice.web.limits import MAX_WS_MESSAGE
    from hotdice.web.logs import LOG_CONFIG

    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise BadInput("cli.error.listen", host=host, port=port, reason=exc) from None
    try:
        settings = Settings.from_env()
    except ValueError as exc:  # a rate limit, a body size or a device key that does not read
        raise BadInput("cli.error.plain", message=exc) from None
    try:
        upgrade(settings.url())  # here, once: the workers then start on a database at the head
    except ModuleNotFoundError as exc:
        raise BadInput("cli.error.driver", driver=exc.name) from None
    except (OSError, SQLAlchemyError) as exc:
        raise BadInput("cli.error.database", reason=str(exc).strip().splitlines()[0]) from None
    shown = f"[{host}]" if ":" in host else host
    print(f"hotdice: playing at http://{shown}:{port} (Ctrl+C to stop)", file=sys.stderr)
    # A factory named by import string: every worker process builds its own app (database pool, hub). A new
    # worker answers its supervisor only once Python has loaded it, which takes seconds on a busy machine: a
    # shorter wait has uvicorn kill and restart workers that were merely starting. The HTTP protocol closes
    # connections that keep a request head waiting and caps them per address (hotdice.web.server).
    uvicorn.run("hotdice.web.app:serve_app", factory=True, host=host, port=port, workers=workers,
                http="hotdice.web.server:GuardedHttp",
                log_config=LOG_CONFIG, access_log=False, proxy_headers=proxy_headers,
                forwarded_allow_ips=forwarded_allow_ips, timeout_worker_healthcheck=60, ws_max_size=MAX_WS_MESSAGE)


@contextlib.contextmanager
def _solving(text: str, quiet: bool) -> Iterator[None]:
    """A progress bar on stderr while a table is solved (nothing in JSON mode or when stderr is not a
    terminal): the solver reports the share done (:data:`hotdice.analysis.solver.PROGRESS`)."""
    if quiet or not sys.stderr.isatty():
        yield
        return
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

    from hotdice.analysis.solver import PROGRESS

    columns = (TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(text, total=1.0)
        token = PROGRESS.set(lambda share: bar.update(task, completed=share))
        try:
            yield
        finally:
            PROGRESS.reset(token)


def _bank_thresholds(r: Rules) -> list[dict[str, Any]]:
    """Per dice in hand: the smallest turn total from which banking is always at least as good as rolling
    (expected points of the turn, once entered), and whether rolling is better somewhere above a lower one."""
    from hotdice.analysis.expectation import turn_values

    tv = turn_values(r)
    rows = []
    for n in range(1, r.dice + 1):
        threshold = tv.bank_from(n)
        rows.append({"dice": n, "bank_from": threshold, "roll_value_there": tv.roll_value(threshold, n)})
    return rows


def _fairest_handicap(r: Rules, sol: Any) -> tuple[int, float]:
    """Points given to the second player at the start (banked: they count as on the board) that bring the
    first player's chance closest to one half."""
    from hotdice.analysis.solver import UNIT

    w, st = sol.w, sol.seats
    best = (0, float(w[0, 0]))
    for h in range(0, r.target, UNIT):
        p = float(w[0, st.seat_of(h // UNIT, h > 0 or r.entry == 0)])
        if abs(p - 0.5) < abs(best[1] - 0.5):
            best = (h, p)
    return best


@app.command("solve", help="Solve the rules: best play's values, cached in the user's cache folder "
             "(HOTDICE_CACHE_DIR). Solo: expected points of a turn, bank thresholds by dice in hand, expected "
             "turns to the target. Two players: the first player's chance and the fairest handicap.")
def solve_command(
    ctx: typer.Context,
    rules: RulesOption = "farkle",
    players: Annotated[int, typer.Option("--players", "-p", metavar="1|2", help="1: solo; 2: two players.")] = 2,
    as_json: JsonOption = False,
    check_table: Annotated[
        bool, typer.Option("--check", help="Also report the largest Bellman residual of the solved table (slow).")
    ] = False,
) -> None:
    from hotdice.analysis.solver import race_solution, refusal, two_player_solution
    from hotdice.analysis.solver.check import check

    r = _rules(rules)
    if players not in (1, 2):
        raise BadInput("cli.error.players", players=players)
    if (reason := refusal(r)) is not None and (players == 2 or not r.three_farkles):
        raise BadInput("cli.solve.refused", rules=r, reason=reason)
    t = _t(ctx)
    data: dict[str, Any] = {"rules": str(r), "players": players}
    with _solving(t("cli.solve.solving", rules=r, players=t.plural("cli.solve.players", players)), as_json):
        if players == 1:
            from hotdice.analysis.expectation import turn_values

            tv = turn_values(r)
            data["turn_points"] = tv.turn_value(entered=True)
            if r.entry:
                data["first_turn_points"] = tv.turn_value(entered=False)
            data["bank_thresholds"] = _bank_thresholds(r)
            race = None if r.three_farkles else race_solution(r)
            data["turns_to_target"] = None if race is None else float(race.turns[0])
            if check_table and race is not None:
                data["residual"] = check(race)
        else:
            sol = two_player_solution(r)
            data["first_player_wins"] = float(sol.w[0, 0])
            handicap, chance = _fairest_handicap(r, sol)
            data["handicap"] = handicap
            data["first_player_wins_with_handicap"] = chance
            data["solve_seconds"] = sol.seconds
            if check_table:
                data["residual"] = check(sol)
    if as_json:
        print(json.dumps(data))
        return
    out.print(t("cli.rules.line", rules=r))
    if players == 1:
        out.print(t("cli.solve.turn_points", points=t.decimal(data["turn_points"])))
        if r.entry:
            out.print("  " + t("cli.solve.before_entry", entry=r.entry, points=t.decimal(data["first_turn_points"])))
        table = Table(t("cli.solve.dice"), t("cli.solve.bank_from"), title=t("cli.solve.thresholds"))
        for row in data["bank_thresholds"]:
            table.add_row(str(row["dice"]), str(row["bank_from"]))
        out.print(table)
        turns = data["turns_to_target"]
        out.print(t("cli.solve.turns", turns=t("cli.solve.unsolved") if turns is None else t.decimal(turns, 3)))
    else:
        wins = data["first_player_wins"]
        out.print(t("cli.solve.first", percent=_percent(t, wins), p=t.decimal(wins, 6)))
        out.print(t("cli.solve.handicap", points=data["handicap"],
                    percent=_percent(t, data["first_player_wins_with_handicap"])))
    if "residual" in data:
        out.print(t("cli.solve.residual", value=_point(t, f"{data['residual']:.3g}")))


@app.command("advise", help="The coach: every set-aside of a roll with bank or roll again, valued exactly, best "
             "first, and what each worse choice costs. Without DICE: roll or bank.")
def advise_command(
    ctx: typer.Context,
    scores: Annotated[
        str | None,
        typer.Option("--scores", "-s", metavar="YOU,THEM,...",
                     help="Banked scores: yours first, then the others in the order they play after you."),
    ] = None,
    dice: Annotated[list[str] | None, typer.Argument(help="The dice just rolled: 1 5 5 2 3 4 or 155234.")] = None,
    turn: Annotated[int, typer.Option("--turn", "-t", metavar="POINTS", help="Points set aside this turn so far.")] = 0,
    dice_left: Annotated[
        int | None, typer.Option("--dice-left", "-d", metavar="N", help="Dice in hand (default: as many as DICE).")
    ] = None,
    at: Annotated[
        str | None,
        typer.Option("--position", "-p", metavar="POSITION",
                     help="Instead of --scores, --turn and --dice-left: a whole position, as the engine writes it "
                     "(e.g. '3000,4500 0 350/2 - - - 2.2 -'); the coach advises the seat to act."),
    ] = None,
    rules: RulesOption = "farkle",
    as_json: JsonOption = False,
) -> None:
    from hotdice.analysis.coach import advise, position
    from hotdice.game.engine import CHANCE, ROLL, EventKind, Game, IllegalMoveError, InvalidMoveError, PositionError

    r = _rules(rules)
    if at is not None:
        if scores is not None or turn or dice_left is not None:
            raise BadInput("cli.error.position_alone")
        try:
            game = Game.from_position(r, at)
        except PositionError as exc:
            raise BadInput("cli.error.position", reason=exc) from None
        seat, banked, turn, n = game.to_act, list(game.scores), game.turn_total, game.dice_in_hand
        roll = parse_dice(dice, r.dice) if dice else None
        if not isinstance(seat, int) and (seat is not CHANCE or roll is None):
            raise BadInput("cli.error.position_over" if seat is not CHANCE else "cli.error.position_rolling")
        seat = game.current
    else:
        if scores is None:
            raise BadInput("cli.error.no_scores")
        try:
            banked = [int(s) for s in scores.split(",")]
        except ValueError:
            raise BadInput("cli.error.scores", scores=scores) from None
        roll = parse_dice(dice, r.dice) if dice else None
        if roll is not None and dice_left is not None and len(roll) != dice_left:
            raise BadInput("cli.error.dice_left", given=len(roll), dice_left=dice_left)
        n = dice_left if dice_left is not None else (len(roll) if roll is not None else r.dice)
        try:
            game = position(r, banked, turn_total=turn, dice_in_hand=n)
        except PositionError as exc:
            raise BadInput("cli.error.plain", message=exc) from None
        seat = 0
    turn_before = game.turn
    if roll is not None:
        try:
            if game.to_act is not CHANCE:
                game.apply(ROLL)
            game.apply_roll(roll)
        except (IllegalMoveError, InvalidMoveError) as exc:
            raise BadInput("cli.error.dice", reason=exc) from None
    roll = roll or game.roll
    data: dict[str, Any] = {"rules": str(r), "scores": banked, "turn": turn, "dice_left": n,
                            "dice": None if roll is None else list(roll)}
    if game.turn != turn_before:  # the roll ended the turn (alone at the table, the next one is yours again)
        ending = {EventKind.FARKLE: "farkle", EventKind.BUST: "bust"}
        what = "win" if game.is_over else next(ending[e.kind] for e in reversed(game.events) if e.kind in ending)
        data.update(outcome=what, choices=[])
        if as_json:
            print(json.dumps(data))
            return
        out.print(_t(ctx)(f"cli.advise.{what}", target=r.target))
        return
    t = _t(ctx)
    with _solving(t("cli.advise.solving"), as_json):
        advice = advise(game)
    data.update(outcome=None, measure=advice.measure, choices=[
        {"keep": None if c.set_aside is None else str(c.set_aside), "then": c.then, "value": c.value, "cost": c.cost}
        for c in advice.choices
    ])
    if as_json:
        print(json.dumps(data))
        return
    where = t("cli.advise.position", scores="-".join(map(str, banked)), turn=turn, dice=t.plural("cli.advise.dice", n))
    title = (t("cli.advise.roll", where=where, roll=" ".join(map(str, roll))) if roll is not None
             else t("cli.advise.roll_or_bank", where=where))
    table = Table(t("cli.advise.choice"), t("cli.advise.value"), t("cli.advise.cost"),
                  title=t("cli.advise.title", title=title, rules=r))
    for k, c in enumerate(advice.choices):
        cost = t("cli.advise.best") if k == 0 else _cost(t, advice.measure, c.cost)
        table.add_row(_decision(t, c.set_aside, c.then), _value(t, advice.measure, c.value), cost)
    out.print(table)


@app.command("plot", help="Write PNG charts: bank-or-roll regions by turn total and dice in hand (solo, most "
             "points), and the two-player chance to win over both scores (solved table).")
def plot_command(
    rules: RulesOption = "farkle",
    chart: Annotated[str, typer.Option("--chart", "-c", metavar="bank|win|all", help="Which chart.")] = "all",
    output: Annotated[Path, typer.Option("--output", "-o", metavar="DIR", help="Folder for the PNG files.")] = Path(),
) -> None:
    from hotdice.analysis.plot import bank_chart, file_name, win_chart

    r = _rules(rules)
    if chart not in ("bank", "win", "all"):
        raise BadInput("cli.error.chart", chart=chart)
    if not output.is_dir():
        raise BadInput("cli.error.output", output=output)
    written = []
    try:
        if chart in ("bank", "all"):
            written.append(bank_chart(r, output / file_name("bank", r)))
        if chart in ("win", "all"):
            with _solving(f"Solving {r} for two players (once; cached after)", False):
                written.append(win_chart(r, output / file_name("win", r)))
    except OSError as exc:
        raise BadInput("cli.error.write", output=output, reason=exc) from None
    for path in written:
        print(path)


def _decision(t: Translator, set_aside: object, then: object) -> str:
    """A choice of the coach in the coach's words: the terminal's hints, which say it the same way."""
    return t(f"hint.then_{then}") if set_aside is None else t(f"hint.keep_then_{then}", keep=set_aside)


def _value(t: Translator, measure: str, value: float) -> str:
    """What a choice is worth, by the coach's measure."""
    if measure == "win":
        return t("hint.win", p=_percent(t, value))
    if measure == "turns":
        return t("hint.turns", n=t.decimal(value, 2))
    return t("hint.points", points=t.decimal(value, 0))


def _cost(t: Translator, measure: str, cost: float) -> str:
    if measure == "win":
        return t("cli.advise.cost_win", cost=t.decimal(100 * cost, 2))
    if measure == "turns":
        return t("cli.advise.cost_turns", cost=t.decimal(cost, 3))
    return t("cli.advise.cost_points", cost=t.decimal(cost, 1))


def _language(argv: Sequence[str]) -> str:
    """The language ``--lang`` asks for before the command, or after ``play``, whose own option it is (English
    when it is not given or not known): the help and the error lines are worded before, or without, the
    commands reading their options."""
    command = None
    for k, word in enumerate(argv):
        if word == "--lang" and k + 1 < len(argv):
            lang = argv[k + 1]
        elif word.startswith("--lang="):
            lang = word.removeprefix("--lang=")
        else:
            if command is None and not word.startswith("-"):
                command = word
            continue
        if command in (None, "play", "review"):
            return lang if lang in LANGUAGES else "en"
    return "en"


def _help_values(t: Translator) -> dict[str, str]:
    """What the help texts of the catalogue list: the presets, the knobs and the computer players."""
    def accepted(choices: tuple[str, ...] | None) -> str:
        return t("help.points") if choices is None else t("howto.or").join(choices)

    knobs = (t("help.knob", name=k.name, meaning=t(f"cli.knob.{k.name}"), accepted=accepted(k.choices()))
             for k in KNOBS)
    players = (t("help.player", name=k.name, meaning=t(f"help.player.{k.name}", spec="greedy:N"))
               for k in PLAYERS.values())
    return {"presets": ", ".join(v.name for v in VARIANTS), "knobs": "\n\n".join(knobs), "players": "; ".join(players),
            "example": "greedy,random", "example_n": "greedy:400,greedy"}  # player specs: code, not words


def help_items(command: Any) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every part of the command tree that has a help text, with the catalogue's keys for it, the command's own
    first: ``help.<command>`` (``help.hotdice`` for the root), an option's or an argument's
    ``help.<command>.<name>`` or ``help.any.<name>`` when several commands share it (``--rules``, ``--json``),
    and ``help.help`` for ``--help``."""
    for name, each in (("hotdice", command), *getattr(command, "commands", {}).items()):  # Typer's own Click
        yield (f"help.{name}",), each
        for param in each.params:
            if getattr(param, "help", None):
                yield (f"help.{name}.{param.name}", f"help.any.{param.name}"), param
        helper = each.get_help_option(typer.Context(each))
        if helper is not None:
            yield ("help.help",), helper


def translate_help(command: Any, lang: str) -> None:
    """Put the catalogue's help texts in ``lang`` on the command tree (:func:`help_items`)."""
    from hotdice.i18n import Translator

    t = Translator(lang)
    values = _help_values(t)
    for keys, part in help_items(command):
        part.help = t(next((key for key in keys if t.has(key)), keys[-1]), **values)
        if hasattr(part, "context_class"):  # a command: Click's own words of its help too
            part.context_class = type("Context", (part.context_class,), {"formatter_class": _formatter(t)})


def _formatter(t: Translator) -> type:
    """Click's help formatter with the catalogue's words for what Click and Typer write themselves: "Usage:", the
    section headings, "[default: ...]" and "[required]"."""
    base: Any = typer.Context.formatter_class

    class Formatter(base):  # type: ignore[misc]
        def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
            super().write_usage(prog, args, t("help.usage") if prefix is None else prefix)

        def write_heading(self, heading: str) -> None:
            self.write(f"{'':>{self.current_indent}}{t(f'help.section.{heading.lower()}')}\n")

        def write_dl(self, rows: Sequence[tuple[str, str]], *args: Any, **kwargs: Any) -> None:
            marks = {"[default: ": "[" + t("help.default"), "; required]": "; " + t("help.required") + "]",
                     "[required]": "[" + t("help.required") + "]"}
            for english, words in marks.items():
                rows = [(term, text.replace(english, words)) for term, text in rows]
            super().write_dl(rows, *args, **kwargs)

    return Formatter


def _fail(lang: str, error: Exception) -> NoReturn:
    """A user mistake as one line on stderr, exit code 2: a :class:`BadInput` worded by the catalogue of ``lang``
    (an engine's error among its values, or alone, by its refusal)."""
    from hotdice.i18n import Translator

    t = Translator(lang)
    if isinstance(error, BadInput):
        message = t(error.key, **{name: _worded(t, value) for name, value in error.values.items()})
    else:
        message = t.error(error)
    print(f"hotdice: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _worded(t: Translator, value: object) -> object:
    """A value of a :class:`BadInput` in ``t``'s language: an error by its refusal or its fact (a record's), a
    system error by its errno (the catalogue's ``os.<name>``, the system's own words for the others), a solve
    refused by its bound; a name or a number as it is."""
    from hotdice.analysis.solver import TooLong

    if isinstance(value, TooLong):
        return t.too_long(value)
    if isinstance(value, OSError):
        key = f"os.{errno.errorcode.get(value.errno or 0)}"
        return t(key) if t.has(key) else value.strerror or str(value)
    if told := getattr(value, "told", None):
        return _tell(t.lang, [told])[0]
    return t.error(value) if isinstance(value, Exception) else value


def main(argv: list[str] | None = None) -> None:
    """Run the command; user mistakes become one line on stderr and exit code 2, never a traceback."""
    for stream in (sys.stdout, sys.stderr):
        # A terminal or pipe that cannot show a character (an ASCII locale) gets '?' rather than a crash.
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    args = sys.argv[1:] if argv is None else argv
    command = typer.main.get_command(app)
    if (lang := _language(args)) != "en":
        translate_help(command, lang)
    try:
        code = command.main(args=args, prog_name="hotdice", standalone_mode=False)
    except typer.TyperException as exc:  # unknown option, missing argument, bad value...: Click's English
        usage = exc.format_message().strip()
        _fail(lang, BadInput("cli.error.plain", message=usage.splitlines()[0]) if usage else
              BadInput("cli.error.usage"))
    except (BadInput, RulesError, DiceError) as exc:
        _fail(lang, exc)
    except typer.Abort:
        _fail(lang, BadInput("cli.error.aborted"))
    except BrokenPipeError:
        sys.stderr.close()
        raise SystemExit(1) from None
    raise SystemExit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
