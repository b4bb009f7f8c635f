"""The HTML pages. Each gathers what its template shows from the services; the browser does the rest."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from sqlalchemy.orm import Session

from hotdice.analysis.solver import affordable, solved
from hotdice.game.rules import KNOBS, Rules
from hotdice.game.scoring import scoring_table
from hotdice.game.variants import VARIANTS
from hotdice.i18n.scoring import combination_name
from hotdice.play.daily import daily_day
from hotdice.play.modes import shown_rules
from hotdice.store.web_models import WebPlayer
from hotdice.web import charts, clock
from hotdice.web.assets import catalog_name
from hotdice.web.deps import DeviceDep, SessionDep, SettingsDep, TranslatorDep, VisitorDep
from hotdice.web.errors import WebError
from hotdice.web.i18n import COOKIE, LANGUAGES, Translator, pick_language, seat_name
from hotdice.web.schemas import Code
from hotdice.web.services import challenges, daily, daily_share, devices, games, tables
from hotdice.web.services.stats import finished_games, player_stats
from hotdice.web.services.your_games import your_games
from hotdice.web.words import how_it_goes

__all__ = ["render", "render_error", "router"]

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=Path(__file__).parent.parent / "templates")
# ``tojson`` writes the table's typed view (dataclasses, enums) as the API does; Jinja still escapes it for HTML.
templates.env.policies["json.dumps_function"] = lambda value, **_: orjson.dumps(value).decode()
LANG_AGE = 365 * 24 * 3600


def render(request: Request, t: Translator, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    base = {
        "_": t,
        "lang": t.lang,
        "num": t.number,
        "date": t.date,
        "seat_name": functools.partial(seat_name, t),
        "static": request.app.state.assets.url,
        "catalog": catalog_name(t.lang),
        "path": request.url.path,
    }
    return templates.TemplateResponse(request, template, {**base, **context}, status_code=status)


def render_error(request: Request, status: int, reason: str | WebError) -> HTMLResponse:
    """The error page, in the request's language: a refusal worded from what it carries, else as it is."""
    t = Translator(pick_language(request.cookies.get(COOKIE), request.headers.get("accept-language")))
    shown = reason.worded(t) if isinstance(reason, WebError) else reason
    return render(request, t, "error.html", status=status, status_code=status, reason=shown)


def _rematch_to_join(session: Session, game_id: str, visitor: WebPlayer | None) -> bool:
    """Whether a finished online game's page offers the visitor its rematch: another player's, not joined yet. A
    page open when it is made learns of it live; this is for a page opened after (a reload, your games)."""
    found = json.loads(games.find(session, game_id).extra or "{}").get("rematch")
    return (found is not None and found["kind"] == "table" and visitor is not None
            and not tables.state(session, found["id"], visitor)["seated"])


def _name(visitor: WebPlayer | None) -> str:
    """The name the visitor chose; "" for none (the page shows the default name, in its language)."""
    return visitor.name if visitor is not None else ""


@router.get("/", response_class=HTMLResponse)
def home(request: Request, t: TranslatorDep, session: SessionDep, visitor: VisitorDep,
         token: DeviceDep) -> HTMLResponse:
    if visitor is not None:  # the device list's "last seen"
        devices.seen(request.app.state.db, token, request.headers.get("user-agent", ""), clock.now())
    rules = Rules.parse(visitor.rules if visitor is not None else "farkle")
    # Hard's choice to wait for its exact play is offered where it would wait: its table is not at hand yet.
    hard_unsolved = affordable(rules) and not solved(rules)
    return render(request, t, "home.html", name=_name(visitor), rules=str(rules), target=rules.target,
                  day=daily_day(clock.now()).isoformat(), presets=VARIANTS, hard_unsolved=hard_unsolved,
                  yours=your_games(session, visitor, limit=5) if visitor is not None else None,
                  streak=daily_share.streaks(session, visitor))


@router.get("/devices", response_class=HTMLResponse)
def devices_page(request: Request, t: TranslatorDep, session: SessionDep, token: DeviceDep) -> HTMLResponse:
    """Your devices, and a link code to use another one."""
    devices.seen(request.app.state.db, token, request.headers.get("user-agent", ""), clock.now())
    return render(request, t, "devices.html", devices=devices.devices_of(session, token),
                  minutes=devices.LINK_MINUTES)


@router.get("/link", response_class=HTMLResponse)
def link_page(request: Request, t: TranslatorDep, visitor: VisitorDep) -> HTMLResponse:
    """Use this device: claim a link code (given after the address's ``#`` by a QR code, or typed)."""
    return render(request, t, "link.html", played=visitor is not None)


@router.get("/play/{game_id}", response_class=HTMLResponse)
def play(request: Request, game_id: str, t: TranslatorDep, session: SessionDep, visitor: VisitorDep) -> HTMLResponse:
    loaded = games.load(session, game_id)
    view = games.view_kept(loaded, None if visitor is None else visitor.id, since=0)  # the whole log, once
    live = loaded.row.table_code is not None
    return render(request, t, "table.html", view=view, live=live,
                  rematch_to_join=live and _rematch_to_join(session, game_id, visitor))


@router.get("/review/{game_id}", response_class=HTMLResponse)
def review_page(request: Request, game_id: str, t: TranslatorDep, session: SessionDep) -> HTMLResponse:
    """A finished game's review: the page draws what GET /api/games/{id}/review answers (and says why it cannot)."""
    games.find(session, game_id)  # no such game: the error page
    return render(request, t, "review.html", game_id=game_id)


@router.get("/daily", response_class=HTMLResponse)
def daily_page(
    request: Request, t: TranslatorDep, session: SessionDep, settings: SettingsDep, visitor: VisitorDep
) -> HTMLResponse:
    data = daily.page(session, settings, visitor)
    session.commit()  # par, computed once
    return render(request, t, "daily.html", daily=data, streak=daily_share.streaks(session, visitor))


@router.get("/c/{code}", response_class=HTMLResponse)
def challenge_page(
    request: Request, code: Code, t: TranslatorDep, session: SessionDep, visitor: VisitorDep
) -> Response:
    data = challenges.results(session, code, visitor)
    if data["code"] != code:
        return RedirectResponse(f"/c/{data['code']}", status_code=307)
    challenges.opened(session, code, visitor)  # received: it waits in the visitor's games
    session.commit()
    return render(request, t, "challenge.html", challenge=data)


@router.get("/c/{code}/results", response_class=HTMLResponse)
def challenge_results(
    request: Request, code: Code, t: TranslatorDep, session: SessionDep, visitor: VisitorDep
) -> HTMLResponse:
    return render(request, t, "results.html", challenge=challenges.results(session, code, visitor))


@router.get("/t/{code}", response_class=HTMLResponse)
def table_page(request: Request, code: Code, t: TranslatorDep, session: SessionDep, visitor: VisitorDep) -> Response:
    data = tables.state(session, code, visitor)
    if data["code"] != code:
        return RedirectResponse(f"/t/{data['code']}", status_code=307)
    if data["game"] is None:
        return render(request, t, "lobby.html", table=data, name=_name(visitor))
    view = games.view_by_id(session, data["game"], None if visitor is None else visitor.id, since=0)
    return render(request, t, "table.html", view=view, live=True, table=data,
                  rematch_to_join=_rematch_to_join(session, data["game"], visitor))


@router.get("/rules", response_class=HTMLResponse)
def rules_page(request: Request, t: TranslatorDep, visitor: VisitorDep) -> HTMLResponse:
    rules = Rules.parse(visitor.rules if visitor is not None else "farkle")
    scoring = [(combination_name(t, line), line.points) for line in scoring_table(rules)]
    return render(request, t, "rules.html", rules=rules, knobs=KNOBS, presets=VARIANTS, scoring=scoring,
                  how=how_it_goes(t, rules), values=rules.to_json(), preset_name=str(rules).split(",")[0])


@router.get("/stats", response_class=HTMLResponse)
def stats_page(request: Request, t: TranslatorDep, session: SessionDep, visitor: VisitorDep) -> HTMLResponse:
    found = player_stats(session, visitor)
    farkle_charts, score_chart = [], None
    if found is not None:
        for played, bars in list(found.farkle_bars.items())[:3]:
            rules = shown_rules(played)  # a ten-turn mode's rules as chosen, without their lifted target
            farkle_charts.append((rules, charts.farkle_bars(
                bars, title=t("stats.farkle_chart", rules=rules), yours=t("stats.yours"), exact=t("stats.exact"),
                dice_label=t("stats.dice_rolled"), t=t)))
        if found.scores:
            series = [charts.Series(t(f"mode.{mode}"), f"mode-{mode}", tuple(points))
                      for mode, points in found.scores.items()]
            score_chart = charts.score_lines(series, title=t("stats.scores_chart"), game_label=t("stats.games_axis"),
                                             t=t)
    return render(request, t, "stats.html", found=found, farkle_charts=farkle_charts, score_chart=score_chart,
                  history=finished_games(session, visitor))


@router.get("/training", response_class=HTMLResponse)
def training_page(request: Request, t: TranslatorDep, visitor: VisitorDep) -> HTMLResponse:
    rules = Rules.parse(visitor.rules if visitor is not None else "farkle")
    return render(request, t, "training.html", rules=str(rules))


@router.get("/learn", response_class=HTMLResponse)
def learn_page(request: Request, t: TranslatorDep, visitor: VisitorDep) -> HTMLResponse:
    """How to play: a guided first turn, whose steps the page asks of /api/training/first-turn."""
    rules = Rules.parse(visitor.rules if visitor is not None else "farkle")
    return render(request, t, "learn.html", rules=str(rules))


@router.get("/lang/{lang}")
def set_language(lang: str, next: Annotated[str, Query(max_length=600)] = "/") -> RedirectResponse:
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    if lang in LANGUAGES:
        response.set_cookie(COOKIE, lang, max_age=LANG_AGE, samesite="lax")
    return response
