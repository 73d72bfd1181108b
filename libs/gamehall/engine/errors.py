"""Named domain errors every engine raises; the service harness maps them to gRPC statuses."""

from __future__ import annotations


class GameError(Exception):
    """Base class of every error a game engine raises on purpose."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ConfigError(GameError, ValueError):
    """The match configuration (mode, seats, options, rule flags) is not valid for the game."""


class IllegalAction(GameError, ValueError):
    """The action is not legal for that seat in that state; `reason` says why."""


class MalformedAction(IllegalAction):
    """The action does not match any of the game's action types (wrong kind, unknown fields, wrong field types)."""


class NotYourTurn(IllegalAction):
    """The seat is not among the seats that must act now."""


class MatchOver(IllegalAction):
    """The match has an outcome; no action is accepted any more."""


class UnknownSeat(GameError, LookupError):
    """The seat number is not a seat of this match (negative, or not below the seat count)."""


class DecodeError(GameError, ValueError):
    """Bytes given to `decode` are not a state of this game (or of an unsupported version)."""


class UnknownGame(GameError, LookupError):
    """No game is registered under that id."""


class MissingViewType(TypeError):
    """A game declares no `view_type`, so its views have no schema: a mistake in the game's code, refused
    when the game is registered or checked (not a domain error a client can cause)."""
