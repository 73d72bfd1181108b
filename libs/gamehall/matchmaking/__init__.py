"""Matchmaking library: OpenSkill ratings and queue matching passes."""

from gamehall.matchmaking.errors import AlreadyQueued, InvalidOutcome, InvalidTicket, MatchmakingError, UnknownTicket
from gamehall.matchmaking.queue import Queue, match_pass, wait_stats
from gamehall.matchmaking.ratings import (
    DEFAULT_RATING,
    MODEL,
    LedgerEntry,
    Rating,
    RatingChange,
    match_quality,
    ordinal,
    predict_draw,
    predict_win,
    update,
)
from gamehall.matchmaking.tickets import (
    Constraints,
    Match,
    MatchPolicy,
    MatchShape,
    Member,
    PassResult,
    Seat,
    Ticket,
)

__all__ = [
    "DEFAULT_RATING",
    "MODEL",
    "AlreadyQueued",
    "Constraints",
    "InvalidOutcome",
    "InvalidTicket",
    "LedgerEntry",
    "Match",
    "MatchPolicy",
    "MatchShape",
    "MatchmakingError",
    "Member",
    "PassResult",
    "Queue",
    "Rating",
    "RatingChange",
    "Seat",
    "Ticket",
    "UnknownTicket",
    "match_pass",
    "match_quality",
    "ordinal",
    "predict_draw",
    "predict_win",
    "update",
    "wait_stats",
]
