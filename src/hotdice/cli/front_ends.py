"""``hotdice play`` and ``hotdice serve``: the two front ends started, the terminal's and the browser's."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from hotdice.cli.common import RULES_HELP, BadInput, parse_rules

__all__ = ["app"]

app = typer.Typer()


@app.command("play", help="Play in the terminal: solo, against the computer, together, daily, challenges, training.")
def play_command(
    rules: Annotated[
        str | None, typer.Option("--rules", "-r", help=RULES_HELP + " Default: the rules of your settings.")
    ] = None,
    lang: Annotated[
        str | None, typer.Option("--lang", metavar="fr|en", help="Language (default: from your locale).")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the game saved when you last quit.")] = False,
) -> None:
    # Imported here: Textual is only needed to play.
    from hotdice.tui import SaveError, run, saved_game

    if lang is not None and lang not in ("fr", "en"):
        raise BadInput("cli.error.play_lang", lang=lang)
    r = None if rules is None else parse_rules(rules)
    try:
        session = saved_game() if resume else None
    except SaveError as exc:
        raise BadInput("cli.error.plain", message=exc) from None
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise BadInput("cli.error.terminal")
    run(rules=r, lang=lang, resume=session)


@app.command("serve", help="Play in the browser: start the web app (HOTDICE_DATA_DIR, HOTDICE_DATABASE_URL). "
             "Logs one JSON object per line on stderr; GET /healthz tells whether it can serve.")
def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="Server processes sharing the port; "
                                         "each builds its own app from the environment.")] = 1,
    proxy_headers: Annotated[bool, typer.Option("--proxy-headers/--no-proxy-headers", help="Take the client's "
                                                "address and scheme from X-Forwarded-For and X-Forwarded-Proto "
                                                "sent by a trusted proxy.")] = True,
    forwarded_allow_ips: Annotated[str, typer.Option("--forwarded-allow-ips", help="Comma-separated addresses of "
                                                     "the trusted reverse proxies, or '*'.")] = "127.0.0.1",
) -> None:
    # Imported here: the web stack is only needed to serve.
    import socket

    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from hotdice.store.migrate import upgrade
    from hotdice.web import Settings
    from hotdice.web.limits import MAX_WS_MESSAGE
    from hotdice.web.logs import LOG_CONFIG

    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise BadInput("cli.error.listen", host=host, port=port, reason=exc) from None
    try:
        settings = Settings.from_env()
    except ValueError as exc:  # a rate limit, a body size or a device key that does not read
        raise BadInput("cli.error.plain", message=exc) from None
    try:
        upgrade(settings.url())  # here, once: the workers then start on a database at the head
    except ModuleNotFoundError as exc:
        raise BadInput("cli.error.driver", driver=exc.name) from None
    except (OSError, SQLAlchemyError) as exc:
        raise BadInput("cli.error.database", reason=str(exc).strip().splitlines()[0]) from None
    shown = f"[{host}]" if ":" in host else host
    print(f"hotdice: playing at http://{shown}:{port} (Ctrl+C to stop)", file=sys.stderr)
    # A factory named by import string: every worker process builds its own app (database pool, hub). A new
    # worker answers its supervisor only once Python has loaded it, which takes seconds on a busy machine: a
    # shorter wait has uvicorn kill and restart workers that were merely starting. The HTTP protocol closes
    # connections that keep a request head waiting and caps them per address (hotdice.web.server).
    uvicorn.run("hotdice.web.app:serve_app", factory=True, host=host, port=port, workers=workers,
                http="hotdice.web.server:GuardedHttp",
                log_config=LOG_CONFIG, access_log=False, proxy_headers=proxy_headers,
                forwarded_allow_ips=forwarded_allow_ips, timeout_worker_healthcheck=60, ws_max_size=MAX_WS_MESSAGE)
