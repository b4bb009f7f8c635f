"""What loading the catalogue costs a fresh process (``hotdice score`` starts fast): the two ways of reading
the .po files side by side, each in new interpreters, best of a few runs.

    python bench/bench_catalogue.py [runs]

- read_po: Babel parses both .po files at every start (import of babel.messages.pofile included);
- first use: the same, plus compiling both to .mo and writing them to an empty cache folder;
- from the cache: what every later start does, the standard library's gettext reading the two .mo files;
- and, for scale, ``import hotdice.cli`` itself (which comes first in the others).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import textwrap

READ_PO = """
from babel.messages.pofile import read_po
from hotdice.i18n import po_path
for lang in ("en", "fr"):
    with open(po_path(lang), "rb") as po:
        read_po(po)
"""

CACHED = """
from hotdice.i18n import Translator
Translator("en"), Translator("fr")
"""

CLI = "import hotdice.cli"


def once(code: str, cache: str, before: str = "import hotdice.cli") -> float:
    """Milliseconds of ``code`` in a new interpreter, timed by its own clock after ``before`` (what the
    command has imported anyway: the catalogue's cost on top of it)."""
    script = f"import time\n{before}\nstart = time.perf_counter()\n" + textwrap.dedent(code)
    script += "\nprint((time.perf_counter() - start) * 1000)\n"
    env = {"HOTDICE_CACHE_DIR": cache, "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    return float(run.stdout.strip())


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    first, read, cached, cli = [], [], [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as empty:
            first.append(once(CACHED, empty))
            cached.append(once(CACHED, empty))
            read.append(once(READ_PO, empty))
            cli.append(once(CLI, empty, before=""))
    print(f"runs: {runs}, best (median) in ms, in a fresh interpreter after import hotdice.cli")
    for name, times in [
        ("read_po at every start", read),
        ("first use: read_po + compile + write .mo", first),
        ("later starts: .mo from the cache (gettext)", cached),
        ("import hotdice.cli, for scale", cli),
    ]:
        times.sort()
        print(f"{name:45} {times[0]:7.1f} ({times[len(times) // 2]:.1f})")


if __name__ == "__main__":
    main()
