"""What the middlewares and the routes read from an ASGI request, read once and cheaply: they run at every
request, where building a dict of the headers or parsing the cookies again showed in the profile."""

from __future__ import annotations

from starlette.requests import cookie_parser
from starlette.types import Message, Receive, Scope

from hotdice.web.services import players

__all__ = ["act_as", "body_again", "device_cookie", "header", "raw_device_cookie", "set_device_cookie"]

_DEVICE = "device_cookie"  # where device_cookie keeps the request's token in its state
COOKIE_AGE = 10 * 365 * 24 * 3600


def header(scope: Scope, name: bytes) -> bytes | None:
    """The value of the request's header ``name`` (lower case, as ASGI servers give them), without building a
    dict of all the headers at every request."""
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value)
    return None


def raw_device_cookie(scope: Scope) -> str | None:
    """The request's device cookie as it came, signed or not."""
    raw = header(scope, b"cookie")
    return None if raw is None else cookie_parser(raw.decode("latin-1")).get(players.COOKIE)


def device_cookie(scope: Scope) -> str | None:
    """The device token of the request's cookie if this server signed it (the app's :class:`players.Devices`);
    checked once a request (the rate limits, the device middleware and the routes all ask)."""
    state = scope.setdefault("state", {})
    if _DEVICE not in state:
        devices: players.Devices = scope["app"].state.devices
        state[_DEVICE] = devices.token(raw_device_cookie(scope))
    found: str | None = state[_DEVICE]
    return found


def set_device_cookie(scope: Scope, token: str) -> str:
    """The Set-Cookie header's value that gives the browser the device ``token``, signed: HttpOnly (no script
    reads it), SameSite=Lax, Secure over HTTPS, for ten years."""
    devices: players.Devices = scope["app"].state.devices
    cookie = f"{players.COOKIE}={devices.cookie(token)}; Max-Age={COOKIE_AGE}; Path=/; HttpOnly; SameSite=Lax"
    return cookie + "; Secure" if scope.get("scheme") == "https" else cookie


def act_as(scope: Scope, token: str) -> None:
    """The request comes from the device ``token`` (a bot's token, checked): every later reader takes it as the
    request's device, as it would a signed cookie's."""
    scope.setdefault("state", {})[_DEVICE] = token


def body_again(body: bytes, receive: Receive) -> Receive:
    """``receive`` for the app after a middleware has read the whole body: the body again, then whatever comes
    next (the client leaving)."""
    given = False

    async def again() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return again
