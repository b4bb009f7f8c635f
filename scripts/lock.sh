#!/usr/bin/env bash
# Refresh requirements/test.lock: resolve the test extra afresh in a new virtual environment (newest
# versions within pyproject's ranges, minus requirements/avoid.txt) and record every version.
# Then run `bash scripts/test.sh` and commit the lock if the suite is green.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q -c requirements/avoid.txt -e '.[test]'
{
    echo "# The test environment, installed by scripts/test.sh. Refresh with: bash scripts/lock.sh"
    "$tmp/venv/bin/python" -m pip freeze --exclude-editable
} > requirements/test.lock
echo "requirements/test.lock: $(grep -vc '^#' requirements/test.lock) packages"
