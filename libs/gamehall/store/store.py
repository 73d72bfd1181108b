"""`Store`: the persistence interface, written once over the backend's transactions.

The persistence service is a thin gRPC shell over this class. Concrete stores are
`SqliteStore` (embedded) and `PostgresStore` (at scale); `open_store(dsn)` picks one.
"""

from __future__ import annotations

from gamehall.store.accounts import AccountOps
from gamehall.store.actions import ActionOps
from gamehall.store.audit_log import AuditOps
from gamehall.store.matches import MatchOps
from gamehall.store.outbox import OutboxOps
from gamehall.store.projection import ProjectionOps
from gamehall.store.ratings import RatingOps
from gamehall.store.retention import RetentionOps
from gamehall.store.seats import SeatOps
from gamehall.store.tickets import TicketOps
from gamehall.store.tournaments import TournamentOps


class Store(
    AccountOps,
    MatchOps,
    SeatOps,
    ActionOps,
    ProjectionOps,
    OutboxOps,
    TicketOps,
    RatingOps,
    TournamentOps,
    AuditOps,
    RetentionOps,
):
    """Durable state of the platform: accounts, matches and seats, the action log (the match log's
    projection), snapshots, the outbox, matchmaking's tickets, ratings and tournaments, the operators'
    audit log and the archive of old matches.

    Abstract: a backend implements `_read`, `_write` and `close` (see `StoreCore`). Every write
    operation is one transaction; errors are the named ones of `gamehall.store.errors`.
    """
