#!/usr/bin/env bash
# Install everything the tests need on a fresh Debian machine, then run the whole suite.
# The browser tests drive Debian's chromium (browser downloads are not possible here); the terminal
# test drives the real command in tmux.
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
python3 -m pip install -q -e '.[test]'
exec python3 -m pytest -q -n 2 "$@"
