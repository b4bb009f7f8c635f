"""The static files at URLs that carry their content's digest (``/static/table.js?v=<digest>``), so a browser
keeps each a year without asking again and still never runs a stale one: a changed file gets a new URL. Each
language's catalogue is one of them (``catalog.<lang>.js``), loaded once instead of inline in every page.

A URL with an old or no digest (a page rendered before a deploy) still gets the file as it is now, marked
``no-cache``: the page works, and the browser does not keep today's file under yesterday's name."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path

from starlette.datastructures import QueryParams
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

__all__ = ["FOREVER", "REVALIDATE", "Assets", "catalog_name", "digest"]

FOREVER = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


def digest(content: bytes) -> str:
    """The version a file's URL carries: it changes whenever the content does."""
    return hashlib.sha256(content).hexdigest()[:12]


def catalog_name(lang: str) -> str:
    return f"catalog.{lang}.js"


def _catalog_script(catalog: Mapping[str, str]) -> bytes:
    """The catalogue as a script that hands it to the pages' scripts (hd.js), run under script-src 'self'."""
    words = json.dumps(catalog, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"self.hotdiceCatalog = {words};\n".encode()


class Assets(StaticFiles):
    """The files of ``directory`` and the catalogues of ``catalogs``, each with its digest, computed once."""

    def __init__(self, directory: Path, catalogs: Mapping[str, Mapping[str, str]]) -> None:
        super().__init__(directory=directory)
        self.scripts = {catalog_name(lang): _catalog_script(catalog) for lang, catalog in catalogs.items()}
        self.versions = {path.relative_to(directory).as_posix(): digest(path.read_bytes())
                         for path in sorted(directory.rglob("*")) if path.is_file()}
        self.versions.update((name, digest(script)) for name, script in self.scripts.items())

    def url(self, path: str) -> str:
        """Where a page finds the file ``path`` as it is now."""
        return f"/static/{path}?v={self.versions[path]}"

    async def get_response(self, path: str, scope: Scope) -> Response:
        script = self.scripts.get(path)
        if script is None:
            response = await super().get_response(path, scope)
        else:
            response = Response(script, media_type="text/javascript")
        version = self.versions.get(path)
        current = version is not None and QueryParams(scope["query_string"]).get("v") == version
        response.headers["cache-control"] = FOREVER if current else REVALIDATE
        return response
