"""What the browser downloads: the bytes of the home page, a table page, table.js and the catalogues, as
sent plain and as sent gzipped (``Accept-Encoding: gzip``), through the app's own middlewares.

Run: ``python bench/bench_site_bytes.py``
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from fastapi.testclient import TestClient

from hotdice.web.app import create_app
from hotdice.web.settings import Settings


def sent(client: TestClient, path: str, encoding: str) -> int:
    """The body's bytes on the wire, before the client decodes it."""
    with client.stream("GET", path, headers={"Accept-Encoding": encoding}) as answer:
        return sum(len(chunk) for chunk in answer.iter_raw())


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    settings = Settings(data_dir=folder, database_url=f"sqlite:///{folder}/bench.sqlite", daily_key=b"bench")
    with TestClient(create_app(settings.unlimited())) as client:
        game = client.post("/api/games", json={"mode": "solo"}).json()["id"]
        catalogs = re.findall(r'src="(/static/catalog[^"]+)"', client.get("/").text)
        client.get("/lang/fr", follow_redirects=False)
        catalogs += re.findall(r'src="(/static/catalog[^"]+)"', client.get("/").text)
        client.get("/lang/en", follow_redirects=False)
        for name, path in [("home page", "/"), ("table page", f"/play/{game}"), ("table.js", "/static/table.js"),
                           *((url.split("?")[0].removeprefix("/static/"), url) for url in catalogs)]:
            plain, gzipped = sent(client, path, "identity"), sent(client, path, "gzip")
            print(f"{name:16} plain {plain:7,} B   gzip {gzipped:7,} B   ({gzipped / plain:.0%})")


if __name__ == "__main__":
    main()
