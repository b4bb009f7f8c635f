"""Real ``hotdice serve`` processes for the web tests: uvicorn on ports of their own, on one database.

:func:`start_server` runs ``uvicorn --factory hotdice.web:serve_app`` as a child process. A test that kills
servers many times uses a :class:`Preloader` instead: a process that has imported the web app once and forks
a fresh server on demand (as a preloading process manager does), so a killed server is back in a fraction of a
second instead of the seconds the imports take. Each forked server opens the database anew.

Run as ``python -m tests.web_servers`` it is that preloading process: each line on its input is a port; it
answers with the process id of the server it forked to listen there.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

__all__ = ["HOST", "UP_WITHIN", "Preloader", "Server", "free_port", "server_env", "start_server", "wait_up"]

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent
UP_WITHIN = 120.0  # seconds: imports take long on a loaded 2-core machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def server_env(database_url: str, data_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of a server on ``database_url``: no rate limits (the tests play fast from one address)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOTDICE_")}
    env |= {
        "HOTDICE_DATABASE_URL": database_url,
        "HOTDICE_DATA_DIR": str(data_dir),
        "HOTDICE_CACHE_DIR": os.environ.get("HOTDICE_CACHE_DIR", str(data_dir / "cache")),
        "HOTDICE_RATE_LIMITS": "off",
        "PYTHONPATH": str(ROOT),
        **extra,
    }
    return env


def wait_up(port: int, alive: subprocess.Popen[bytes] | None = None, within: float = UP_WITHIN) -> None:
    """Until the server on ``port`` answers (a static file: no database work)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if alive is not None and alive.poll() is not None:
            raise RuntimeError(f"the server for port {port} exited with {alive.returncode}")
        try:
            if httpx.get(f"http://{HOST}:{port}/static/favicon.svg", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.02)
    raise TimeoutError(f"no server on port {port} after {within} s")


class Server:
    """A uvicorn process serving the app on its own port; ``serve``: ``hotdice serve`` itself (its protocol)
    with these further arguments."""

    def __init__(self, env: dict[str, str], *, serve: Sequence[str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        where = ["--host", HOST, "--port", str(self.port)]
        command = ([sys.executable, "-m", "hotdice.cli", "serve", *where, *serve] if serve is not None
                   else [sys.executable, "-m", "uvicorn", "--factory", "hotdice.web:serve_app", *where,
                         "--log-level", "warning"])
        self.process = subprocess.Popen(command, env=env, cwd=ROOT)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_server(env: dict[str, str], *, serve: Sequence[str] | None = None) -> Server:
    server = Server(env, serve=serve)
    wait_up(server.port, server.process)
    return server


class Preloader:
    """The preloading process: :meth:`spawn` forks a fresh server process listening on ``port``."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.web_servers"], env=env, cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )
        self.children: list[int] = []

    def spawn(self, port: int) -> int:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{port}\n".encode())
        self.process.stdin.flush()
        pid = int(self.process.stdout.readline())
        self.children.append(pid)
        return pid

    def close(self) -> None:
        for pid in self.children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.kill()
        self.process.wait()


def _preload() -> None:
    import uvicorn

    from hotdice.web import serve_app

    uvicorn.Config(serve_app, host=HOST, factory=True).load()  # imports what each server would import when it starts
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps killed servers
    for line in sys.stdin:
        port = int(line)
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            uvicorn.run(serve_app(), host=HOST, port=port, log_level="warning")
            os._exit(0)
        print(pid, flush=True)


if __name__ == "__main__":
    _preload()
