"""Typed records the store reads and writes, and the inputs of its write operations.

Records are frozen msgspec Structs: cheap, typed, and convertible to JSON/protobuf by the
service layer. JSON columns come back as plain dicts. Times are timezone-aware UTC datetimes.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, Final, Literal, get_args

import msgspec

from gamehall.auth.roles import Role

MatchStatus = Literal["open", "running", "finished", "aborted"]
"""`open`: waiting for seats; `running`: actions accepted; `finished`/`aborted`: closed for good."""
MATCH_STATUSES: Final[tuple[MatchStatus, ...]] = get_args(MatchStatus)
CLOSED_STATUSES: Final[frozenset[str]] = frozenset({"finished", "aborted"})

SeatKind = Literal["open", "reserved", "human", "bot"]
"""`open`: anyone may claim; `reserved`: only `account_id` may claim; `human`/`bot`: taken."""
SEAT_KINDS: Final[tuple[SeatKind, ...]] = get_args(SeatKind)

MAX_SEED: Final = (1 << 63) - 1
"""Seeds are stored as signed 64-bit integers (BIGINT in PostgreSQL, INTEGER in SQLite)."""

JsonObject = dict[str, Any]


def seed_commitment(seed: int, match_id: str) -> str:
    """Hex sha256 of ``"<match_id>:<seed>"``: published at creation, checkable once the seed is revealed."""
    return hashlib.sha256(f"{match_id}:{seed}".encode()).hexdigest()


class Account(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    username: str
    password_hash: str
    role: Role
    created_at: datetime


class Seat(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    seat: int
    kind: SeatKind
    account_id: str | None = None
    bot_difficulty: str | None = None


class NewSeat(msgspec.Struct, frozen=True, kw_only=True):
    """How a seat starts when a match is created (default: open to anyone)."""

    kind: SeatKind = "open"
    account_id: str | None = None
    bot_difficulty: str | None = None


class MatchHead(msgspec.Struct, frozen=True):
    """A match's lifecycle status and version: what a rules replica checks before it extends its copy."""

    status: MatchStatus
    version: int


class Match(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    game: str
    mode: str
    config: JsonObject
    """The engine's MatchConfig as JSON: mode, seats, options, flags."""
    public: bool
    status: MatchStatus
    seed: int
    """Secret while the match is not closed: show clients `revealed_seed` instead."""
    seed_commitment: str
    version: int
    """How many actions have been applied."""
    outcome: JsonObject | None
    created_by: str | None
    created_at: datetime
    finished_at: datetime | None
    clock: JsonObject | None
    """Turn clock configuration (e.g. base time and increment per seat)."""
    clock_state: JsonObject | None
    """Per-seat clock state (time left, turn started at), written by whoever runs the clock."""
    tournament_id: str | None
    labels: JsonObject
    next_deadline_ms: int | None = None
    """Derived by the store from `clock` and `clock_state`: the earliest deadline (unix ms) among the seats
    to act; None without an active clock, with nobody to act, or once closed. Indexed for `clocked_matches`."""
    seats: tuple[Seat, ...] = ()

    @property
    def revealed_seed(self) -> int | None:
        """The seed once the match is finished or aborted (for verification), else None."""
        return self.seed if self.status in CLOSED_STATUSES else None

    def seat_of(self, account_id: str) -> int | None:
        """The first seat `account_id` holds in this match, or None."""
        for seat in self.seats:
            if seat.account_id == account_id and seat.kind in ("human", "bot"):
                return seat.seat
        return None


class MatchPage(msgspec.Struct, frozen=True, kw_only=True):
    """One page of `list_matches`, newest first; pass `next_cursor` back for the next page (None: no more)."""

    matches: tuple[Match, ...]
    next_cursor: str | None


class ActionRecord(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    version: int
    """The match version this action produced (the first action is version 1)."""
    seat: int
    action: JsonObject
    request_id: str
    state_digest: bytes
    """Digest of the encoded state after the action, to verify replays."""
    created_at: datetime


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    version: int
    state: bytes
    created_at: datetime


class OutboxMessage(msgspec.Struct, frozen=True, kw_only=True):
    """An event to publish after commit; `msg_id` is the JetStream dedupe id (e.g. ``<match>:<version>``)."""

    subject: str
    msg_id: str
    payload: bytes


class StartPlan(msgspec.Struct, frozen=True, kw_only=True):
    """How a match starts if a seat claim fills it: the clock state to start with (None: keep the stored
    one) and the events of the start (the first bot turns), written in the claim's transaction."""

    clock_state: JsonObject | None = None
    outbox: tuple[OutboxMessage, ...] = ()


class OutboxRow(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    subject: str
    msg_id: str
    payload: bytes
    created_at: datetime
    published_at: datetime | None
