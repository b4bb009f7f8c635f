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
    """One tmux session running a command (80 x 24 unless told); read with capture-pane, type with send-keys.
    Each on a tmux server of its own (``-L``): on a shared one, a session started while another test's last one
    closes could find the server exiting ("server exited unexpectedly")."""

    def __init__(self, command: str, env: dict[str, str], size: tuple[int, int] = (80, 24)) -> None:
        self.name = f"hotdice-test-{uuid.uuid4().hex[:8]}"
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        width, height = map(str, size)
        self.tmux(
            # COLUMNS and LINES, if the tmux server has them, would fix the app's size (shutil reads them first)
            "new-session", "-d", "-s", self.name, "-x", width, "-y", height,
            f"env -u COLUMNS -u LINES {exports} {command}",
        )
        self.socket = Path(self.tmux("display-message", "-p", "#{socket_path}").stdout.strip())

    def tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tmux", "-L", self.name, *args], check=check, capture_output=True, text=True)

    def resize(self, width: int, height: int) -> None:
        self.tmux("resize-window", "-t", self.name, "-x", str(width), "-y", str(height))

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name, check=False).stdout

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
            self.tmux("send-keys", "-t", self.name, key)
            time.sleep(0.15)

    def alive(self) -> bool:
        return self.tmux("has-session", "-t", self.name, check=False).returncode == 0

    def close(self) -> None:
        self.tmux("kill-server", check=False)
        self.socket.unlink(missing_ok=True)  # the server leaves it behind


def environment(data: Path) -> dict[str, str]:
    path = os.environ.get("PATH", "")
    return {"HOTDICE_DATA_DIR": str(data), "TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": path}


HOTDICE = f"{sys.executable} -m hotdice.cli"


def play_out(term: Terminal, until: str, seconds: float = 120) -> str:
    """Play a game out by cycling r (roll), a (the best set-aside), b (bank) until ``until`` shows (the result's
    keys) and stays; the review a last r opens on the result is closed. The table ignores those keys when they do
    not apply, so every turn ends whatever the live dice."""
    deadline = time.monotonic() + seconds
    presses = 0
    while True:
        shown = term.screen()
        assert time.monotonic() < deadline, f"'{until}' never showed; the screen:\n{shown}"
        if "Review: " in shown:
            term.keys("Escape")
        elif until in shown:
            time.sleep(0.5)  # a key sent as the result came up is handled there
            if "Review: " not in (shown := term.screen()):
                return shown
        else:
            term.keys("rab"[presses % 3])
            presses += 1


def test_hotdice_play_in_a_real_terminal(tmp_path: Path) -> None:
    env = environment(tmp_path)
    hotdice = HOTDICE
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


def test_a_small_real_terminal_how_to_play_compact_dice_then_too_small(tmp_path: Path) -> None:
    term = Terminal(f"{HOTDICE} play --lang en --rules farkle", environment(tmp_path), size=(60, 20))
    try:
        term.wait_for("? how to play")
        term.keys("?")
        term.wait_for("1. Roll: r rolls the 6 dice.")
        term.keys("Escape")
        term.wait_for("Solo: ten turns for the best score")
        term.keys("Enter")  # Solo
        term.wait_for("Turn 1/10")
        term.keys("r")
        screen = term.wait_for("rolls ")
        found = re.search(r"rolls ([1-6 ]+)", screen)
        assert found is not None
        compact = "".join(f"[{face}]" for face in found[1].split())
        assert compact in screen and "┌─────┐" not in screen and "too small" not in screen
        term.resize(30, 10)
        assert "it needs 40×15" in " ".join(term.wait_for("too small").split())
        term.resize(80, 24)
        assert "┌─────┐" in term.wait_for("┌─────┐")
        term.keys("q")
        term.wait_for("Resume the saved game")
    finally:
        term.close()


@pytest.mark.slow
def test_a_ten_turn_game_played_out_then_r_shows_its_review_at_80_by_24(tmp_path: Path) -> None:
    """The result screen's R in the real ``hotdice play``: the review's chart, then (scrolled to the end) its
    summary, inside 80×24."""
    term = Terminal(f"{HOTDICE} play --lang en --rules farkle", environment(tmp_path))
    try:
        term.wait_for("Solo: ten turns for the best score")
        term.keys("Enter")  # Solo
        term.wait_for("Turn 1/10")
        over = play_out(term, "R review")
        assert "Game over" in over and "in 10 turns" in over
        term.keys("r")
        review = term.wait_for("expected final points after each roll and decision")
        lines = review.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert "Review: " in review and sum(line.count("│") for line in lines) >= 8  # the chart's rows
        assert any(block in review for block in "▁▂▃▄▅▆▇█")
        term.keys("End")
        summary = term.wait_for("Esc or q back to the result")
        lines = summary.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert "accuracy" in summary and "skill lost" in summary and re.search(r"You +[-+]?[\d,.]+ points", summary)
        term.keys("Escape")
        term.wait_for("R review")
    finally:
        term.close()
