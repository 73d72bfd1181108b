"""The soak tool: a short run with the gateway and persistence killed mid-load stays correct, and the
invariant checker reports a gap, a (seat, request id) applied twice and a finished match without outcome."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from gamehall.bench.soak import SoakConfig, run_soak
from gamehall.bench.soak_checks import check_database
from gamehall.store import open_store

NOW = "2026-01-01T00:00:00+00:00"


def test_soak_with_gateway_and_persistence_killed() -> None:
    # faults at 6 s (gateway) and 12 s (persistence); no fault is started at or after 18 s
    report = run_soak(SoakConfig(seconds=18, tables=4, faults=True, fault_every=6))
    assert report.findings == []
    assert report.matches_finished >= 6  # enough play for the checks to mean something, on a loaded 2-core machine
    assert report.actions >= 10 * report.matches_finished
    assert [f.service for f in report.faults][:2] == ["gateway", "persistence"]
    assert all(f.ready is not None and not f.error for f in report.faults)
    assert set(report.created_ids) <= set(report.checked_ids)
    assert report.matches_checked >= len(report.created_ids) >= report.matches_finished
    assert report.checks_failed == 0 and report.checks_passed >= 3 * report.matches_checked
    assert report.audited >= min(20, report.matches_finished)


def _add_match(db: sqlite3.Connection, match_id: str, status: str, version: int, outcome: str | None) -> None:
    db.execute(
        "INSERT INTO matches (id, game, mode, config, public, status, seed, seed_commitment, version, outcome,"
        " created_at, labels) VALUES (?, 'high-card', 'duel', '{}', 0, ?, 1, 'c', ?, ?, ?, '{}')",
        (match_id, status, version, outcome, NOW),
    )


def _add_action(db: sqlite3.Connection, match_id: str, version: int, request_id: str, seat: int = 0) -> None:
    db.execute(
        "INSERT INTO action_log (match_id, version, seat, action, request_id, state_digest, created_at)"
        " VALUES (?, ?, ?, '{}', ?, x'00', ?)",
        (match_id, version, seat, request_id, NOW),
    )


async def test_checker_reports_each_violation(tmp_path: Path) -> None:
    path = tmp_path / "gamehall.db"
    store = await open_store(f"sqlite://{path}")
    await store.close()
    db = sqlite3.connect(path)
    # drop UNIQUE (match_id, seat, request_id) so that a request id applied twice can be stored at all
    db.executescript(
        "ALTER TABLE action_log RENAME TO action_log_old;"
        "CREATE TABLE action_log (match_id TEXT, version INTEGER, seat INTEGER, action TEXT,"
        " request_id TEXT, state_digest BLOB, created_at TEXT);"
        "DROP TABLE action_log_old;"
    )
    _add_match(db, "good", "finished", 2, '{"ranks": [0, 1], "reason": "score"}')
    _add_action(db, "good", 1, "r1")
    _add_action(db, "good", 2, "r2")
    _add_match(db, "shared", "running", 2, None)  # two seats may pick the same request id (issue 20, finding 9)
    _add_action(db, "shared", 1, "same", seat=0)
    _add_action(db, "shared", 2, "same", seat=1)
    _add_match(db, "gap", "running", 3, None)
    _add_action(db, "gap", 1, "r1")
    _add_action(db, "gap", 3, "r3")
    _add_match(db, "twice", "running", 2, None)
    _add_action(db, "twice", 1, "same")
    _add_action(db, "twice", 2, "same")
    _add_match(db, "no-outcome", "finished", 0, None)
    _add_match(db, "behind", "running", 1, None)
    _add_action(db, "behind", 1, "r1")
    _add_action(db, "behind", 2, "r2")
    db.commit()
    db.close()

    report = check_database(path, seen_finished=["good", "gap"], created=["good", "ghost"])

    problems = "\n".join(report.problems)
    assert "match gap: logged versions [1, 3] are not 1..2" in problems
    assert "match twice: 2 actions but 1 distinct (seat, request id) keys" in problems
    assert "match no-outcome: finished without an outcome" in problems
    assert "match behind: version 1 but last logged version 2" in problems
    assert "match gap: a client saw it finish but it is stored running" in problems
    assert "match ghost: created by a client but not stored" in problems
    assert "match good" not in problems and "match shared" not in problems
    assert report.failed == len(report.problems) == 6
    assert report.matches_checked == 6
