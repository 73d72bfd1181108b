"""The owner's I/O as ports (ARCHITECTURE rule 6): what `MatchOwner` asks of the world, and nothing more.

The owner of a match holds its flow (`gamehall.matches.owner`); its storage, transport and time come from
outside, as boardgame.io's `Master` takes its storage and transport. The rules service passes in adapters over
JetStream, persistence's gRPC API and core NATS (`services/rules`); tests pass in-memory ones
(`gamehall.matches.testing`). Each port raises the domain's errors (`gamehall.matches.errors`), never a
transport's: `LogConflict` and `LogUnavailable` from the log, `NoSuchMatch`, `StoreRefused`, `AlreadyUsed` and
`Unavailable` from the store.

The records and requests that cross the store's ports are persistence's protocol messages (`MatchRecord`,
`CreateMatchRequest`, ...): plain data, the shape the store keeps and the API answers with.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches.live import LoggedAction
from gamehall_sdk.v1 import match_pb2


@dataclass(frozen=True)
class Logged:
    """One entry of a match's log with its sequence (the next append's expected last sequence)."""

    seq: int
    entry: LogEntry


@dataclass(frozen=True)
class Loaded:
    """What the store holds of a match: its record, newest snapshot and the actions after it, the request ids it
    logged (with their seats), and the log sequence of the newest entry projected into the record."""

    record: ppb.MatchRecord
    snapshot: bytes | None = None
    snapshot_version: int = 0
    actions: list[LoggedAction] = field(default_factory=list)
    logged_requests: list[tuple[int, str]] = field(default_factory=list)
    log_seq: int = 0


class MatchLogPort(Protocol):
    """The match log: every step of a running match is an entry appended with a compare-and-swap."""

    async def last_seq(self, game: str, match_id: str) -> int:
        """The sequence of the match's newest entry (0: none, or all purged)."""
        ...

    async def tail(self, game: str, match_id: str, after_seq: int) -> list[Logged]:
        """The match's entries after `after_seq`, in order."""
        ...

    async def append(self, entry: LogEntry, expected_seq: int) -> int:
        """Append `entry` if the match's newest entry is still `expected_seq`; its sequence. Raises `LogConflict`
        (another entry got there first) or `LogUnavailable` (it may or may not have landed)."""
        ...


class StoreReader(Protocol):
    """The projection of the log (and the lobby's records) as the owner reads them."""

    async def load(self, match_id: str) -> Loaded:
        """The match as projected, with the request ids it logged; `NoSuchMatch` when the store has none."""
        ...

    async def load_before(self, match_id: str, version: int) -> Loaded:
        """The snapshot and actions up to `version` (a past version's state)."""
        ...

    async def prior_action(self, match_id: str, request_id: str, seat: int) -> LoggedAction | None:
        """The projected action the seat logged under `request_id`, if any."""
        ...

    async def actions(self, match_id: str, first: int, last: int) -> list[LoggedAction]:
        """The projected actions of versions `first`..`last` (fewer when the projection is behind)."""
        ...

    async def record(self, match_id: str) -> ppb.MatchRecord:
        """The stored record; `NoSuchMatch` when there is none."""
        ...

    async def head(self, match_id: str) -> tuple[str, int]:
        """The stored (status, version); `NoSuchMatch` when there is none."""
        ...

    async def lifecycle_request(self, account_id: str, kind: str, request_id: str) -> tuple[str, int] | None:
        """(match id, seat) of the account's recorded join or leave under `request_id` (None: no such try)."""
        ...

    async def clocked(self, game: str, after: tuple[int, str], limit: int) -> list[tuple[str, int]]:
        """(match id, next deadline unix ms) of the game's running clocked matches after `after`, earliest first."""
        ...


class LobbyStore(Protocol):
    """The lobby's writes to the store, until opening, joining and starting are log entries too (issue 37)."""

    async def create(self, request: ppb.CreateMatchRequest) -> ppb.MatchRecord:
        """Store a new match; `AlreadyUsed` when its id is taken."""
        ...

    async def claim_seat(self, request: ppb.ClaimSeatRequest) -> None:
        """Claim a seat (starting the match when the claim fills it); `StoreRefused` when it is taken."""
        ...

    async def release_seat(self, request: ppb.ReleaseSeatRequest) -> None:
        """Free an open match's seat; `StoreRefused` when the match started meanwhile."""
        ...

    async def start(self, request: ppb.StartMatchRequest) -> ppb.MatchRecord:
        """Start a full open match; `StoreRefused` when it is not open any more."""
        ...

    async def close_open(self, request: ppb.CloseMatchRequest) -> ppb.MatchRecord:
        """Close a match that never started; `StoreRefused` when it started meanwhile."""
        ...


class Store(StoreReader, LobbyStore, Protocol):
    """Both halves of the store the owner uses."""


class Publisher(Protocol):
    """Where the views of each step go (bot turns ride the log's entries, which the bots consume)."""

    def audiences(self, match_id: str) -> list[int | None] | None:
        """The audiences of the match someone watches (a seat, None for spectators); None: push to every one."""
        ...

    async def view(self, match_id: str, seat: int | None, message: match_pb2.WatchMatchResponse) -> None:
        """Push one audience's view of the match's newest step."""
        ...


Fire = Callable[[str], Awaitable[int]]
"""Act on a match whose deadline came; answers its next deadline (unix ms; 0: none)."""


class Timers(Protocol):
    """One timer per match at its next deadline (`gamehall.matches.timers.MatchTimers` in a service)."""

    def arm(self, match_id: str, at_ms: int) -> None: ...

    def cancel(self, match_id: str) -> None: ...

    def armed(self) -> list[str]: ...

    def deadline(self, match_id: str) -> int: ...

    def __contains__(self, match_id: object) -> bool: ...

    def __len__(self) -> int: ...

    def close(self) -> None: ...


class NoPublisher:
    """A publisher nobody listens to (a replica without NATS, a test that reads views by asking)."""

    def audiences(self, match_id: str) -> list[int | None] | None:
        return []

    async def view(self, match_id: str, seat: int | None, message: match_pb2.WatchMatchResponse) -> None:
        return None


__all__ = [
    "Fire",
    "Loaded",
    "LobbyStore",
    "Logged",
    "MatchLogPort",
    "NoPublisher",
    "Publisher",
    "Store",
    "StoreReader",
    "Timers",
]
