"""`Store`: the persistence interface, written once over the backend's transactions.

The persistence service is a thin gRPC shell over this class. Concrete stores are
`SqliteStore` (embedded) and `PostgresStore` (at scale); `open_store(dsn)` picks one.
"""

from __future__ import annotations

from gamehall.store.accounts import AccountOps
from gamehall.store.actions import ActionOps
from gamehall.store.matches import MatchOps
from gamehall.store.outbox import OutboxOps
from gamehall.store.projection import ProjectionOps
from gamehall.store.ratings import RatingOps
from gamehall.store.seats import SeatOps
from gamehall.store.tickets import TicketOps
from gamehall.store.tournaments import TournamentOps


class Store(
    AccountOps, MatchOps, SeatOps, ActionOps, ProjectionOps, OutboxOps, TicketOps, RatingOps, TournamentOps
):
    """Durable state of the platform: accounts, matches and seats, the action log (the match log's
    projection), snapshots, the outbox, and matchmaking's tickets, ratings and tournaments.

    Abstract: a backend implements `_read`, `_write` and `close` (see `StoreCore`). Every write
    operation is one transaction; errors are the named ones of `gamehall.store.errors`.
    """
