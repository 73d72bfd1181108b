"""AIP-158 pagination: page sizes with a default and a maximum, and opaque page tokens bound to their list.

A token is `<body>.<mac>`: the body URL-safe base64 of JSON {"c": cursor, "f": digest}, where `cursor` is
where the next page starts (an offset, or a store's own cursor) and `digest` a hash of the list's name and
its filters (the caller's account among them where a list depends on the caller); the mac an HMAC-SHA256 of
the body under a server secret (`use_key`: derived from the platform's token signing key, so every replica
of every service that pages shares it). An edited, forged or truncated token fails the mac, and a token given
back with other filters, to another list or by another caller fails the digest: each is refused with
INVALID_ARGUMENT, reason INVALID_PAGE_TOKEN, naming the `page_token` field. A client never pages from an
offset of its own choosing, nor silently gets pages of another query.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc

from gamehall.runtime.errors import ClientError
from gamehall_sdk.v1 import common_pb2

T = TypeVar("T")


@dataclass(frozen=True)
class PageSpec:
    """A list's page sizes: `default` when the client gives 0, `maximum` when it asks for more."""

    default: int
    maximum: int


GAMES = PageSpec(50, 100)
MATCHES = PageSpec(50, 200)
TOURNAMENTS = PageSpec(50, 200)
PAIRINGS = PageSpec(100, 500)
LEADERBOARD = PageSpec(100, 1000)
AUDIT_EVENTS = PageSpec(50, 500)
REPLAY_STEPS = PageSpec(50, 500)
REPLAY_PAGE_BYTES = 2 * 1024 * 1024
"""A replay page also stops before its views pass this many bytes (at least one step is served): a step of a
finished match carries every seat's view, and one Tall Tale page of 50 would pass gRPC's 4 MB message limit."""


def page_size(requested: int, spec: PageSpec) -> int:
    """The page size to serve: the default for 0, at most the maximum; a negative size is refused."""
    if requested < 0:
        raise ClientError(
            grpc.StatusCode.INVALID_ARGUMENT,
            f"page_size must not be negative, not {requested}",
            common_pb2.ERROR_REASON_MALFORMED,
            field="page_size",
        )
    return min(requested or spec.default, spec.maximum)


_MAC_BYTES = 16
_key = secrets.token_bytes(32)
"""The tokens' HMAC key: random per process until `use_key` gives the platform's (tests and tools only)."""


def use_key(secret: str | bytes) -> None:
    """Sign and check page tokens with a key derived from `secret` (the services pass the token signing key,
    shared by every replica): a token made by one replica is accepted by another, and by no one else."""
    global _key
    raw = secret.encode() if isinstance(secret, str) else secret
    _key = hmac.new(raw, b"gamehall.v1 page tokens", hashlib.sha256).digest()


def _mac(body: str) -> str:
    tag = hmac.new(_key, body.encode(), hashlib.sha256).digest()[:_MAC_BYTES]
    return base64.urlsafe_b64encode(tag).decode().rstrip("=")


def _digest(list_name: str, filters: Mapping[str, Any]) -> str:
    text = json.dumps([list_name, dict(filters)], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def encode_token(cursor: str | int, list_name: str, filters: Mapping[str, Any]) -> str:
    """The opaque token of the page starting at `cursor` of `list_name` under `filters`."""
    text = json.dumps({"c": cursor, "f": _digest(list_name, filters)}, separators=(",", ":"))
    body = base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
    return f"{body}.{_mac(body)}"


def invalid_token(message: str) -> ClientError:
    return ClientError(
        grpc.StatusCode.INVALID_ARGUMENT, message, common_pb2.ERROR_REASON_INVALID_PAGE_TOKEN, field="page_token"
    )


def decode_token(token: str, list_name: str, filters: Mapping[str, Any]) -> str | int | None:
    """The cursor of `token` (None for the first page), refused unless made for this list and these filters."""
    if not token:
        return None
    body, _, mac = token.partition(".")
    if not mac or not hmac.compare_digest(mac.encode(), _mac(body).encode()):
        raise invalid_token("page_token is not a token this list made (edited, truncated or forged)")
    try:
        data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        cursor, digest = data["c"], data["f"]
    except (ValueError, binascii.Error, KeyError, TypeError) as exc:
        raise invalid_token("page_token is not a token this list made") from exc
    if digest != _digest(list_name, filters):
        raise invalid_token("page_token was made for other filters (or another list); start again without it")
    if not isinstance(cursor, str | int) or isinstance(cursor, bool):
        raise invalid_token("page_token is not a token this list made")
    return cursor


def offset_of(token: str, list_name: str, filters: Mapping[str, Any]) -> int:
    """Where the page of an offset token starts (0 for the first page)."""
    cursor = decode_token(token, list_name, filters)
    if cursor is None:
        return 0
    if not isinstance(cursor, int) or cursor < 0:
        raise invalid_token("page_token is not a token this list made")
    return cursor


def offset_page(
    items: Sequence[T], size: int, token: str, list_name: str, filters: Mapping[str, Any]
) -> tuple[list[T], str]:
    """One page of an in-memory list by offset: (the page, the next page's token or "")."""
    start = offset_of(token, list_name, filters)
    page = list(items[start : start + size])
    end = start + len(page)
    return page, encode_token(end, list_name, filters) if end < len(items) else ""
