"""Small builders the store tests share."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any

from gamehall.store import Account, Match, OutboxMessage, Store

DUEL = {"mode": "duel", "seats": 2, "options": {}, "flags": {"ties_score": False}}


async def account(store: Store, name: str = "alice", role: str = "player") -> Account:
    return await store.create_account(name, f"hash-of-{name}", role)  # type: ignore[arg-type]


async def running_match(store: Store, **kwargs: Any) -> Match:
    match = await store.create_match(game="high-card", config=DUEL, **kwargs)
    return await store.start_match(match.id)


def digest(*parts: object) -> bytes:
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).digest()


def event(match_id: str, version: int, kind: str = "action") -> OutboxMessage:
    return OutboxMessage(
        subject=f"gamehall.v1.match.{match_id}.{kind}",
        msg_id=f"{match_id}:{version}",
        payload=f"{kind}@{version}".encode(),
    )


async def append(store: Store, match: Match, expected: int, request_id: str, **kwargs: Any) -> Any:
    return await store.append_action(
        match.id, expected, 0, {"kind": "play", "card": expected + 1}, request_id, digest(match.id, expected), **kwargs
    )


class Clock:
    """A store clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now
