"""Small builders the store tests share."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from typing import Any

from gamehall.store import Account, ActionRecord, Match, OutboxMessage, Store
from gamehall.store.projection import LogRecord

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


async def log_action(
    store: Store,
    match: Match,
    version: int,
    request_id: str,
    *,
    seat: int = 0,
    action: dict[str, Any] | None = None,
    snapshot: bytes | None = None,
    status: str = "running",
    outcome: dict[str, Any] | None = None,
    clock_state: dict[str, Any] | None = None,
    seq: int | None = None,
    created_at: datetime | None = None,
    state_digest: bytes | None = None,
) -> ActionRecord:
    """Write `match`'s action at `version` the way persistence writes every action: a match log entry projected
    by `Store.project` (its log sequence is its version unless given; `status`, `outcome` and `clock_state` are
    the entry's). Returns the logged action."""
    entry = LogRecord(
        match_id=match.id,
        seq=version if seq is None else seq,
        version=version,
        kind="action",
        status=status,
        created_at=created_at or store._now(),  # the store's clock, which a test may move
        seat=seat,
        action=canonical(action if action is not None else {"kind": "play", "card": version}),
        request_id=request_id,
        state_digest=digest(match.id, version - 1) if state_digest is None else state_digest,
        clock_state=None if clock_state is None else canonical(clock_state),
        outcome=None if outcome is None else canonical(outcome),
        snapshot=snapshot,
    )
    await store.project([entry])
    (logged,) = await store.get_actions(match.id, version, version)
    return logged


def canonical(value: Any) -> str:
    """JSON text as the match log carries it (compact, keys sorted)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class Clock:
    """A store clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


def resignation(store: Store, match_id: str) -> LogRecord:
    """The match log entry that finishes a two-seat match at version 1, seat 0 first (seat 1 resigned)."""
    return LogRecord(
        match_id=match_id,
        seq=1,
        version=1,
        kind="action",
        status="finished",
        created_at=store._now(),
        action=json.dumps({"kind": "resign"}),
        request_id="r1",
        state_digest=b"d",
        outcome=json.dumps({"ranks": [1, 2], "scores": None, "reason": "resigned"}),
    )
