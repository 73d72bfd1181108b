"""Versioned schema migrations, written once in portable SQL with column-type tokens.

Each migration is a number, a name and its statements; `schema_migrations` records which ran.
They run at open, inside one transaction (PostgreSQL also takes an advisory lock, so replicas
starting together migrate once), and running them again changes nothing. Kept in Python rather
than .sql files so they ship inside the wheel. Never edit a released migration: add a new one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from gamehall.store.deadlines import next_deadline_ms
from gamehall.store.dialect import Dialect
from gamehall.store.errors import InvalidArgument, StoreError
from gamehall.store.transaction import Tx


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]
    backfill: Callable[[Tx], Awaitable[None]] | None = None
    """Python run after the statements, in the same transaction, for data SQL cannot derive portably."""


async def _backfill_deadlines(tx: Tx) -> None:
    """`next_deadline_ms` of the matches that were open or running when migration 3 ran (a one-off pass:
    afterwards every write keeps the column). A clock state the clock cannot read is left NULL, as before."""
    rows = await tx.fetch(
        "SELECT id, clock, clock_state FROM matches "
        "WHERE status IN ('open', 'running') AND clock IS NOT NULL AND clock_state IS NOT NULL"
    )
    updates: list[tuple[int, str]] = []
    for row in rows:
        try:
            deadline = next_deadline_ms(row["clock"], row["clock_state"])
        except InvalidArgument:
            deadline = None
        if deadline is not None:
            updates.append((deadline, row["id"]))
    if updates:
        await tx.executemany("UPDATE matches SET next_deadline_ms = ? WHERE id = ?", updates)


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "accounts, matches, seats, action log, snapshots, outbox",
        (
            """CREATE TABLE accounts (
                id TEXT PRIMARY KEY,
                username TEXT NOT NULL,
                username_key TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                role TEXT NOT NULL CHECK (role IN ('player', 'operator', 'bot')),
                created_at {timestamp} NOT NULL
            )""",
            """CREATE TABLE matches (
                id TEXT PRIMARY KEY,
                game TEXT NOT NULL,
                mode TEXT NOT NULL,
                config {json} NOT NULL,
                public {bool} NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'aborted')),
                seed {bigint} NOT NULL CHECK (seed >= 0),
                seed_commitment TEXT NOT NULL,
                version {bigint} NOT NULL CHECK (version >= 0),
                outcome {json},
                created_by TEXT REFERENCES accounts (id),
                created_at {timestamp} NOT NULL,
                finished_at {timestamp},
                clock {json},
                clock_state {json},
                tournament_id TEXT,
                labels {json} NOT NULL
            )""",
            "CREATE INDEX matches_by_time ON matches (created_at, id)",
            "CREATE INDEX matches_by_game ON matches (game, status, created_at)",
            "CREATE INDEX matches_by_tournament ON matches (tournament_id) WHERE tournament_id IS NOT NULL",
            """CREATE TABLE seats (
                match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                seat INTEGER NOT NULL CHECK (seat >= 0),
                kind TEXT NOT NULL CHECK (kind IN ('open', 'reserved', 'human', 'bot')),
                account_id TEXT REFERENCES accounts (id),
                bot_difficulty TEXT,
                PRIMARY KEY (match_id, seat),
                CHECK (kind <> 'open' OR account_id IS NULL),
                CHECK (kind NOT IN ('reserved', 'human') OR account_id IS NOT NULL)
            )""",
            "CREATE INDEX seats_by_account ON seats (account_id, match_id) WHERE account_id IS NOT NULL",
            """CREATE TABLE action_log (
                match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                version {bigint} NOT NULL CHECK (version >= 1),
                seat INTEGER NOT NULL,
                action {json} NOT NULL,
                request_id TEXT NOT NULL CHECK (request_id <> ''),
                state_digest {blob} NOT NULL,
                created_at {timestamp} NOT NULL,
                PRIMARY KEY (match_id, version),
                UNIQUE (match_id, request_id)
            )""",
            """CREATE TABLE snapshots (
                match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                version {bigint} NOT NULL CHECK (version >= 0),
                state {blob} NOT NULL,
                created_at {timestamp} NOT NULL,
                PRIMARY KEY (match_id, version)
            )""",
            """CREATE TABLE outbox (
                id {autoid},
                subject TEXT NOT NULL CHECK (subject <> ''),
                msg_id TEXT NOT NULL UNIQUE CHECK (msg_id <> ''),
                payload {blob} NOT NULL,
                created_at {timestamp} NOT NULL,
                published_at {timestamp}
            )""",
            "CREATE INDEX outbox_pending ON outbox (id) WHERE published_at IS NULL",
        ),
    ),
    Migration(
        2,
        "matchmaking: tickets, pending matches, ratings, tournaments",
        (
            """CREATE TABLE mm_tickets (
                id TEXT PRIMARY KEY,
                game TEXT NOT NULL,
                mode TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('queued', 'matching', 'matched', 'cancelled')),
                ticket {blob} NOT NULL,
                submitted_by TEXT NOT NULL,
                enqueued_at DOUBLE PRECISION NOT NULL,
                match_request TEXT,
                match_id TEXT,
                seats TEXT NOT NULL,
                created_at {timestamp} NOT NULL,
                closed_at {timestamp},
                CHECK ((state IN ('matched', 'cancelled')) = (closed_at IS NOT NULL))
            )""",
            "CREATE INDEX mm_tickets_queued ON mm_tickets (game, mode, enqueued_at, id) WHERE state = 'queued'",
            "CREATE INDEX mm_tickets_matching ON mm_tickets (match_request) WHERE match_request IS NOT NULL",
            """CREATE TABLE mm_ticket_accounts (
                ticket_id TEXT NOT NULL REFERENCES mm_tickets (id) ON DELETE CASCADE,
                account TEXT NOT NULL,
                is_player {bool} NOT NULL,
                open_game TEXT,
                PRIMARY KEY (ticket_id, account),
                UNIQUE (open_game, account)
            )""",
            "CREATE INDEX mm_ticket_accounts_by_account ON mm_ticket_accounts (account, ticket_id)",
            """CREATE TABLE mm_pending (
                request_id TEXT PRIMARY KEY,
                game TEXT NOT NULL,
                mode TEXT NOT NULL,
                match {blob} NOT NULL,
                claimed_at {timestamp} NOT NULL
            )""",
            "CREATE INDEX mm_pending_by_game ON mm_pending (game, claimed_at)",
            """CREATE TABLE mm_ratings (
                game TEXT NOT NULL,
                mode TEXT NOT NULL,
                account TEXT NOT NULL,
                mu DOUBLE PRECISION NOT NULL,
                sigma DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
                ordinal DOUBLE PRECISION NOT NULL,
                matches INTEGER NOT NULL CHECK (matches >= 0),
                updated_at {timestamp} NOT NULL,
                PRIMARY KEY (game, mode, account)
            )""",
            "CREATE INDEX mm_ratings_board ON mm_ratings (game, mode, ordinal DESC, account)",
            """CREATE TABLE mm_rated_matches (
                match_id TEXT PRIMARY KEY,
                game TEXT NOT NULL,
                mode TEXT NOT NULL,
                rated_at {timestamp} NOT NULL
            )""",
            """CREATE TABLE mm_tournaments (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                game TEXT NOT NULL,
                mode TEXT NOT NULL,
                format TEXT NOT NULL,
                status TEXT NOT NULL,
                revision {bigint} NOT NULL CHECK (revision >= 1),
                doc {blob} NOT NULL,
                created_by TEXT NOT NULL,
                created_at {timestamp} NOT NULL,
                updated_at {timestamp} NOT NULL
            )""",
            "CREATE INDEX mm_tournaments_by_status ON mm_tournaments (status, created_at)",
            """CREATE TABLE mm_tournament_matches (
                match_id TEXT PRIMARY KEY,
                tournament_id TEXT NOT NULL REFERENCES mm_tournaments (id) ON DELETE CASCADE,
                round INTEGER NOT NULL CHECK (round >= 1),
                pairing_id TEXT NOT NULL,
                created_at {timestamp} NOT NULL
            )""",
            "CREATE INDEX mm_tournament_matches_by_round ON mm_tournament_matches (tournament_id, round)",
            """CREATE TABLE mm_tournament_results (
                match_id TEXT PRIMARY KEY REFERENCES mm_tournament_matches (match_id) ON DELETE CASCADE,
                tournament_id TEXT NOT NULL,
                ranks TEXT NOT NULL,
                reason TEXT NOT NULL,
                recorded_at {timestamp} NOT NULL,
                folded_at {timestamp}
            )""",
            "CREATE INDEX mm_tournament_results_unfolded ON mm_tournament_results (tournament_id) "
            "WHERE folded_at IS NULL",
        ),
    ),
    Migration(
        3,
        "matches: next clock deadline, indexed for the clock sweeper",
        (
            # Unix ms of the earliest deadline among the seats to act; NULL: no clock, nobody to act, or closed.
            "ALTER TABLE matches ADD COLUMN next_deadline_ms {bigint}",
            # "Running matches whose deadline has passed, earliest first" reads a prefix of this index.
            "CREATE INDEX matches_due_clocks ON matches (next_deadline_ms, id) "
            "WHERE status = 'running' AND next_deadline_ms IS NOT NULL",
        ),
        backfill=_backfill_deadlines,
    ),
    Migration(
        4,
        "matches: the match log sequence projected so far",
        (
            # The JetStream sequence of the newest match log entry projected into this row (0: none yet):
            # a projection replay skips what it already holds, a replica taking over reads the log after it.
            "ALTER TABLE matches ADD COLUMN log_seq {bigint} NOT NULL DEFAULT 0",
        ),
    ),
    Migration(
        5,
        "audit log of operator actions",
        (
            # One row per operator action: written (outcome 'pending') before the action is forwarded, completed
            # with its outcome after, so an action that succeeded always has its row (issue 20, operator safety).
            """CREATE TABLE audit_events (
                id TEXT PRIMARY KEY,
                at {timestamp} NOT NULL,
                actor TEXT NOT NULL,
                actor_name TEXT NOT NULL,
                role TEXT NOT NULL,
                action TEXT NOT NULL,
                target TEXT NOT NULL,
                detail {json} NOT NULL,
                outcome TEXT NOT NULL CHECK (outcome <> ''),
                message TEXT NOT NULL,
                finished_at {timestamp}
            )""",
            "CREATE INDEX audit_events_by_time ON audit_events (at, id)",
            "CREATE INDEX audit_events_by_actor ON audit_events (actor, at, id)",
            "CREATE INDEX audit_events_by_action ON audit_events (action, at, id)",
        ),
    ),
    Migration(
        6,
        "retention of finished matches: compaction marker and the archive",
        (
            # kept: as projected; compacted: intermediate snapshots dropped; restored: brought back from the archive
            # (never archived again by the periodic task).
            "ALTER TABLE matches ADD COLUMN retention TEXT NOT NULL DEFAULT 'kept'",
            # "Closed matches not yet compacted or archived, oldest first" reads a prefix of this index.
            "CREATE INDEX matches_retention_due ON matches (finished_at, id) "
            "WHERE finished_at IS NOT NULL AND retention = 'kept'",
            """CREATE TABLE archived_matches (
                id TEXT PRIMARY KEY,
                game TEXT NOT NULL,
                status TEXT NOT NULL,
                finished_at {timestamp} NOT NULL,
                archived_at {timestamp} NOT NULL,
                format TEXT NOT NULL,
                raw_bytes {bigint} NOT NULL,
                data {blob} NOT NULL
            )""",
            "CREATE INDEX archived_matches_by_time ON archived_matches (finished_at, id)",
        ),
    ),
    Migration(
        7,
        "action log: request ids unique per seat, not per match",
        (
            # Idempotency keys are (seat, request id) (issue 20, finding 9): an opponent who guesses or sees a
            # player's request id can no longer take it first. Neither SQLite nor PostgreSQL changes a UNIQUE
            # constraint in place portably, so the table is rebuilt with the same columns and rows.
            """CREATE TABLE action_log_v7 (
                match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                version {bigint} NOT NULL CHECK (version >= 1),
                seat INTEGER NOT NULL,
                action {json} NOT NULL,
                request_id TEXT NOT NULL CHECK (request_id <> ''),
                state_digest {blob} NOT NULL,
                created_at {timestamp} NOT NULL,
                PRIMARY KEY (match_id, version),
                UNIQUE (match_id, seat, request_id)
            )""",
            "INSERT INTO action_log_v7 (match_id, version, seat, action, request_id, state_digest, created_at) "
            "SELECT match_id, version, seat, action, request_id, state_digest, created_at FROM action_log",
            "DROP TABLE action_log",
            "ALTER TABLE action_log_v7 RENAME TO action_log",
        ),
    ),
    Migration(
        8,
        "lifecycle requests: a join's or leave's first try by (account, request id)",
        (
            # Written in the transaction of the seat's claim or release (or of the projected forfeit that a leave
            # of a running match appended to the log), so a retried join or leave returns its first result after
            # a lost reply or a restart of the replica that served it (issue 37). A creation needs no row: its
            # match id is derived from (creator, request id).
            """CREATE TABLE lifecycle_requests (
                account_id TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('join', 'leave')),
                request_id TEXT NOT NULL CHECK (request_id <> ''),
                match_id TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                created_at {timestamp} NOT NULL,
                PRIMARY KEY (account_id, kind, request_id)
            )""",
            "CREATE INDEX lifecycle_requests_by_match ON lifecycle_requests (match_id)",
        ),
    ),
    Migration(
        9,
        "matches: running matches with a deadline, by game and deadline (issue 37)",
        (
            # A rules replica that starts, or whose peers change, reads its game's running matches with a
            # deadline in deadline order to arm their timers (`clocked_matches`): a range of this index. Nothing
            # polls "which clocks are due" any more (the clock sweeper is gone), so its index goes.
            "CREATE INDEX matches_clocked_by_game ON matches (game, next_deadline_ms, id) "
            "WHERE status = 'running' AND next_deadline_ms IS NOT NULL",
            "DROP INDEX matches_due_clocks",
        ),
    ),
)

_LEDGER = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at {timestamp} NOT NULL
)"""


def latest_version() -> int:
    return MIGRATIONS[-1].version


async def migrate(tx: Tx, dialect: Dialect, now: datetime) -> list[int]:
    """Apply the missing migrations inside `tx`; returns the versions applied (empty if up to date).

    `now` is the timestamp recorded for each applied migration.
    """
    if dialect.migration_lock:
        await tx.execute(dialect.migration_lock)
    await tx.execute(dialect.render(_LEDGER))
    applied = {int(row["version"]) for row in await tx.fetch("SELECT version FROM schema_migrations")}
    newer = sorted(v for v in applied if v > latest_version())
    if newer:
        raise StoreError(
            f"the database schema is at version {max(newer)}, newer than this code knows ({latest_version()}); "
            "upgrade gamehall before opening it"
        )
    done: list[int] = []
    for migration in MIGRATIONS:
        if migration.version in applied:
            continue
        for statement in migration.statements:
            await tx.execute(dialect.render(statement))
        if migration.backfill is not None:
            await migration.backfill(tx)
        await tx.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
            migration.version,
            migration.name,
            now,
        )
        done.append(migration.version)
    return done
