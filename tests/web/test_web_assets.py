"""The web app served like a site: gzipped pages, styles and scripts; static files at URLs that carry their
content's digest, kept a year by the browser; each language's catalogue loaded once as such a file instead of
inline in every page. Digests are checked against hashlib run here on the files themselves."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from hotdice.i18n import LANGUAGES, catalog
from hotdice.web.app import create_app
from hotdice.web.assets import FOREVER, Assets, digest
from hotdice.web.settings import Settings

CATALOGS = {lang: catalog(lang) for lang in LANGUAGES}

STATIC = Path(__file__).resolve().parents[2] / "src" / "hotdice" / "web" / "static"
CATALOG_PREFIX = "self.hotdiceCatalog = "


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[FastAPI]:
    web = create_app(Settings(data_dir=tmp_path, database_url=database_url, daily_key=b"k" * 32).unlimited())
    yield web
    web.state.db.close()


@pytest.fixture
def alice(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


def _pages(client: TestClient) -> list[str]:
    """One address of every kind of page, the error page too."""
    made = client.post("/api/games", json={"mode": "solo"})
    assert made.status_code == 201, made.text
    challenge = client.post("/api/challenges", json={}).json()["code"]
    table = client.post("/api/tables", json={}).json()["code"]
    return ["/", "/daily", "/rules", "/stats", "/training", f"/play/{made.json()['id']}", f"/c/{challenge}",
            f"/c/{challenge}/results", f"/t/{table}", "/play/nope"]


def _raw(client: TestClient, path: str, encoding: str) -> tuple[dict[str, str], bytes]:
    """The headers and the body as sent, not decoded by the client."""
    with client.stream("GET", path, headers={"Accept-Encoding": encoding}) as answer:
        return dict(answer.headers), b"".join(answer.iter_raw())


def _assets(html: str) -> list[str]:
    return re.findall(r'<(?:script|link)\b[^>]*?(?:src|href)="(/static/[^"]*)"', html)


def test_pages_styles_and_scripts_are_gzipped_for_browsers_that_take_it_and_plain_for_others(
    alice: TestClient,
) -> None:
    for path in ["/", "/rules", "/static/hotdice.css", "/static/table.js"]:
        plain_headers, plain = _raw(alice, path, "identity")
        assert "content-encoding" not in plain_headers, path
        headers, body = _raw(alice, path, "gzip")
        assert headers["content-encoding"] == "gzip", path
        assert "accept-encoding" in headers["vary"].lower(), path
        assert len(body) < len(plain) and gzip.decompress(body) == plain, path
        assert "script-src 'self'" in headers["content-security-policy"], path  # the security headers kept
        assert headers["x-content-type-options"] == "nosniff", path


def test_the_api_json_is_not_compressed(alice: TestClient) -> None:
    made = alice.post("/api/games", json={"mode": "solo"}).json()
    headers, body = _raw(alice, f"/api/games/{made['id']}", "gzip")
    assert len(body) > 500  # big enough that gzip would have taken it
    assert "content-encoding" not in headers and json.loads(body)["id"] == made["id"]


def test_every_page_asks_for_its_files_by_their_digest_and_they_are_kept_a_year(alice: TestClient) -> None:
    seen = set()
    for page in _pages(alice):
        urls = _assets(alice.get(page).text)
        assert any("/hd.js?" in url for url in urls) and any("/hotdice.css?" in url for url in urls), page
        for url in urls:
            name, _, version = url.removeprefix("/static/").partition("?v=")
            if (STATIC / name).is_file():
                assert version == hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12], url
            seen.add(url)
    assert {url.split("?")[0] for url in seen} >= {"/static/table.js", "/static/catalog.en.js"}
    for url in seen:
        answer = alice.get(url)
        assert answer.status_code == 200, url
        assert answer.headers["cache-control"] == FOREVER, url


def test_an_old_or_missing_digest_still_gets_the_file_but_only_to_revalidate(alice: TestClient) -> None:
    current = alice.get("/static/table.js?v=" + digest((STATIC / "table.js").read_bytes()))
    for url in ["/static/table.js?v=0123456789ab", "/static/table.js"]:
        answer = alice.get(url)
        assert answer.status_code == 200 and answer.content == current.content, url
        assert answer.headers["cache-control"] == "no-cache", url
        again = alice.get(url, headers={"If-None-Match": answer.headers["etag"]})
        assert again.status_code == 304, url
    assert alice.get("/static/nothing.js?v=0123456789ab").status_code == 404
    assert alice.get("/static/catalog.de.js").status_code == 404
    assert "cache-control" not in alice.get("/rules").headers  # pages as before: never kept


def test_a_changed_file_gets_a_new_url(tmp_path: Path) -> None:
    assert digest(b"let a = 1;") != digest(b"let a = 2;")
    shutil.copytree(STATIC, tmp_path / "static")
    before = Assets(tmp_path / "static", CATALOGS)
    (tmp_path / "static" / "table.js").write_text("/* changed */\n", encoding="utf-8")
    after = Assets(tmp_path / "static", CATALOGS)
    assert after.url("table.js") != before.url("table.js")
    assert after.url("hd.js") == before.url("hd.js") == Assets(STATIC, CATALOGS).url("hd.js")
    changed = {lang: {**catalog, "nav.home": "Maison"} for lang, catalog in CATALOGS.items()}
    assert Assets(STATIC, changed).url("catalog.en.js") != before.url("catalog.en.js")


@pytest.mark.parametrize("lang", sorted(CATALOGS))
def test_the_catalogue_is_one_file_per_language_not_inline_in_the_pages(alice: TestClient, lang: str) -> None:
    alice.get(f"/lang/{lang}?next=/", follow_redirects=False)
    for page in _pages(alice):
        html = alice.get(page).text
        assert 'id="catalog"' not in html and '"nav.skip"' not in html, page
        scripts = _assets(html)
        catalog = [url for url in scripts if url.startswith(f"/static/catalog.{lang}.js?v=")]
        assert len(catalog) == 1, page
        assert scripts.index(catalog[0]) < next(i for i, url in enumerate(scripts) if "/hd.js?" in url), page
    answer = alice.get(catalog[0])
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.text.startswith(CATALOG_PREFIX) and answer.text.endswith(";\n")
    assert json.loads(answer.text.removeprefix(CATALOG_PREFIX).removesuffix(";\n")) == CATALOGS[lang]
    assert catalog[0].endswith(digest(answer.content))


def _png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header chunk (IHDR), read by hand."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.mark.slow
def test_every_page_links_the_web_app_manifest_whose_icons_are_pngs_of_their_stated_sizes(alice: TestClient) -> None:
    for page in _pages(alice):
        html = alice.get(page).text
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, page
    answer = alice.get("/manifest.webmanifest")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["name"] == manifest["short_name"] == "hotdice"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in alice.get("/").text
    icons = {(icon["sizes"], icon["purpose"]): icon for icon in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _), icon in icons.items():
        png = alice.get(icon["src"])
        assert png.status_code == 200 and png.headers["cache-control"] == FOREVER, icon
        assert icon["type"] == png.headers["content-type"] == "image/png"
        width, height = _png_size(png.content)
        assert f"{width}x{height}" == sizes, icon


def test_the_maskable_icon_fills_its_square_and_the_others_have_transparent_corners() -> None:
    """A launcher cuts the maskable icon to its own shape: no transparent pixel may show; the others are drawn
    on a rounded tile. Read with matplotlib's PNG reader, not the drawing code."""
    from matplotlib.image import imread

    maskable = imread(STATIC / "icon-maskable.png")
    assert maskable.shape[:2] == (512, 512) and (maskable.shape[2] == 3 or maskable[..., 3].min() == 1.0)
    for name in ("icon-192.png", "icon-512.png"):
        tile = imread(STATIC / name)
        assert tile[0, 0, 3] == 0.0 and tile[tile.shape[0] // 2, tile.shape[1] // 2, 3] == 1.0, name


def test_the_service_worker_is_served_for_the_whole_site_and_keeps_the_offline_pages(alice: TestClient) -> None:
    answer = alice.get("/sw.js")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["service-worker-allowed"] == "/" and answer.headers["cache-control"] == "no-cache"
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    first = answer.text.splitlines()[0]
    site = json.loads(first.removeprefix("const SITE = ").removesuffix(";"))
    assert site["pages"] == {"en": "/offline/en", "fr": "/offline/fr"}
    css = re.search(r'href="(/static/hotdice\.css\?v=[0-9a-f]{12})"', alice.get("/offline/en").text)
    assert css is not None and css.group(1) in site["files"]
    for url in [*site["pages"].values(), *site["files"]]:
        assert alice.get(url).status_code == 200, url
    assert alice.get("/sw.js").text == answer.text  # one cache name while nothing changes


@pytest.mark.parametrize(("lang", "title"), [("en", "You are offline"), ("fr", "Vous êtes hors ligne")])
def test_the_offline_page_runs_no_script(alice: TestClient, lang: str, title: str) -> None:
    html = alice.get(f"/offline/{lang}").text
    assert f'<html lang="{lang}">' in html and f"<h1>{title}</h1>" in html
    assert "<script" not in html  # shown from the worker's cache, where no script could load
    assert alice.get("/offline/de").status_code == 404
