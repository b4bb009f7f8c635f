"""What the browser is told to enforce (:class:`SecurityHeaders`) and the requests another site's page could
make with a player's cookie (:class:`SameOrigin`). SECURITY.md, section 6, says what each one stops."""

from __future__ import annotations

import base64
import hashlib
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hotdice.web.asgi import header
from hotdice.web.errors import said_body
from hotdice.web.limits import refuse

__all__ = ["DOCS_PATH", "SameOrigin", "SecurityHeaders", "docs_policy"]

DOCS_PATH = "/api/docs"
# The pages run only the app's own files (the table's JSON block is data, never run): an injected <script>, an
# onclick= or a style= does nothing; no other site may frame them (clickjacking), nor may a form send to one.
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
               "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
CDN = "https://cdn.jsdelivr.net"  # where FastAPI's API docs page takes Swagger UI from
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_DEFAULT_PORTS = {b"http": b":80", b"https": b":443"}
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def docs_policy(page: bytes) -> bytes:
    """The Content-Security-Policy of the API docs page (``page``, as FastAPI makes it): Swagger UI from its
    CDN, with the inline styles it sets, and the page's own inline script by its digest, no other."""
    digests = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(script).digest()).decode()}'"
                       for script in _INLINE_SCRIPT.findall(page))
    return (f"default-src 'self'; script-src {CDN} {digests}; style-src {CDN} 'unsafe-inline'; "
            "img-src 'self' data: https://fastapi.tiangolo.com; connect-src 'self'; object-src 'none'; "
            "base-uri 'none'; form-action 'self'; frame-ancestors 'none'").encode()


class SecurityHeaders:
    """Adds the security headers to every HTTP answer as it starts: no body is read or copied."""

    def __init__(self, app: ASGIApp, docs_policy: bytes) -> None:
        self.app = app
        common = [
            (b"x-content-type-options", b"nosniff"),  # a JSON answer or an upload is never run as a script
            (b"x-frame-options", b"DENY"),  # frame-ancestors 'none' for browsers older than CSP 2
            # Same-origin requests keep their Origin header, which SameOrigin checks; other sites learn nothing
            # of the page (its address holds a challenge's or a table's code).
            (b"referrer-policy", b"same-origin"),
        ]
        self.page = [(b"content-security-policy", PAGE_POLICY.encode()), *common]
        self.docs = [(b"content-security-policy", docs_policy), *common]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = self.docs if scope["path"] == DOCS_PATH else self.page

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # A new list: a response object the app keeps and sends again must not gather copies.
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _origin(scheme: bytes, host: bytes) -> bytes:
    """An origin as one text, in lower case and without its scheme's default port (browsers leave it out)."""
    scheme, host = scheme.lower(), host.lower()
    return scheme + b"://" + host.removesuffix(_DEFAULT_PORTS.get(scheme, b""))


def _own_origin(scope: Scope) -> bytes | None:
    """This server's origin as the browser sees it: the scheme (X-Forwarded-Proto through a trusted proxy, set
    by uvicorn) and the Host header (a proxy passes it on)."""
    host = header(scope, b"host")
    if host is None:
        return None
    scheme = str(scope["scheme"])
    return _origin({"ws": "http", "wss": "https"}.get(scheme, scheme).encode(), host)


def _claimed_origin(value: bytes) -> bytes:
    """The Origin header's origin, in the same form as :func:`_own_origin` (``null`` stays itself)."""
    scheme, found, host = value.partition(b"://")
    return _origin(scheme, host) if found else value


class SameOrigin:
    """403 for a state-changing request (POST, PUT, PATCH, DELETE, a WebSocket) that a page of another site
    sent: ``Sec-Fetch-Site: cross-site``, or an ``Origin`` that is not this server's. Requests without them
    (curl, the CLI, scripts) are not a browser acting for a player and go through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" or (scope["type"] == "http" and scope["method"] not in _SAFE_METHODS):
            said = self._foreign(scope)
            if said is not None:
                key, values = said
                await refuse(scope, receive, send, 403, said_body("cross-origin", key, **values))
                return
        await self.app(scope, receive, send)

    @staticmethod
    def _foreign(scope: Scope) -> tuple[str, dict[str, str]] | None:
        """Why the request comes from another site's page (the catalogue's key and values), or None."""
        if header(scope, b"sec-fetch-site") == b"cross-site":
            return "error.cross_site", {}
        origin = header(scope, b"origin")
        if origin is not None and _claimed_origin(origin) != _own_origin(scope):
            return "error.cross_origin", {"origin": origin.decode("latin-1")[:100]}
        return None
