"""What makes the game a site a phone can keep: the web app manifest (name, icons, colours: "add to home
screen"), the service worker that shows the offline page instead of the browser's error, and that page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from hotdice.web.assets import REVALIDATE, digest
from hotdice.web.deps import TranslatorDep
from hotdice.web.errors import NotFound
from hotdice.web.i18n import LANGUAGES, Translator
from hotdice.web.routes.pages import render

__all__ = ["THEME", "router"]

router = APIRouter(include_in_schema=False)
THEME = "#123c2d"  # the header's felt green, as the pages' theme-color says
BACKGROUND = "#f5f0e6"  # the pages' paper, shown while the app starts
ICONS = [
    ("icon-192.png", "192x192", "any"),
    ("icon-512.png", "512x512", "any"),
    ("icon-maskable.png", "512x512", "maskable"),
]
WORKER = (Path(__file__).parent.parent / "sw.js").read_text(encoding="utf-8")
OFFLINE_FILES = ("hotdice.css", "favicon.svg")  # what the offline page loads


def offline_path(lang: str) -> str:
    return f"/offline/{lang}"


@router.get("/manifest.webmanifest")
def manifest(request: Request, t: TranslatorDep) -> Response:
    url = request.app.state.assets.url
    body: dict[str, Any] = {
        "name": "hotdice",
        "short_name": "hotdice",
        "description": t("site.description"),
        "lang": t.lang,
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": url(name), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for name, sizes, purpose in ICONS
        ],
    }
    return JSONResponse(body, media_type="application/manifest+json", headers={"cache-control": REVALIDATE})


@router.get("/sw.js")
def service_worker(request: Request) -> Response:
    """The worker with what it keeps: the offline pages and their files at their current URLs, in a cache named
    after them, so that a new version of any of them installs a new worker, which drops the old cache."""
    url = request.app.state.assets.url
    files = [url(name) for name in OFFLINE_FILES]
    pages = {lang: offline_path(lang) for lang in LANGUAGES}
    name = digest(json.dumps([files, pages, WORKER]).encode())
    site = json.dumps({"cache": f"hotdice-{name}", "pages": pages, "files": files})
    return Response(
        f"const SITE = {site};\n{WORKER}",
        media_type="text/javascript",
        headers={"cache-control": REVALIDATE, "service-worker-allowed": "/"},
    )


@router.get("/offline/{lang}", response_class=HTMLResponse)
def offline_page(request: Request, lang: str) -> HTMLResponse:
    if lang not in LANGUAGES:
        raise NotFound.said("error.no_offline", lang=repr(lang[:10]), languages=", ".join(LANGUAGES))
    return render(request, Translator(lang), "offline.html")
