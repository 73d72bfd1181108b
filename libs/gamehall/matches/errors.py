"""Named errors of the match domain; `gamehall.runtime.errors` maps each to one gRPC status and reason."""

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


__all__ = [
    "InvalidClock",
    "MatchError",
    "MatchNotRunning",
    "MatchNotStarted",
    "NoOpenSeat",
    "NoSuchSeat",
    "NotSeated",
    "PrivateMatch",
    "VersionConflict",
]
