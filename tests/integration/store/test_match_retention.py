"""Retention of closed matches (issue 20): compact keeps the history and the final state, archive moves old
matches out of the hot tables and back on demand; both leave replay and verify working, and live matches alone."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gamehall.store import NotFound, Store
from gamehall.store.audit import audit_in
from gamehall_services.persistence.retention import MatchRetention
from tests.integration.store.helpers import Clock
from tests.integration.store.played import aborted_match, played_match

GAME = "grimslingers"
LONG_GAME = "grimmoir"
"""Its matches last long enough (over 100 moves) to be aborted with several snapshots."""
MONTH = timedelta(days=30)


async def _stored_bytes(store: Store, match_id: str) -> tuple[int, int, int]:
    """(actions, bytes of the action rows, bytes of the snapshots) of one match."""
    async with store._read() as tx:
        actions = await tx.fetchrow(
            "SELECT COUNT(*) AS n, SUM(LENGTH(CAST(action AS TEXT)) + LENGTH(request_id) + LENGTH(state_digest)) AS b "
            "FROM action_log WHERE match_id = ?",
            match_id,
        )
        snaps = await tx.fetchrow("SELECT SUM(LENGTH(state)) AS b FROM snapshots WHERE match_id = ?", match_id)
    assert actions is not None and snaps is not None
    return int(actions["n"]), int(actions["b"] or 0), int(snaps["b"] or 0)


async def _snapshot_versions(store: Store, match_id: str) -> list[int]:
    async with store._read() as tx:
        rows = await tx.fetch("SELECT version FROM snapshots WHERE match_id = ? ORDER BY version", match_id)
    return [int(r["version"]) for r in rows]


async def test_compact_keeps_the_history_and_final_state_and_verify_still_passes(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    old = await aborted_match(store, seed=1, game_id=LONG_GAME)  # a finish keeps only its final snapshot
    live = await played_match(store, seed=3, moves=40, game_id=GAME)
    assert old.status == "aborted" and live.status == "running"
    assert len(await _snapshot_versions(store, old.id)) > 1
    clock.advance(MONTH.total_seconds() + 1)
    recent = await aborted_match(store, seed=3, game_id=LONG_GAME)
    before = await _stored_bytes(store, old.id)
    before_versions = await _snapshot_versions(store, old.id)
    live_snaps = await _snapshot_versions(store, live.id)

    retention = MatchRetention(store, "compact", MONTH, batch=1, clock=clock)
    assert await retention.run_once() == 1  # only the old finished match is due
    assert await retention.run_once() == 0  # and it is not handled twice
    assert await _snapshot_versions(store, old.id) == [max(before_versions)]
    assert await _snapshot_versions(store, live.id) == live_snaps
    assert len(await _snapshot_versions(store, recent.id)) > 1
    after = await _stored_bytes(store, old.id)
    assert after[:2] == before[:2] and after[2] < before[2]
    assert (await audit_in(store, old.id)).ok
    events = await store.list_audit_events(actor="system:retention")
    assert [e.action for e in events.events] == ["retention.compact"]


async def test_archive_moves_old_matches_out_and_restore_brings_them_back(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    old = await played_match(store, seed=1, game_id=GAME)
    live = await played_match(store, seed=3, moves=5, game_id=GAME)
    clock.advance(MONTH.total_seconds() + 1)
    retention = MatchRetention(store, "archive", MONTH, clock=clock)
    assert await retention.run_once() == 1
    with pytest.raises(NotFound):
        await store.get_match(old.id)
    assert (await store.get_match(live.id)).status == "running"
    archived = await store.get_archived_match(old.id)
    assert archived.match.seed == old.seed and len(archived.actions) == old.version
    assert [s.version for s in archived.snapshots] == [old.version]
    (info,) = await store.list_archived_matches()
    assert info.id == old.id and info.stored_bytes < info.raw_bytes

    restored = await store.restore_archived_match(old.id)
    assert restored.id == old.id
    assert (await store.get_match(old.id)).version == old.version
    assert (await audit_in(store, old.id)).ok
    with pytest.raises(NotFound):
        await store.get_archived_match(old.id)
    assert await retention.run_once() == 0  # a restored match is not archived again


async def test_keep_changes_nothing(clocked: tuple[Store, Clock]) -> None:
    store, clock = clocked
    old = await aborted_match(store, seed=1, game_id=LONG_GAME)
    clock.advance(MONTH.total_seconds() + 1)
    assert await MatchRetention(store, "keep", MONTH, clock=clock).run_once() == 0
    assert len(await _snapshot_versions(store, old.id)) > 1


async def test_the_due_query_reads_the_partial_index_not_the_matches(store: Store) -> None:
    """A round's cost follows its batch: on SQLite the plan searches `matches_retention_due` (PostgreSQL picks
    its plan by table statistics, so only SQLite's is pinned here)."""
    if store.dialect.name != "sqlite":
        pytest.skip("query plans are checked on SQLite")
    async with store._read() as tx:
        plan = await tx.fetch(
            "EXPLAIN QUERY PLAN SELECT id FROM matches WHERE finished_at IS NOT NULL AND retention = 'kept' "
            "AND finished_at < ? ORDER BY finished_at, id LIMIT ?",
            "2030-01-01T00:00:00.000000Z",
            10,
        )
    details = " ".join(str(row["detail"]) for row in plan)
    assert "matches_retention_due" in details, details
