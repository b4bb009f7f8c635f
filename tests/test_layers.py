"""The import layers hold (pyproject.toml's [tool.importlinter]): imports go one way, down
cli -> tui | web | env -> store | sim | i18n -> play -> analysis -> game, and no package's modules import each
other in a cycle. The contract is checked by import-linter on the real tree, and shown to fail on a back-edge."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["cli", "tui | web | env", "store | sim | i18n", "play", "analysis", "game"]


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    command = [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"]
    return subprocess.run([*command, "--no-cache", "--no-logo"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300, check=False)


def test_the_contract_lists_the_layers_top_to_bottom() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers")
    assert layers["layers"] == LAYERS and layers["containers"] == ["hotdice"] and layers["exhaustive"]
    assert any(c["type"] == "acyclic_siblings" for c in config["contracts"])


def test_the_layers_hold() -> None:
    run = lint(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr


def copy(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(ROOT / "src" / "hotdice", tmp_path / "src" / "hotdice",
                    ignore=shutil.ignore_patterns("__pycache__", "*.npz"))
    return tmp_path


def test_a_back_edge_breaks_the_contract(tmp_path: Path) -> None:
    root = copy(tmp_path)
    engine = root / "src" / "hotdice" / "game" / "engine.py"
    engine.write_text(engine.read_text() + "\nimport hotdice.play.modes  # a back-edge\n")
    run = lint(root)
    assert run.returncode == 1 and "hotdice.game.engine -> hotdice.play.modes" in run.stdout, run.stdout


def test_a_flat_module_outside_the_layers_breaks_the_contract(tmp_path: Path) -> None:
    root = copy(tmp_path)
    (root / "src" / "hotdice" / "loose.py").write_text('"""Not in any layer."""\n')
    run = lint(root)
    assert run.returncode == 1 and "hotdice.loose" in run.stdout, run.stdout


def test_a_cycle_between_two_modules_breaks_the_contract(tmp_path: Path) -> None:
    root = copy(tmp_path)
    dice = root / "src" / "hotdice" / "game" / "dice.py"
    dice.write_text(dice.read_text() + "\nimport hotdice.game.engine  # engine imports dice: a cycle\n")
    run = lint(root)
    assert run.returncode == 1 and "No cycles are allowed in hotdice.game." in run.stdout, run.stdout
