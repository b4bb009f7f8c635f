"""The test environment is the locked one: every run, CI's included, tests the same versions.

``scripts/test.sh`` installs ``.[test]`` with ``requirements/test.lock`` as constraints; a drift (a package
installed by hand, a lock edited without reinstalling) fails here instead of as a puzzling failure elsewhere.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def _locked() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements" / "test.lock").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    return pins


def _project() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {"": project["dependencies"], **project["optional-dependencies"]}


def test_every_installed_version_is_the_locked_one() -> None:
    drift = {name: (version, metadata.version(name)) for name, version in _locked().items()
             if metadata.version(name) != version}
    assert not drift, f"installed versions differ from requirements/test.lock (locked, installed): {drift}"


def test_the_lock_holds_every_dependency_the_tests_install() -> None:
    locked = _locked()
    names = {canonicalize_name(Requirement(r).name) for reqs in _project().values() for r in reqs}
    names.discard("hotdice")
    assert names <= set(locked), f"not in requirements/test.lock: {sorted(names - set(locked))}"


def test_the_library_keeps_open_ranges() -> None:
    pinned = [r for reqs in _project().values() for r in reqs if re.search(r"==|~=|<", r)]
    assert not pinned, f"pyproject.toml pins what only the lock should: {pinned}"
