"""Opaque keyset-pagination cursors for `list_matches` (newest first, ties broken by id)."""

from __future__ import annotations

import base64
from datetime import datetime

import msgspec

from gamehall.store.errors import InvalidArgument


class _Position(msgspec.Struct, array_like=True, frozen=True):
    created_at: datetime
    match_id: str


def encode_cursor(created_at: datetime, match_id: str) -> str:
    """A URL-safe token naming the last match of a page."""
    raw = msgspec.json.encode(_Position(created_at, match_id))
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """The (created_at, id) a cursor names; InvalidArgument if it was not made by `encode_cursor`."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        position = msgspec.json.decode(raw, type=_Position)
    except (ValueError, msgspec.DecodeError) as exc:
        raise InvalidArgument(f"not a valid page cursor: {cursor!r}") from exc
    if position.created_at.tzinfo is None:
        raise InvalidArgument(f"not a valid page cursor: {cursor!r}")
    return position.created_at, position.match_id
