"""Named errors of the match domain; `gamehall.runtime.errors` maps each to one gRPC status and reason.

`MatchError`s are judgements about the match (a timer that meets one finds its deadline stale); the others say a
request cannot be served as asked, or not now (`Unavailable`), and the owner's timers retry or drop on them."""

from __future__ import annotations


class MatchError(Exception):
    """Base of the match library's deliberate errors; `str(exc)` is safe to show the caller."""


class NoSuchSeat(MatchError, ValueError):
    """A seat number the match does not have."""


class NotSeated(MatchError, PermissionError):
    """The caller holds no seat (or not the one named) in the match."""


class PrivateMatch(MatchError, PermissionError):
    """A private match seen by someone who is not one of its seats, its creator or an operator."""


class MatchNotRunning(MatchError):
    """A move in a match that is over (or, as MatchNotStarted, has not started)."""

    def __init__(self, match_id: str, status: str) -> None:
        why = "it waits for its seats to fill" if status == "open" else f"it is {status}"
        super().__init__(f"match {match_id} is not running: {why}")
        self.status = status

    @classmethod
    def of(cls, match_id: str, status: str) -> MatchNotRunning:
        return MatchNotStarted(match_id, status) if status == "open" else cls(match_id, status)


class MatchNotStarted(MatchNotRunning):
    """A move in a match whose seats are not all taken yet."""


class VersionConflict(MatchError):
    """The match is not at the version the caller expected (another move landed first)."""

    def __init__(self, match_id: str, expected: int, actual: int) -> None:
        super().__init__(f"match {match_id} is at version {actual}, not the expected {expected}")
        self.expected = expected
        self.actual = actual


class NoOpenSeat(MatchError):
    """A join finds no seat it may take (every seat is held, or the match is no longer open)."""


class InvalidClock(MatchError, ValueError):
    """A clock specification out of bounds (over 7 days, an increment without a bank)."""


class NotOpen(MatchError):
    """A join of a match that is running or over: no seat to take."""


class KeptChanging(MatchError):
    """The match moved under every attempt of a step (each lost the log's compare-and-swap): retry the request."""


class StoreRefused(MatchError):
    """The store refused a lobby write because the match changed meanwhile (a seat taken, a start, a close)."""


class BadRequest(ValueError):
    """A request the owner cannot serve as asked (no match id, another game's match, a close to a bad status)."""


class NoSuchMatch(LookupError):
    """The store knows no such match."""


class AlreadyUsed(Exception):
    """A request id (or a derived match id) already names another match's step."""


class NotYet(ValueError):
    """A read of a version the match has not reached."""


class Unavailable(Exception):
    """The log or the store is away, or has not caught up yet: retry shortly (with the same request id)."""


class LogConflict(Exception):
    """The match's log moved past the expected entry (another replica appended, or this copy is stale)."""


class LogUnavailable(Exception):
    """The log refused the request or did not answer in time: an append may or may not have landed (reload to
    find out). The owner reports it as `Unavailable`."""


__all__ = [
    "AlreadyUsed",
    "BadRequest",
    "InvalidClock",
    "KeptChanging",
    "LogConflict",
    "LogUnavailable",
    "MatchError",
    "MatchNotRunning",
    "MatchNotStarted",
    "NoOpenSeat",
    "NoSuchMatch",
    "NoSuchSeat",
    "NotOpen",
    "NotSeated",
    "NotYet",
    "PrivateMatch",
    "StoreRefused",
    "Unavailable",
    "VersionConflict",
]
