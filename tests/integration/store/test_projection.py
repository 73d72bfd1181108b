"""`Store.project`: the match log's batched, idempotent SQL projection (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from gamehall.store import OutboxMessage, Store
from gamehall.store.projection import LogRecord, ProjectionConflict, ProjectionGap, Settled
from gamehall.store.transaction import Row
from tests.integration.store.helpers import digest, running_match
from tests.integration.store.test_tournaments import new

WHEN = datetime(2030, 1, 1, tzinfo=UTC)


def action(match_id: str, seq: int, version: int, **kwargs: Any) -> LogRecord:
    fields: dict[str, Any] = {
        "match_id": match_id,
        "seq": seq,
        "version": version,
        "kind": "action",
        "status": "running",
        "created_at": WHEN,
        "seat": version % 2,
        "action": json.dumps({"id": f"play(card={version})", "label": "", "action": {"kind": "play"}}),
        "request_id": f"r{version}",
        "state_digest": digest(match_id, version),
    }
    fields.update(kwargs)
    return LogRecord(**fields)


def finished_event(record: LogRecord, row: Row, settled: Settled) -> list[OutboxMessage]:
    return [OutboxMessage(subject=f"done.{record.match_id}", msg_id=f"{record.match_id}:end", payload=b"x")]


async def test_a_batch_over_two_matches_is_one_write_with_each_row_updated_once(store: Store) -> None:
    a, b = await running_match(store), await running_match(store)
    batch = [action(a.id, 1, 1), action(b.id, 2, 1), action(a.id, 3, 2), action(b.id, 4, 2), action(a.id, 5, 3)]
    result = await store.project(batch)
    assert (result.written, result.skipped) == (5, 0)
    assert result.heads == {a.id: (5, "running"), b.id: (4, "running")}
    assert [x.version for x in await store.get_actions(a.id)] == [1, 2, 3]
    assert [x.request_id for x in await store.get_actions(b.id)] == ["r1", "r2"]
    assert ((await store.get_match(a.id)).version, await store.log_head(a.id)) == (3, 5)
    assert await store.request_keys(a.id) == [(1, "r1"), (0, "r2"), (1, "r3")]


async def test_a_redelivered_batch_changes_nothing(store: Store) -> None:
    match = await running_match(store)
    batch = [action(match.id, 1, 1), action(match.id, 2, 2)]
    await store.project(batch)
    again = await store.project([*batch, action(match.id, 3, 3)])
    assert (again.written, again.skipped) == (1, 2)
    assert [x.version for x in await store.get_actions(match.id)] == [1, 2, 3]


async def test_an_entry_before_the_one_it_follows_is_a_gap_and_writes_nothing(store: Store) -> None:
    match = await running_match(store)
    other = await running_match(store)
    with pytest.raises(ProjectionGap):
        await store.project([action(other.id, 1, 1), action(match.id, 3, 2)])
    assert await store.get_actions(other.id) == []  # the whole batch rolled back
    assert await store.log_head(match.id) == 0


async def test_the_end_sets_the_outcome_keeps_the_final_snapshot_and_queues_the_finished_event(store: Store) -> None:
    match = await running_match(store)
    outcome = json.dumps({"ranks": [1, 2], "scores": None, "reason": "highest total"})
    result = await store.project(
        [
            action(match.id, 1, 1, snapshot=b"state-1", clock_state='{"to_act": [1]}'),
            action(match.id, 2, 2, status="finished", outcome=outcome, snapshot=b"final"),
        ],
        finished_event,
    )
    assert result.heads[match.id] == (2, "finished")
    stored = await store.get_match(match.id)
    assert (stored.status, stored.outcome, stored.version, stored.next_deadline_ms) == (
        "finished",
        json.loads(outcome),
        2,
        None,
    )
    assert stored.finished_at is not None
    snapshot = await store.latest_snapshot(match.id)
    assert snapshot is not None and (snapshot.version, snapshot.state) == (2, b"final")
    assert await store.latest_snapshot(match.id, at_most=1) is None  # the earlier one is pruned
    assert [r.subject for r in await store.pending_outbox()] == [f"done.{match.id}"]
    with pytest.raises(ProjectionConflict):  # nothing follows an end
        await store.project([action(match.id, 3, 3)])


async def test_a_tournament_match_s_finish_puts_its_outcome_in_the_inbox_in_the_same_transaction(store: Store) -> None:
    """The finished event then carries the seats and the tournament, so matchmaking makes no call to learn them;
    a redelivered finish records nothing twice, and an aborted match settles nothing."""
    match = await running_match(store)
    plain = await running_match(store)
    await store.create_tournament(new("t1", status="running"))
    await store.link_tournament_match("t1", 1, "p1", match.id)
    outcome = json.dumps({"ranks": [2, 1], "scores": None, "reason": "all cards played"})
    settled: dict[str, Settled] = {}

    def capture(record: LogRecord, row: Row, done: Settled) -> list[OutboxMessage]:
        settled[record.match_id] = done
        return finished_event(record, row, done)

    end = action(match.id, 1, 1, status="finished", outcome=outcome)
    await store.project([end, action(plain.id, 2, 1, status="finished", outcome=outcome)], capture)
    assert settled[match.id].tournament_id == "t1"
    assert [(s.seat, s.kind) for s in settled[match.id].seats] == [(0, "open"), (1, "open")]
    assert settled[plain.id] == Settled(seats=settled[plain.id].seats, tournament_id="")
    [result] = await store.unfolded_results("t1")
    assert (result.match_id, list(result.ranks), result.reason) == (match.id, [2, 1], "all cards played")
    again = await store.project([end], capture)
    assert again.written == 0 and len(await store.unfolded_results("t1")) == 1
    aborted = await running_match(store)
    await store.link_tournament_match("t1", 1, "p2", aborted.id)
    close = LogRecord(match_id=aborted.id, seq=3, version=0, kind="close", status="aborted", created_at=WHEN)
    await store.project([close], capture)
    assert settled[aborted.id] == Settled() and len(await store.unfolded_results("t1")) == 1


async def test_a_close_entry_ends_the_match_at_its_version(store: Store) -> None:
    match = await running_match(store)
    await store.project([action(match.id, 1, 1)])
    close = LogRecord(match_id=match.id, seq=2, version=1, kind="close", status="aborted", created_at=WHEN)
    await store.project([close])
    stored = await store.get_match(match.id)
    assert (stored.status, stored.version, await store.log_head(match.id)) == ("aborted", 1, 2)
    with pytest.raises(ProjectionGap):  # a close must come at the version it closed
        other = await running_match(store)
        await store.project(
            [LogRecord(match_id=other.id, seq=9, version=4, kind="close", status="aborted", created_at=WHEN)]
        )


async def test_an_entry_for_an_unknown_match_can_never_be_projected(store: Store) -> None:
    with pytest.raises(ProjectionConflict):
        await store.project([action("no-such-match", 1, 1)])
