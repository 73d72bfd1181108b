"""Named errors of the store; the gRPC layer maps each to a status through its `grpc_status` name.

Every error carries a human-readable reason (`str(exc)`); none of them leaves anything half-written:
the transaction that raised it is rolled back before the error reaches the caller.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base of every error the store raises on purpose (and of unexpected database failures)."""

    grpc_status = "INTERNAL"


class NotFound(StoreError):
    """No account, match, seat or snapshot with that key."""

    grpc_status = "NOT_FOUND"


class AlreadyExists(StoreError):
    """A unique key is taken: a username (case-insensitive), a match id, an outbox message id."""

    grpc_status = "ALREADY_EXISTS"


class VersionConflict(StoreError):
    """Optimistic concurrency failed: the match is not at the version the caller expected.

    `current` is the version the match is at, so the caller can reload and retry.
    """

    grpc_status = "ABORTED"

    def __init__(self, match_id: str, expected: int, current: int) -> None:
        super().__init__(f"match {match_id} is at version {current}, not the expected {expected}")
        self.match_id = match_id
        self.expected = expected
        self.current = current


class SeatTaken(StoreError):
    """The seat is held by someone else (or reserved for another account)."""

    grpc_status = "FAILED_PRECONDITION"


class AlreadySeated(StoreError):
    """The account already holds (or has reserved) another seat of the match: one account plays one seat."""

    grpc_status = "FAILED_PRECONDITION"


class MatchClosed(StoreError):
    """The match is not in a status that allows the operation (e.g. an action on a finished match)."""

    grpc_status = "FAILED_PRECONDITION"


class InvalidArgument(StoreError, ValueError):
    """The caller passed something the store cannot take (bad JSON, seat count, cursor, limit...)."""

    grpc_status = "INVALID_ARGUMENT"


class Unavailable(StoreError):
    """The database cannot be reached or stayed locked past the busy timeout; retrying may succeed.

    If this interrupts a commit, the write may or may not have landed: retry with the same request id.
    """

    grpc_status = "UNAVAILABLE"
