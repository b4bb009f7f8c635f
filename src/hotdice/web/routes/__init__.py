"""Every route of the app, collected in one router: pages (HTML), the JSON API, live updates, health, and
what makes it a site (manifest, service worker, offline page)."""

from fastapi import APIRouter

from hotdice.web.routes import (
    bots,
    challenges,
    daily,
    games,
    health,
    live,
    pages,
    players,
    site,
    stats,
    tables,
    training,
)
from hotdice.web.routes.daily_share import router as daily_share
from hotdice.web.routes.devices import router as devices
from hotdice.web.routes.rematch import router as rematch
from hotdice.web.routes.your_games import router as your_games

__all__ = ["router"]

router = APIRouter()
for module in (pages, players, games, daily, challenges, tables, bots, stats, training, site, live, health):
    router.include_router(module.router)
for come_back in (daily_share, your_games, rematch, devices):  # issue 25: the reasons to come back
    router.include_router(come_back)
