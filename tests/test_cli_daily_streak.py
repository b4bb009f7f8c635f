"""``hotdice stats`` and its JSON carry the daily streak (days counted back from today, UTC): the terminal's
dailies recorded for yesterday and the two days before, then one missed day earlier."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hotdice.game.dice import FixedDice
from hotdice.play.modes import daily
from hotdice.store import Store
from hotdice.store.stats import record_game
from tests.test_cli import ENV
from tests.test_cli_words import run


@pytest.mark.slow
def test_the_streak_is_in_the_json_and_the_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOTDICE_DATA_DIR", str(tmp_path))
    today = datetime.now(UTC).date()
    with Store() as store:
        for back in (5, 3, 2, 1):
            dice = FixedDice([(2, 2, 3, 4, 6, 6)] * 10)
            setup = daily("Ann")
            while setup.game.outcome is None:
                setup.game.play("roll", dice)
            record_game(store, setup.game, player=0, mode="daily", opponent=None, day=today - timedelta(days=back))
    env = {**ENV, "HOTDICE_DATA_DIR": str(tmp_path)}
    found = json.loads(run(env, "stats", "--json"))
    assert (found["daily_streak"], found["best_daily_streak"]) == (3, 3)
    assert "Daily streak: 3 days in a row (best: 3)." in run(env, "stats")
    assert "Série du jour\u00a0: 3 jours" in run(env, "--lang", "fr", "stats")
