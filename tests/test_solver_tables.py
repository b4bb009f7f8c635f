"""The solver as a plain install runs it, and the solved tables shipped with the package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_penalty_solve_needs_no_scipy(tmp_path: Path) -> None:
    # scipy is only in the test extra; a plain install must solve the three-farkle penalty without it. The
    # kernels are compiled afresh (an empty numba cache), as on a first run.
    fake = tmp_path / "site" / "scipy"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('scipy is not installed')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site"), "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           "HOTDICE_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "hotdice.cli", "solve", "--rules",
                           "5000-fr,target=500,entry=0,three_farkles=200", "--players", "2", "--json"],
                          capture_output=True, text=True, env=env, timeout=240)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
