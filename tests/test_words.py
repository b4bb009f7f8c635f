"""One word per thing in the code (issue 13): dice are set aside, never kept, and the dice in hand have one
name, ``dice_in_hand``. The words of the record notation (``keep 155``), of the input (``k 1 5 5``) and of
the web API's JSON (the request field ``keep``) are contracts and stay: only the web's request bodies and the
intent built from them name that field."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
OLD_WORDS = {"keep", "kept", "dice_to_roll", "in_hand"}
API_FIELD = "keep"  # the JSON field of POST /api/games/{id}/act and /api/training/question


def _names(tree: ast.AST) -> list[tuple[str, ast.AST]]:
    """The identifiers the code defines or reads: variables, parameters, attributes, functions, classes."""
    found: list[tuple[str, ast.AST]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.append((node.id, node))
        elif isinstance(node, ast.arg):
            found.append((node.arg, node))
        elif isinstance(node, ast.Attribute):
            found.append((node.attr, node))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.append((node.name, node))
    return found


def _api_field(module: str, tree: ast.Module, name: str, node: ast.AST) -> bool:
    """Whether this ``keep`` is the API's field: in a request body, a route reading it, or the intent."""
    if name != API_FIELD:
        return False
    if module == "hotdice/web/schemas.py":
        return True
    if module.startswith("hotdice/web/routes/"):
        return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "body"
    if module == "hotdice/web/services/games.py":
        intent = next(c for c in tree.body if isinstance(c, ast.ClassDef) and c.name == "ActRequest")
        return intent.lineno <= getattr(node, "lineno", 0) <= (intent.end_lineno or 0)
    return False


def old_words(src: Path) -> list[str]:
    """Every use of an old word in the package, as ``path:line: word``."""
    out = []
    for path in sorted((src / "hotdice").rglob("*.py")):
        module, tree = path.relative_to(src).as_posix(), ast.parse(path.read_text(encoding="utf-8"))
        for name, node in _names(tree):
            if name in OLD_WORDS and not _api_field(module, tree, name, node):
                out.append(f"{module}:{getattr(node, 'lineno', 0)}: {name}")
    return out


def test_the_package_says_set_aside_and_dice_in_hand() -> None:
    assert old_words(SRC) == []


def test_an_old_word_is_found(tmp_path: Path) -> None:
    shutil.copytree(SRC / "hotdice", tmp_path / "hotdice", ignore=shutil.ignore_patterns("__pycache__", "*.npz"))
    engine = tmp_path / "hotdice" / "game" / "engine.py"
    engine.write_text(engine.read_text() + "\n\ndef dice_to_roll(game: Game) -> int:\n    return game.dice_in_hand\n")
    games = tmp_path / "hotdice" / "web" / "services" / "games.py"
    games.write_text(games.read_text() + "\n\ndef first(intent: ActRequest) -> str | None:\n    keep = intent.keep\n"
                     "    return keep\n")
    found = old_words(tmp_path)
    assert [w.split(": ")[1] for w in found] == ["dice_to_roll", "keep", "keep", "keep"], found
    assert all(w.startswith(("hotdice/game/engine.py:", "hotdice/web/services/games.py:")) for w in found), found
