"""``hotdice play``: the terminal game (Textual). The game stays in the engine; screens show it and ask it.

:func:`run` starts the app; the app, its screens and widgets live in :mod:`.app`, :mod:`.screens` and
:mod:`.widgets`; their words come from hotdice's catalogue (:mod:`hotdice.i18n`, through :mod:`.i18n`).
"""

from __future__ import annotations

from hotdice.game.rules import Rules
from hotdice.tui.session import SaveError, Session

__all__ = ["SaveError", "Session", "run", "saved_game"]


def saved_game() -> Session:
    """The game saved when the player last quit; SaveError if there is none or it cannot be resumed."""
    return Session.load()


def run(rules: Rules | None = None, lang: str | None = None, resume: Session | None = None) -> None:
    """Play in this terminal; ``resume`` opens that game at the table first."""
    from hotdice.tui.app import HotDiceApp

    HotDiceApp(rules=rules, lang=lang, resume=resume).run()
