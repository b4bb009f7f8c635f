"""Every route of the app, collected in one router: pages (HTML), the JSON API, live updates, health."""

from fastapi import APIRouter

from hotdice.web.routes import challenges, daily, games, health, live, pages, players, stats, tables, training

__all__ = ["router"]

router = APIRouter()
for module in (pages, players, games, daily, challenges, tables, stats, training, live, health):
    router.include_router(module.router)
