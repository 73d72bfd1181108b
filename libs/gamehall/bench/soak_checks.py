"""Invariants of the stored matches after a soak run, read straight from the SQLite file.

For every match: its action log holds versions exactly 1..n (no gap, no duplicate), `matches.version`
equals the last logged version, a finished match has an outcome, and its request ids are distinct
(no action applied twice). Every match a client created is stored, and every match a client saw
finish is `finished`. A sample of finished matches is also re-run by `gamehall verify`'s audit.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

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
    request_keys: list[tuple[int, str]] = field(default_factory=list)
    """(seat, request id) of each logged action: idempotency keys are per seat."""


def _read(db: Path) -> dict[str, StoredMatch]:
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        matches = {
            row[0]: StoredMatch(row[0], row[1], int(row[2]), row[3])
            for row in connection.execute("SELECT id, status, version, outcome FROM matches")
        }
        for match_id, version, seat, request_id in connection.execute(
            "SELECT match_id, version, seat, request_id FROM action_log ORDER BY match_id, version"
        ):
            stored = matches.get(match_id)
            if stored is None:
                stored = matches[match_id] = StoredMatch(match_id, "<missing>", -1, None)
            stored.versions.append(int(version))
            stored.request_keys.append((int(seat), str(request_id)))
        return matches
    finally:
        connection.close()


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
    report = CheckReport()
    stored = _read(db)
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


def finished_ids(db: Path) -> list[str]:
    return sorted(m.id for m in _read(db).values() if m.status == "finished")


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
