"""The real ``hotdice play`` in a real terminal (tmux, 80 x 24): start, roll, quit (saved), resume.

Skipped only where tmux is not installed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """One tmux session running a command at 80 x 24; read with capture-pane, type with send-keys."""

    def __init__(self, command: str, env: dict[str, str]) -> None:
        self.name = f"hotdice-test-{uuid.uuid4().hex[:8]}"
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", self.name, "-x", "80", "-y", "24", f"env {exports} {command}"],
            check=True,
        )

    def screen(self) -> str:
        run = subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return run.stdout

    def wait_for(self, text: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"'{text}' never showed; the screen:\n{self.screen()}")

    def keys(self, *keys: str) -> None:
        for key in keys:
            subprocess.run(["tmux", "send-keys", "-t", self.name, key], check=True)
            time.sleep(0.15)

    def alive(self) -> bool:
        return subprocess.run(["tmux", "has-session", "-t", self.name], capture_output=True).returncode == 0

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


def test_hotdice_play_in_a_real_terminal(tmp_path: Path) -> None:
    env = {
        "HOTDICE_DATA_DIR": str(tmp_path),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "PATH": os.environ.get("PATH", ""),
    }
    hotdice = f"{sys.executable} -m hotdice.cli"
    term = Terminal(f"{hotdice} play --lang en --rules farkle,entry=500", env)
    try:
        menu = term.wait_for("Rules in force: farkle,entry=500")
        assert "Solo: ten turns for the best score" in menu and "Against the computer: Hard" in menu
        term.keys("Enter")  # Solo
        term.wait_for("Turn 1/10")
        term.keys("r")
        table = term.wait_for("rolls ")
        assert "┌─────┐" in table
        found = re.search(r"rolls ([1-6 ]+)", table)
        assert found is not None
        roll = found[1].split()
        scoring = next((i for i, face in enumerate(roll) if face in "15"), None)
        if scoring is not None:  # live dice: a roll with no 1 or 5 may still score, or farkle
            assert "Pick dice to set aside" in table
            term.keys(str(scoring + 1))
            assert "farkle risk" in term.wait_for(f"Set aside {roll[scoring]}:")
        term.keys("q")  # saved, back to the menu
        term.wait_for("Resume the saved game")
        term.keys("q")
        deadline = time.monotonic() + 10
        while term.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert (tmp_path / "saved-solo.json").exists()
    finally:
        term.close()
    term = Terminal(f"{hotdice} play --lang fr --resume", env)
    try:
        table = term.wait_for("Solo, dix tours")
        assert "Tour 1/10" in table and "lance" in table
    finally:
        term.close()
