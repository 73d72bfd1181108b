"""The SQL projection of the match log (ARCHITECTURE rule 6): persistence is the one writer.

`project` writes a batch of log entries in one transaction: each match row is locked once, its
entries are applied in sequence order, and the row is updated once (version, status, clock, next
deadline, outcome, `log_seq`). It is idempotent: an entry at or below the row's `log_seq` is
already projected and skipped, so a redelivered batch changes nothing. A gap (an entry whose
version does not follow the row's) raises `ProjectionGap`, a retryable error: the missing entry
comes first on the next delivery.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Literal

import msgspec

from gamehall.store.core import StoreCore
from gamehall.store.deadlines import next_deadline_ms
from gamehall.store.dialect import Dialect
from gamehall.store.errors import NotFound, StoreError
from gamehall.store.matches import seats_of
from gamehall.store.outbox import write_outbox
from gamehall.store.ratings import Finish, Rater, rate_finishes
from gamehall.store.records import CLOSED_STATUSES, OutboxMessage, Seat
from gamehall.store.seats import record_leaves
from gamehall.store.tournaments import record_results
from gamehall.store.transaction import Row, Tx


class LogRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One match log entry as the projection reads it (`seq` is its JetStream stream sequence)."""

    match_id: str
    seq: int
    version: int
    kind: Literal["action", "close"]
    status: str
    created_at: datetime
    seat: int = 0
    action: str = ""
    """The logged action's canonical JSON text (actions only)."""
    request_id: str = ""
    state_digest: bytes = b""
    clock_state: str | None = None
    outcome: str | None = None
    snapshot: bytes | None = None


class ProjectionGap(StoreError):
    """A log entry arrived before the one it follows (retry: the earlier entry will be delivered first)."""


class ProjectionConflict(StoreError):
    """A log entry contradicts its match row (e.g. an action for a closed match): it can never be projected."""


class Projected(msgspec.Struct, frozen=True, kw_only=True):
    """What a batch did: entries written, entries already there, and per match the newest sequence
    projected, its status, and the sequence of the newest snapshot written (for purging the log)."""

    written: int
    skipped: int
    heads: dict[str, tuple[int, str]]
    snapshot_seqs: dict[str, int]
    rated: tuple[tuple[str, str], ...] = ()
    """The (game, mode) of each match the batch rated."""


class Settled(msgspec.Struct, frozen=True, kw_only=True):
    """What the transaction projecting a match's finish did beside it: the match's seats (its finished event
    carries them), the tournament whose inbox got the outcome ("" for none), and whether it settled the ratings
    (rated the match, or found that it rates nobody)."""

    seats: tuple[Seat, ...] = ()
    tournament_id: str = ""
    ratings_settled: bool = False
    rated: bool = False


OutboxFor = Callable[[LogRecord, Row, Settled], Sequence[OutboxMessage]]
"""The events to publish, in the same transaction, when an entry closes its match (given the entry, the row
and what was settled with it)."""


class ProjectionOps(StoreCore):
    async def project(
        self, records: Sequence[LogRecord], outbox_for: OutboxFor | None = None, rater: Rater | None = None
    ) -> Projected:
        """Write a batch of log entries into matches, the action history and snapshots, in one transaction of
        a few statements whatever the batch's size (the rows are read and written with one statement each).
        With a `rater`, each finish rates its match in the same transaction (ARCHITECTURE rule 6)."""
        by_match: dict[str, list[LogRecord]] = {}
        for record in records:
            by_match.setdefault(record.match_id, []).append(record)
        if not by_match:
            return Projected(written=0, skipped=0, heads={}, snapshot_seqs={})
        written = 0
        heads: dict[str, tuple[int, str]] = {}
        snapshot_seqs: dict[str, int] = {}
        actions: list[tuple[Any, ...]] = []
        updates: list[tuple[Any, ...]] = []
        rated: list[tuple[str, str]] = []
        snapshots: list[tuple[str, int, bytes, datetime]] = []
        trims: list[tuple[str, int]] = []
        closing: list[tuple[LogRecord, Row]] = []
        async with self._write() as tx:
            now = self._now()
            ids = list(by_match)
            rows = await tx.fetch(
                "SELECT id, game, mode, status, version, clock, clock_state, outcome, seed, log_seq FROM matches "
                f"WHERE id IN ({self._placeholders(ids)}) ORDER BY id{self.dialect.for_update}",
                *ids,
            )
            found = {r["id"]: r for r in rows}
            for match_id, entries in by_match.items():
                row = found.get(match_id)
                if row is None:
                    raise ProjectionConflict(f"a log entry for a match that does not exist: {match_id}")
                plan = _plan(row, sorted(entries, key=lambda e: e.seq))
                if plan is None:
                    heads[match_id] = (int(row["log_seq"]), str(row["status"]))
                    continue
                written += plan.done
                actions += plan.actions
                updates.append(plan.update(match_id, row))
                heads[match_id] = (plan.log_seq, plan.status)
                snapshots += [(match_id, version, state, now) for version, state, _ in plan.snapshots]
                if plan.snapshots:
                    snapshot_seqs[match_id] = plan.snapshots[-1][2]
                    if plan.closed:  # a finished match keeps its final state only
                        trims.append((match_id, plan.snapshots[-1][0]))
                closing += [(entry, row) for entry in plan.closing]
            if snapshots:
                await tx.executemany(
                    "INSERT INTO snapshots (match_id, version, state, created_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (match_id, version) DO UPDATE SET state = excluded.state",
                    snapshots,
                )
            if trims:
                await tx.executemany("DELETE FROM snapshots WHERE match_id = ? AND version < ?", trims)
            events: list[OutboxMessage] = []
            settled_all = await _settle(tx, self.dialect, closing, now, rater)
            for (entry, row), settled in zip(closing, settled_all, strict=True):
                if settled.rated:
                    rated.append((str(row["game"]), str(row["mode"] or "")))
                if outbox_for is not None:
                    events += outbox_for(entry, row, settled)
            await write_outbox(tx, events, now)
            await record_leaves(tx, [(e.match_id, e.seat, e.request_id) for e, _ in closing], now)
            if actions:
                await tx.executemany(
                    "INSERT INTO action_log (match_id, version, seat, action, request_id, state_digest, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    actions,
                )
            if updates:
                await tx.executemany(
                    "UPDATE matches SET version = ?, status = ?, clock_state = ?, outcome = ?, next_deadline_ms = ?, "
                    "log_seq = ?, finished_at = COALESCE(?, finished_at) WHERE id = ?",
                    updates,
                )
        return Projected(
            written=written,
            skipped=len(records) - written,
            heads=heads,
            snapshot_seqs=snapshot_seqs,
            rated=tuple(rated),
        )

    async def log_head(self, match_id: str) -> int:
        """The sequence of the newest log entry projected into the match (0: none)."""
        async with self._read() as tx:
            row = await tx.fetchrow("SELECT log_seq FROM matches WHERE id = ?", match_id)
        if row is None:
            raise NotFound(f"no match {match_id}")
        return int(row["log_seq"])

    async def request_keys(self, match_id: str) -> list[tuple[int, str]]:
        """Every (seat, request id) logged for the match, in log order (a replica taking it over keeps them for
        idempotency: request ids are scoped per seat)."""
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT seat, request_id FROM action_log WHERE match_id = ? ORDER BY version", match_id
            )
        return [(int(r["seat"]), str(r["request_id"])) for r in rows]


async def _settle(
    tx: Tx, dialect: Dialect, closing: Sequence[tuple[LogRecord, Row]], now: datetime, rater: Rater | None
) -> list[Settled]:
    """What each closing entry of a batch settles, in the transaction that projects it, with a few statements
    however many finish together: a finished match's outcome goes to its tournament's inbox, and its ratings are
    updated (in log order, so a player's finishes chain), so a tournament hears of every result, and a rating
    moves for it, exactly once with no call between. An aborted match settles nothing."""
    finishes = [(entry, row) for entry, row in closing if entry.status == "finished" and entry.outcome]
    if not finishes:
        return [Settled() for _ in closing]
    seats = await seats_of(tx, [entry.match_id for entry, _ in finishes])
    outcomes = {entry.match_id: msgspec.json.decode(entry.outcome or "{}") for entry, _ in finishes}
    ranks = {m: tuple(int(r) for r in outcome.get("ranks", [])) for m, outcome in outcomes.items()}
    tournaments = await record_results(
        tx, [(m, ranks[m], str(outcome.get("reason", ""))) for m, outcome in outcomes.items()], now
    )
    rated: dict[str, bool] = {}
    if rater is not None:
        batch = [
            Finish(
                match_id=entry.match_id,
                game=str(row["game"]),
                mode=str(row["mode"] or ""),
                seats=seats.get(entry.match_id, ()),
                ranks=ranks[entry.match_id],
            )
            for entry, row in finishes
        ]
        rated = dict(zip(outcomes, await rate_finishes(tx, dialect, rater, batch, now), strict=True))
    return [
        Settled(
            seats=seats.get(entry.match_id, ()),
            tournament_id=tournaments.get(entry.match_id, ""),
            ratings_settled=rater is not None,
            rated=rated.get(entry.match_id, False),
        )
        if entry.match_id in outcomes
        else Settled()
        for entry, _ in closing
    ]


class _Plan:
    """What one match's entries of a batch change (worked out before anything is written)."""

    def __init__(self, row: Row) -> None:
        self.version, self.status, self.log_seq = int(row["version"]), str(row["status"]), int(row["log_seq"])
        self.clock_state: Any = row["clock_state"]
        self.outcome: Any = row["outcome"]
        self.finished_at: datetime | None = None
        self.actions: list[tuple[Any, ...]] = []
        self.snapshots: list[tuple[int, bytes, int]] = []
        self.closing: list[LogRecord] = []
        self.done = 0

    @property
    def closed(self) -> bool:
        return self.status in CLOSED_STATUSES

    def update(self, match_id: str, row: Row) -> tuple[Any, ...]:
        deadline = None if self.closed else next_deadline_ms(row["clock"], self.clock_state)
        return (
            self.version,
            self.status,
            self.clock_state,
            self.outcome,
            deadline,
            self.log_seq,
            self.finished_at,
            match_id,
        )


def _plan(row: Row, entries: list[LogRecord]) -> _Plan | None:
    """Apply `entries` (in sequence order) to the match row in memory; None when all were projected before."""
    plan = _Plan(row)
    match_id = row["id"]
    for entry in entries:
        if entry.seq <= plan.log_seq:
            continue  # projected by an earlier delivery
        if plan.closed:
            raise ProjectionConflict(f"match {match_id} is {plan.status}; log entry {entry.seq} follows its end")
        if entry.kind == "action":
            if entry.version != plan.version + 1:
                raise ProjectionGap(
                    f"match {match_id} is at version {plan.version}; log entry {entry.seq} is version {entry.version}"
                )
            plan.version = entry.version
            plan.actions.append(
                (
                    match_id,
                    entry.version,
                    entry.seat,
                    entry.action,
                    entry.request_id,
                    entry.state_digest,
                    entry.created_at,
                )
            )
            if entry.snapshot:
                plan.snapshots.append((entry.version, entry.snapshot, entry.seq))
            if entry.clock_state is not None:
                plan.clock_state = entry.clock_state
        elif entry.version != plan.version:
            raise ProjectionGap(f"match {match_id} is at version {plan.version}; its close entry is at {entry.version}")
        if entry.status != plan.status:
            plan.status = entry.status
            if plan.closed:
                plan.outcome = entry.outcome if entry.outcome is not None else plan.outcome
                plan.finished_at = entry.created_at
                plan.closing.append(entry)
        plan.log_seq = entry.seq
        plan.done += 1
    return plan if plan.done else None
