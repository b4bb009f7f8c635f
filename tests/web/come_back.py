"""The fixture of issue 25's API tests (the daily's share, your games, rematch): the app on a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi import FastAPI

from hotdice.web import Settings, create_app

KEY = b"the test server's daily key"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[FastAPI]:
    web = create_app(Settings(data_dir=tmp_path, daily_key=KEY).unlimited())
    yield web
    web.state.clock.shift = timedelta(0)  # the clock a test moved
    web.state.db.close()
