"""The player's settings for the terminal game (language, name, rules, whether Hard waits for its exact play),
kept in the user data folder.

The folder is the statistics database's (:func:`hotdice.store.data_dir`: ``$HOTDICE_DATA_DIR`` or the user's
data folder), so one variable moves everything. A settings file that cannot be read is ignored: settings
are a comfort, never a reason not to start.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from hotdice.game.rules import Rules, RulesError
from hotdice.play.names import MAX_NAME_CODE_POINTS
from hotdice.store.db import data_dir
from hotdice.tui.i18n import LANGUAGES

__all__ = ["PREFS_FILE", "Prefs"]

PREFS_FILE = "tui-settings.json"


@dataclass
class Prefs:
    lang: str | None = None  # None: from the locale
    rules: str = "farkle"
    name: str = ""  # "" : the translated "You"
    hard_waits: bool = False  # Hard holds its move until its table is solved, rather than play expected points

    @staticmethod
    def path() -> Path:
        return data_dir() / PREFS_FILE

    @classmethod
    def load(cls) -> Prefs:
        try:
            data = json.loads(cls.path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        prefs = cls()
        if data.get("lang") in LANGUAGES:
            prefs.lang = data["lang"]
        if isinstance(data.get("name"), str):
            prefs.name = data["name"].strip()[:MAX_NAME_CODE_POINTS]
        if isinstance(data.get("hard_waits"), bool):
            prefs.hard_waits = data["hard_waits"]
        if isinstance(data.get("rules"), str):
            with contextlib.suppress(RulesError):
                prefs.rules = str(Rules.parse(data["rules"]))
        return prefs

    def save(self) -> None:
        path = self.path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(asdict(self), ensure_ascii=False, indent=1), encoding="utf-8")
