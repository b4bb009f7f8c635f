"""Every test run keeps its files to itself: the data folder (statistics, saved games) and the cache of
solved tables point into a fresh temporary folder unless a test sets its own. ``database_url`` (from
:mod:`tests.db_support`) gives a test an empty database of its own, SQLite then PostgreSQL."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

import pytest

from tests.db_support import database_url

__all__ = ["database_url"]


@pytest.fixture(scope="session", autouse=True)
def _private_folders() -> Iterator[None]:
    with tempfile.TemporaryDirectory(prefix="hotdice-tests-") as root:
        saved = {k: os.environ.get(k) for k in ("HOTDICE_DATA_DIR", "HOTDICE_CACHE_DIR")}
        os.environ["HOTDICE_DATA_DIR"] = os.path.join(root, "data")
        os.environ["HOTDICE_CACHE_DIR"] = os.path.join(root, "cache")
        yield
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


BROWSER_FIXTURES = {"open_page", "browser", "server"}  # chromium on a served app (tests.web.test_web_browser)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Kinds of test the developer's quick run (``pytest -m "not slow"``) leaves to the whole suite, marked by what
    they are rather than one by one: a real browser, the terminal interface (Textual's pilot, tmux), and the
    PostgreSQL run of a test that also runs on SQLite (each makes and drops a database)."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_postgres = callspec is not None and any(isinstance(value, str) and value == "postgresql"
                                                   for value in callspec.params.values())
        browser = bool(BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())))
        if browser or on_postgres or item.path.parent.name == "tui":
            item.add_marker(pytest.mark.slow)
