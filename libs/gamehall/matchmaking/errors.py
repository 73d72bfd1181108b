"""Named errors of the matchmaking library; the service maps them to gRPC statuses via `grpc_status`."""

from __future__ import annotations


class MatchmakingError(Exception):
    """Base of every error the matchmaking library raises on purpose; `str(exc)` is safe to show."""

    grpc_status = "INVALID_ARGUMENT"


class InvalidTicket(MatchmakingError, ValueError):
    """A ticket that cannot be queued: no players, a party too big for the mode, a wrong game or mode."""


class AlreadyQueued(MatchmakingError):
    """A player already holds a ticket in this game's queue (one queue per game per player)."""

    grpc_status = "ALREADY_EXISTS"

    def __init__(self, player: str, ticket: str) -> None:
        super().__init__(f"player {player!r} is already queued (ticket {ticket!r})")
        self.player = player
        self.ticket = ticket


class UnknownTicket(MatchmakingError, LookupError):
    """No queued ticket has that id (already matched or cancelled)."""

    grpc_status = "NOT_FOUND"


class InvalidOutcome(MatchmakingError, ValueError):
    """Teams and ranks that do not describe a match result (empty teams, wrong rank count, a repeated player)."""
