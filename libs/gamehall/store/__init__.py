"""Persistence library: the one writer of durable state (ARCHITECTURE.md rule 6).

Usage::

    store = await open_store("sqlite:///var/lib/gamehall/gamehall.db")  # or postgresql://...
    match = await store.create_match(game="high-card", config=config.to_json())
    await store.claim_seat(match.id, 0, account.id)  # ... until full, then
    await store.start_match(match.id)
    projected = await store.project(log_records)  # the match log's entries: actions, finishes, aborts
"""

from gamehall.store.dsn import open_store
from gamehall.store.errors import (
    AlreadyExists,
    AlreadySeated,
    InvalidArgument,
    MatchClosed,
    NotFound,
    SeatTaken,
    StoreError,
    Unavailable,
    VersionConflict,
)
from gamehall.store.ratings import PlayerRating, RatingConflict, RatingUpdate
from gamehall.store.records import (
    Account,
    ActionRecord,
    Match,
    MatchHead,
    MatchPage,
    MatchStatus,
    NewSeat,
    OutboxMessage,
    OutboxRow,
    Seat,
    SeatKind,
    Snapshot,
    StartPlan,
    seed_commitment,
)
from gamehall.store.store import Store
from gamehall.store.tickets import AlreadyQueued, NewPending, NewTicket, PendingMatch, QueueTicket, TicketNotOpen
from gamehall.store.tournaments import (
    NewTournament,
    RevisionConflict,
    TournamentMatch,
    TournamentResult,
    TournamentRow,
)

__all__ = [
    "Account",
    "ActionRecord",
    "AlreadyExists",
    "AlreadyQueued",
    "AlreadySeated",
    "InvalidArgument",
    "Match",
    "MatchClosed",
    "MatchHead",
    "MatchPage",
    "MatchStatus",
    "NewPending",
    "NewSeat",
    "NewTicket",
    "NewTournament",
    "NotFound",
    "OutboxMessage",
    "OutboxRow",
    "PendingMatch",
    "PlayerRating",
    "QueueTicket",
    "RatingConflict",
    "RatingUpdate",
    "RevisionConflict",
    "Seat",
    "SeatKind",
    "SeatTaken",
    "Snapshot",
    "StartPlan",
    "Store",
    "StoreError",
    "TicketNotOpen",
    "TournamentMatch",
    "TournamentResult",
    "TournamentRow",
    "Unavailable",
    "VersionConflict",
    "open_store",
    "seed_commitment",
]
