#!/usr/bin/env bash
# Install everything the tests need on a fresh Debian machine, then run the whole suite.
# The browser tests drive Debian's chromium (browser downloads are not possible here); the terminal
# test drives the real command in tmux. The Python packages go into a virtual environment of their own
# (.venv, or HOTDICE_TEST_VENV) at the versions of requirements/test.lock, never into the machine's
# Python: every run tests the same versions. Refresh the lock with scripts/lock.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v tmux >/dev/null || missing+=(tmux)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
fi
venv="${HOTDICE_TEST_VENV:-.venv}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q -c requirements/test.lock -e '.[test]'
exec "$venv/bin/python" -m pytest -q -n 2 --durations=20 "$@"  # the slowest 20 said at the end: to keep the suite fast
