"""Invariants of the stored matches after a soak run, read straight from the SQLite file or PostgreSQL.

For every match: its action log holds versions exactly 1..n (no gap, no duplicate), `matches.version`
equals the last logged version, a finished match has an outcome, and its request ids are distinct
(no action applied twice). Every match a client created is stored, and every match a client saw
finish is `finished`. Liveness (`check_liveness`): no match left `open` with every seat taken, and no
running match without a step within its policy. A sample of finished matches is also re-run by
`gamehall verify`'s audit.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import asyncpg

from gamehall.store.audit import AuditError, audit


@dataclass
class CheckReport:
    """How many invariant checks passed and failed, over how many stored matches, and what failed."""

    matches_checked: int = 0
    passed: int = 0
    failed: int = 0
    audited: int = 0
    checked_ids: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    def record(self, ok: bool, problem: str) -> None:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            self.problems.append(problem)


@dataclass
class StoredMatch:
    id: str
    status: str
    version: int
    outcome: str | None
    versions: list[int] = field(default_factory=list)
    request_ids: list[str] = field(default_factory=list)
    """The request id of each logged action, by version."""
    request_keys: list[tuple[int, str]] = field(default_factory=list)
    """(seat, request id) of each logged action: idempotency keys are per seat."""
    seat_kinds: list[str] = field(default_factory=list)
    created_at: datetime | None = None
    last_step_at: datetime | None = None
    """When the newest logged action was written (None before the first)."""


MATCHES_SQL = "SELECT id, status, version, outcome, created_at FROM matches"
SEATS_SQL = "SELECT match_id, kind FROM seats ORDER BY match_id, seat"
ACTIONS_SQL = "SELECT match_id, version, seat, request_id, created_at FROM action_log ORDER BY match_id, version"


def _when(value: object) -> datetime | None:
    """A stored timestamp (SQLite: ISO text; PostgreSQL: a datetime) as an aware datetime."""
    if value is None:
        return None
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _assemble(
    match_rows: Iterable[tuple[object, ...]],
    seat_rows: Iterable[tuple[object, ...]],
    action_rows: Iterable[tuple[object, ...]],
) -> dict[str, StoredMatch]:
    matches = {
        str(row[0]): StoredMatch(str(row[0]), str(row[1]), int(str(row[2])), _text(row[3]), created_at=_when(row[4]))
        for row in match_rows
    }
    for match_id, kind in seat_rows:
        if str(match_id) in matches:
            matches[str(match_id)].seat_kinds.append(str(kind))
    for match_id, version, seat, request_id, created_at in action_rows:
        stored = matches.get(str(match_id))
        if stored is None:
            stored = matches[str(match_id)] = StoredMatch(str(match_id), "<missing>", -1, None)
        stored.versions.append(int(str(version)))
        stored.request_ids.append(str(request_id))
        stored.request_keys.append((int(str(seat)), str(request_id)))
        stored.last_step_at = _when(created_at)
    return matches


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def read_sqlite(db: Path) -> dict[str, StoredMatch]:
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return _assemble(
            connection.execute(MATCHES_SQL), connection.execute(SEATS_SQL), connection.execute(ACTIONS_SQL)
        )
    finally:
        connection.close()


async def read_postgres(dsn: str) -> dict[str, StoredMatch]:
    """Every stored match of the PostgreSQL database at `dsn` (read in one repeatable-read transaction)."""
    connection = await asyncpg.connect(dsn)
    try:
        async with connection.transaction(isolation="repeatable_read", readonly=True):
            rows = [[tuple(r) for r in await connection.fetch(sql)] for sql in (MATCHES_SQL, SEATS_SQL, ACTIONS_SQL)]
    finally:
        await connection.close()
    return _assemble(*rows)


def _has_outcome(outcome: str | None) -> bool:
    return outcome is not None and outcome.strip() not in ("", "null", "{}")


def check_match(m: StoredMatch, report: CheckReport) -> None:
    """The per-match invariants of the action log and the match row."""
    n = len(m.versions)
    report.record(m.versions == list(range(1, n + 1)), f"match {m.id}: logged versions {m.versions} are not 1..{n}")
    last = m.versions[-1] if m.versions else 0
    report.record(m.version == last, f"match {m.id}: version {m.version} but last logged version {last}")
    if m.status == "finished":
        report.record(_has_outcome(m.outcome), f"match {m.id}: finished without an outcome")
    distinct = len(set(m.request_keys))
    report.record(distinct == n, f"match {m.id}: {n} actions but {distinct} distinct (seat, request id) keys")


def check_database(db: Path, seen_finished: Iterable[str] = (), created: Iterable[str] = ()) -> CheckReport:
    """Check every stored match, and the matches clients created and saw finish, against the file `db`."""
    return check_stored(read_sqlite(db), seen_finished, created)


def check_stored(
    stored: dict[str, StoredMatch], seen_finished: Iterable[str] = (), created: Iterable[str] = ()
) -> CheckReport:
    """`check_database` over matches already read (from either backend)."""
    report = CheckReport()
    for m in stored.values():
        check_match(m, report)
    report.matches_checked = len(stored)
    report.checked_ids = set(stored)
    for match_id in sorted(set(created)):
        report.record(match_id in stored, f"match {match_id}: created by a client but not stored")
    for match_id in sorted(set(seen_finished)):
        status = stored[match_id].status if match_id in stored else "<missing>"
        report.record(status == "finished", f"match {match_id}: a client saw it finish but it is stored {status}")
    return report


def check_liveness(stored: dict[str, StoredMatch], now: datetime, idle_seconds: float, report: CheckReport) -> None:
    """No match `open` with every seat taken (nothing left to wait for: it should have started), and no
    running match whose last step (or start) is more than `idle_seconds` before `now`."""
    for m in stored.values():
        if m.status == "open" and m.seat_kinds:
            taken = all(kind in ("human", "bot") for kind in m.seat_kinds)
            report.record(not taken, f"match {m.id}: every seat is taken ({', '.join(m.seat_kinds)}) but it is open")
        if m.status == "running":
            last = m.last_step_at or m.created_at
            idle = (now - last).total_seconds() if last is not None else float("inf")
            report.record(
                idle <= idle_seconds,
                f"match {m.id}: running at version {m.version}, no step for {idle:.0f}s (policy {idle_seconds:.0f}s)",
            )


def check_acknowledged(
    stored: dict[str, StoredMatch],
    acked: Iterable[tuple[str, str, int]],
    report: CheckReport,
    when: dict[str, str] | None = None,
) -> None:
    """Each action the platform acknowledged (match id, request id, version) is logged at that version, once.
    `when` labels a request id's problems (e.g. the time of its acknowledgement)."""
    for match_id, request_id, version in acked:
        m = stored.get(match_id)
        logged = m.request_ids[version - 1] if m is not None and 0 < version <= len(m.request_ids) else None
        label = f" (acknowledged at {when[request_id]})" if when and request_id in when else ""
        report.record(
            logged == request_id,
            f"match {match_id}: action {request_id} acknowledged at version {version} but the log has {logged}{label}",
        )
        count = m.request_ids.count(request_id) if m is not None else 0
        report.record(count == 1, f"match {match_id}: acknowledged action {request_id} logged {count} times")


def check_ended_or_going_on(stored: dict[str, StoredMatch], created: Iterable[str], report: CheckReport) -> None:
    """Every created match is stored and finished or running (whether it still steps is `check_liveness`'s);
    nobody aborts a soak's matches, so an aborted one ended by a policy: it was stuck."""
    for match_id in sorted(set(created)):
        status = stored[match_id].status if match_id in stored else "<missing>"
        outcome = stored[match_id].outcome if match_id in stored else None
        report.record(
            status in ("finished", "running"),
            f"match {match_id}: {status}{f' ({outcome})' if outcome else ''}, neither finished nor going on",
        )


def check_no_bot_match_aborted(stored: dict[str, StoredMatch], report: CheckReport) -> None:
    """A match whose every seat is a bot never waits for anyone: aborted (abandoned) it was stuck."""
    for m in stored.values():
        if m.status == "aborted" and m.seat_kinds and all(kind == "bot" for kind in m.seat_kinds):
            report.record(False, f"match {m.id}: bots only, yet aborted ({m.outcome})")


def finished_ids(db: Path) -> list[str]:
    return sorted(m.id for m in read_sqlite(db).values() if m.status == "finished")


async def audit_sample(dsn: str, match_ids: list[str], report: CheckReport, limit: int = 20, seed: int = 0) -> None:
    """Re-run up to `limit` of `match_ids` from their revealed seeds (the `gamehall verify` audit)."""
    sample = random.Random(seed).sample(match_ids, min(limit, len(match_ids)))
    for match_id in sample:
        try:
            result = await audit(dsn, match_id)
        except AuditError as exc:
            report.record(False, f"match {match_id}: cannot be audited: {exc}")
            continue
        report.audited += 1
        report.record(result.ok, f"match {match_id}: audit failed: {'; '.join(result.problems)}")
