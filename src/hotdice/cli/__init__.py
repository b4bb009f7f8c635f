"""The ``hotdice`` command, a module per verb or family of verbs (:mod:`hotdice.cli.command` assembles them).
A verb only reads its arguments, asks the layers below and words the answer; a bad input is one line on stderr,
exit 2."""

from hotdice.cli.command import app, main

__all__ = ["app", "main"]
