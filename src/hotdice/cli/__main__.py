"""``python -m hotdice.cli``: the ``hotdice`` command."""

from hotdice.cli.command import main

main()
