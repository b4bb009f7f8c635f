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

__all__ = ["router"]

router = APIRouter()
for module in (pages, players, games, daily, challenges, tables, bots, stats, training, site, live, health):
    router.include_router(module.router)
