"""Named errors of the tournament library; every refused transition raises one (never an assert)."""

from __future__ import annotations


class TournamentError(Exception):
    """Base of every error the tournament library raises on purpose; `str(exc)` is safe to show."""

    grpc_status = "FAILED_PRECONDITION"


class InvalidConfig(TournamentError, ValueError):
    """A tournament configuration that cannot run (unknown format, bad seat count, bad window)."""

    grpc_status = "INVALID_ARGUMENT"


class IllegalTransition(TournamentError):
    """The operation is not allowed in the tournament's current status or round."""


class RegistrationClosed(IllegalTransition):
    """Registration is not open (outside the window, or the tournament has started)."""


class TournamentFull(IllegalTransition):
    """The tournament already has its maximum number of players."""


class AlreadyRegistered(TournamentError):
    """The player is already registered."""

    grpc_status = "ALREADY_EXISTS"


class NotRegistered(TournamentError, LookupError):
    """The player is not registered (or not a participant) in this tournament."""

    grpc_status = "NOT_FOUND"


class TooFewPlayers(IllegalTransition):
    """Not enough (checked-in) players to start this format."""


class RoundNotComplete(IllegalTransition):
    """The current round still has pairings without a result."""


class UnknownPairing(TournamentError, LookupError):
    """No pairing with that id in the round it must belong to."""

    grpc_status = "NOT_FOUND"


class ResultAlreadyRecorded(IllegalTransition):
    """The pairing has a result; only an operator adjudication may change it."""


class InvalidResult(TournamentError, ValueError):
    """Ranks that do not fit the pairing (wrong count, bad values) or absent players not in it."""

    grpc_status = "INVALID_ARGUMENT"
