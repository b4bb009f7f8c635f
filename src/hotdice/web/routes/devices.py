"""One player on several devices: link codes (``/api/me/links``) and the device list (``/api/me/devices``)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import segno
from fastapi import APIRouter, Path, Request, Response
from pydantic import BaseModel

from hotdice.web import clock
from hotdice.web.asgi import set_device_cookie
from hotdice.web.deps import DeviceDep, SessionDep
from hotdice.web.schemas import EDGE, refusals
from hotdice.web.services import devices
from hotdice.web.services.players import forget_devices

router = APIRouter(prefix="/api/me", tags=["players"], responses=EDGE)

LinkCode = Annotated[str, Path(min_length=1, max_length=40, description="a link code, as shown or as typed")]
DeviceId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$")]


class LinkMade(BaseModel):
    """A one-time link code (``code``, shown once) valid until ``expires_at``; ``url`` opens it on another
    device (the code after ``#``: never sent to the server as part of an address), ``qr`` is that address's QR
    code, one text per row of modules ("1" dark, "0" light), quiet zone not included."""

    code: str
    expires_at: datetime
    url: str
    qr: list[str]


class LinkClaimed(BaseModel):
    """The browser is now the player named ``name`` (None: no name chosen yet), on the device ``device``."""

    name: str | None
    device: str


class DeviceOut(BaseModel):
    """One of your devices: its browser and system as its User-Agent says ("" where it does not), when it
    was first and last seen (last seen to the quarter of an hour), and ``current`` for the one asking."""

    id: str
    browser: str
    system: str
    first_seen: datetime
    last_seen: datetime
    current: bool


class DevicesOut(BaseModel):
    devices: list[DeviceOut]


@router.post("/links", status_code=201, response_model=LinkMade, responses=refusals(403))
def make_link(request: Request, session: SessionDep, token: DeviceDep) -> dict[str, Any]:
    """A one-time code that makes another browser this player: valid 10 minutes, used up by its first claim;
    429 past five codes alive at once."""
    link = devices.make_link(session, token, clock.now())
    session.commit()
    url = f"{request.base_url}link#{link.code}"
    rows = [("".join("1" if dark else "0" for dark in row)) for row in segno.make(url, error="m").matrix]
    return {"code": link.code, "expires_at": link.expires_at, "url": url, "qr": rows}


@router.post("/links/{code}/claim", response_model=LinkClaimed, responses=refusals(404, 409, 410))
def claim(code: LinkCode, request: Request, response: Response, session: SessionDep,
          token: DeviceDep) -> dict[str, Any]:
    """This browser becomes the player who made ``code`` (a new device of theirs: its cookie is in the answer);
    the device it was is signed out. 404: no such code; 410: used, expired, or its device signed out."""
    claimed = devices.claim(session, code, token, request.headers.get("user-agent", ""), clock.now())
    session.commit()
    response.headers.append("set-cookie", set_device_cookie(request.scope, claimed.token))
    return {"name": claimed.player.name or None, "device": claimed.device}


@router.get("/devices", response_model=DevicesOut)
def list_devices(request: Request, session: SessionDep, token: DeviceDep) -> dict[str, Any]:
    """Your devices not signed out: the one asking first (``current``), then the latest seen."""
    devices.seen(request.app.state.db, token, request.headers.get("user-agent", ""), clock.now())
    return {"devices": devices.devices_of(session, token)}


@router.delete("/devices/{device_id}", status_code=204, responses=refusals(404))
def sign_out(device_id: DeviceId, session: SessionDep, token: DeviceDep) -> Response:
    """Sign out one of your devices (this one too): its access ends at once (in another server process, within
    0.2 s: each checks the latest sign-out before it trusts what it remembers)."""
    devices.sign_out(session, token, device_id, clock.now())
    session.commit()
    forget_devices()
    return Response(status_code=204)
