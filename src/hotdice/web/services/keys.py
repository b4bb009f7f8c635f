"""Keys the server makes for itself on first use and keeps in its database (:class:`WebSecret`): every server
process on that database uses the same one."""

from __future__ import annotations

import secrets

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hotdice.store.web_models import WebSecret

__all__ = ["kept_key"]


def kept_key(session: Session, name: str) -> bytes:
    """The key ``name``, made now (32 random bytes) if the database has none yet."""
    found = session.get(WebSecret, name)
    if found is None:
        try:
            with session.begin_nested():
                found = WebSecret(name=name, value=secrets.token_hex(32))
                session.add(found)
        except IntegrityError:  # another request or process made it first
            found = session.get(WebSecret, name)
            assert found is not None
    return bytes.fromhex(found.value)
