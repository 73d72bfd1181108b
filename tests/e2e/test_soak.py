"""The soak tool: a short run with the gateway and persistence killed mid-load stays correct, and the
invariant checker reports a gap, a (seat, request id) applied twice and a finished match without outcome."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from gamehall.bench.soak import SoakConfig, run_soak
from gamehall.bench.soak_checks import (
    CheckReport,
    check_acknowledged,
    check_database,
    check_ended_or_going_on,
    check_liveness,
    check_no_bot_match_aborted,
    read_sqlite,
)
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


def _add_seat(db: sqlite3.Connection, match_id: str, seat: int, kind: str) -> None:
    db.execute(
        "INSERT INTO seats (match_id, seat, kind, account_id, bot_difficulty) VALUES (?, ?, ?, ?, ?)",
        (match_id, seat, kind, "someone" if kind == "human" else None, "random" if kind == "bot" else None),
    )


async def test_liveness_and_acknowledged_checks_report_each_violation(tmp_path: Path) -> None:
    path = tmp_path / "gamehall.db"
    store = await open_store(f"sqlite://{path}")
    await store.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA foreign_keys = OFF")
    now = datetime(2026, 1, 1, 0, 10, tzinfo=UTC)
    _add_match(db, "full-open", "open", 0, None)  # every seat taken, never started (issue 20, finding 8)
    for seat in (0, 1):
        _add_seat(db, "full-open", seat, "bot")
    _add_match(db, "waiting", "open", 0, None)  # an open seat: waiting for a player is fine
    _add_seat(db, "waiting", 0, "bot")
    _add_seat(db, "waiting", 1, "open")
    _add_match(db, "stalled", "running", 1, None)  # last step 10 minutes before `now`
    _add_action(db, "stalled", 1, "s1")
    _add_match(db, "fresh", "running", 1, None)
    db.execute(
        "INSERT INTO action_log (match_id, version, seat, action, request_id, state_digest, created_at)"
        " VALUES ('fresh', 1, 0, '{}', 'f1', x'00', ?)",
        ((now - timedelta(seconds=5)).isoformat(),),
    )
    _add_match(db, "stuck", "aborted", 3, '{"reason": "abandoned"}')
    _add_match(db, "bots-aborted", "aborted", 2, '{"reason": "abandoned"}')  # no one to walk away: it was stuck
    for seat in (0, 1):
        _add_seat(db, "bots-aborted", seat, "bot")
    _add_match(db, "walked-away", "aborted", 1, '{"reason": "abandoned"}')  # a human seat left: the policy's job
    _add_seat(db, "walked-away", 0, "human")
    _add_seat(db, "walked-away", 1, "bot")
    db.commit()
    db.close()

    stored = read_sqlite(path)
    report = CheckReport()
    check_liveness(stored, now, 60.0, report)
    check_ended_or_going_on(stored, ["fresh", "stalled", "stuck", "ghost"], report)
    acked = [("fresh", "f1", 1), ("fresh", "lost", 2), ("stalled", "other", 1)]
    check_acknowledged(stored, acked, report)
    check_no_bot_match_aborted(stored, report)

    problems = "\n".join(report.problems)
    assert "match full-open: every seat is taken (bot, bot) but it is open" in problems
    assert "match stalled: running at version 1, no step for 600s (policy 60s)" in problems
    assert 'match stuck: aborted ({"reason": "abandoned"}), neither finished nor going on' in problems
    assert "match ghost: <missing>, neither finished nor going on" in problems
    assert "match fresh: action lost acknowledged at version 2 but the log has None" in problems
    assert "match stalled: action other acknowledged at version 1 but the log has s1" in problems
    assert 'match bots-aborted: bots only, yet aborted ({"reason": "abandoned"})' in problems
    assert "waiting" not in problems and "match fresh: running" not in problems and "walked-away" not in problems
    assert report.failed == len(report.problems) == 9  # the two acks not logged also count 0 times
