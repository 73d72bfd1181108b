"""append_action: compare-and-swap on the version, idempotent request ids, all-or-nothing writes."""

from __future__ import annotations

import asyncio

import pytest

from gamehall.store import (
    AlreadyExists,
    InvalidArgument,
    MatchClosed,
    MatchUpdate,
    NotFound,
    Store,
    VersionConflict,
    open_store,
)
from tests.integration.store.helpers import DUEL, append, digest, event, running_match


async def test_appends_advance_the_version(store: Store) -> None:
    match = await running_match(store)
    first = await append(store, match, 0, "r1", outbox=[event(match.id, 1)])
    second = await append(store, match, 1, "r2", outbox=[event(match.id, 2)])
    assert (first.version, first.replayed, second.version, second.replayed) == (1, False, 2, False)
    assert first.record.action == {"kind": "play", "card": 1}
    assert first.record.state_digest == digest(match.id, 0)
    assert (await store.get_match(match.id)).version == 2
    assert await store.get_actions(match.id) == [first.record, second.record]
    assert [r.msg_id for r in await store.pending_outbox()] == [f"{match.id}:1", f"{match.id}:2"]


async def test_a_stale_version_conflicts_with_the_current_one(store: Store) -> None:
    match = await running_match(store)
    await append(store, match, 0, "r1")
    for stale in (0, 2, 7):
        with pytest.raises(VersionConflict) as conflict:
            await append(store, match, stale, f"stale-{stale}")
        assert (conflict.value.expected, conflict.value.current) == (stale, 1)
    assert [a.request_id for a in await store.get_actions(match.id)] == ["r1"]


async def test_a_repeated_request_id_returns_the_first_result(store: Store) -> None:
    match = await running_match(store)
    first = await append(store, match, 0, "r1", snapshot=b"state-1", outbox=[event(match.id, 1)])
    await append(store, match, 1, "r2")
    again = await store.append_action(
        match.id, 0, 0, {"kind": "resign"}, "r1", b"other", snapshot=b"other", outbox=[event(match.id, 99)]
    )
    assert again.replayed and again.record == first.record
    later = await store.append_action(match.id, 5, 0, {"kind": "resign"}, "r2", b"x")  # stale version: still replayed
    assert later.replayed and later.version == 2
    assert [a.request_id for a in await store.get_actions(match.id)] == ["r1", "r2"]
    assert (await store.get_match(match.id)).version == 2
    assert [r.msg_id for r in await store.pending_outbox()] == [f"{match.id}:1"]
    assert (await store.latest_snapshot(match.id)).state == b"state-1"  # type: ignore[union-attr]
    assert await store.get_action_by_request(match.id, 0, "r2") == (await store.get_actions(match.id))[1]
    assert await store.get_action_by_request(match.id, 0, "r9") is None
    assert await store.get_action_by_request(match.id, 1, "r2") is None  # another seat's r2 would be its own


async def test_request_ids_are_per_match(store: Store) -> None:
    one, two = await running_match(store), await running_match(store)
    assert not (await append(store, one, 0, "same")).replayed
    assert not (await append(store, two, 0, "same")).replayed


async def test_request_ids_are_per_seat_and_a_seats_retry_returns_its_first_result(store: Store) -> None:
    """Issue 20, finding 9: an opponent reusing a player's request id makes its own move, takes nothing."""
    match = await running_match(store)
    mine = await store.append_action(match.id, 0, 0, {"kind": "play", "card": 1}, "guessable", b"d1")
    theirs = await store.append_action(match.id, 1, 1, {"kind": "play", "card": 2}, "guessable", b"d2")
    assert not mine.replayed and not theirs.replayed and (mine.version, theirs.version) == (1, 2)
    retried = await store.append_action(match.id, 1, 1, {"kind": "resign"}, "guessable", b"x")
    assert retried.replayed and retried.record == theirs.record
    assert [(a.seat, a.request_id) for a in await store.get_actions(match.id)] == [(0, "guessable"), (1, "guessable")]
    assert await store.request_keys(match.id) == [(0, "guessable"), (1, "guessable")]
    assert (await store.get_action_by_request(match.id, 1, "guessable")) == theirs.record


async def test_concurrent_appends_have_one_winner(store_dsn: str) -> None:
    stores = [await open_store(store_dsn) for _ in range(2)]
    try:
        match = await running_match(stores[0])
        results = await asyncio.gather(
            *(append(stores[i % 2], match, 0, f"racer-{i}") for i in range(6)), return_exceptions=True
        )
        winners = [r for r in results if not isinstance(r, BaseException)]
        losers = [r for r in results if isinstance(r, BaseException)]
        assert len(winners) == 1 and winners[0].version == 1
        assert len(losers) == 5 and all(isinstance(e, VersionConflict) and e.current == 1 for e in losers), losers
        log = await stores[1].get_actions(match.id)
        assert [a.request_id for a in log] == [winners[0].record.request_id]
    finally:
        for store in stores:
            await store.close()


async def test_concurrent_resubmissions_log_once(store_dsn: str) -> None:
    stores = [await open_store(store_dsn) for _ in range(2)]
    try:
        match = await running_match(stores[0])
        results = await asyncio.gather(*(append(stores[i % 2], match, 0, "retry") for i in range(4)))
        assert sorted(r.replayed for r in results) == [False, True, True, True]
        assert all(r.record == results[0].record for r in results)
        assert len(await stores[0].get_actions(match.id)) == 1
    finally:
        for store in stores:
            await store.close()


async def test_a_failing_outbox_row_rolls_everything_back(store: Store) -> None:
    match = await running_match(store)
    await store.enqueue([event(match.id, 2)])  # will collide with the second append's event
    await append(store, match, 0, "r1", snapshot=b"s1", outbox=[event(match.id, 1)])
    with pytest.raises(AlreadyExists):
        await append(
            store,
            match,
            1,
            "r2",
            snapshot=b"s2",
            outbox=[event(match.id, 2, "other-subject")],
            match_update=MatchUpdate(status="finished", outcome={"ranks": [1, 2]}, clock_state={"left": [1, 2]}),
        )
    after = await store.get_match(match.id)
    assert (after.version, after.status, after.outcome, after.clock_state, after.finished_at) == (
        1,
        "running",
        None,
        None,
        None,
    )
    assert [a.request_id for a in await store.get_actions(match.id)] == ["r1"]
    assert (await store.latest_snapshot(match.id)).version == 1  # type: ignore[union-attr]
    assert [r.msg_id for r in await store.pending_outbox()] == [f"{match.id}:2", f"{match.id}:1"]
    retried = await append(store, match, 1, "r2", outbox=[event(match.id, 3)])  # the request id was not consumed
    assert (retried.version, retried.replayed) == (2, False)


async def test_the_final_action_finishes_the_match(store: Store) -> None:
    match = await running_match(store, seed=4242)
    await append(store, match, 0, "r1", match_update=MatchUpdate(clock_state={"left": [5, 9]}))
    assert (await store.get_match(match.id)).clock_state == {"left": [5, 9]}
    result = await append(
        store, match, 1, "r2", match_update=MatchUpdate(status="finished", outcome={"ranks": [2, 1], "reason": "x"})
    )
    done = await store.get_match(match.id)
    assert (done.status, done.version, done.outcome) == ("finished", 2, {"ranks": [2, 1], "reason": "x"})
    assert done.finished_at == result.record.created_at
    assert done.revealed_seed == 4242
    with pytest.raises(MatchClosed):
        await append(store, match, 2, "r3")
    assert (await append(store, match, 9, "r2")).replayed  # a late retry of the last action still gets its answer


async def test_actions_need_a_running_match(store: Store) -> None:
    match = await store.create_match(game="high-card", config=DUEL)
    with pytest.raises(MatchClosed):
        await append(store, match, 0, "r1")
    with pytest.raises(NotFound):
        await store.append_action("nope", 0, 0, {"kind": "x"}, "r1", b"")


async def test_bad_arguments(store: Store) -> None:
    match = await running_match(store)
    with pytest.raises(InvalidArgument):
        await store.append_action(match.id, 0, 0, {"kind": "x"}, "", b"")
    with pytest.raises(InvalidArgument):
        await store.append_action(match.id, 0, 0, "[1, 2]", "r1", b"")
    with pytest.raises(InvalidArgument):
        await store.append_action(match.id, 0, 0, {"kind": "x"}, "r1", b"", match_update=MatchUpdate(status="open"))
    ok = await store.append_action(match.id, 0, 0, '{"kind": "pass"}', "r1", b"")
    assert ok.record.action == {"kind": "pass"}


async def test_get_actions_ranges(store: Store) -> None:
    match = await running_match(store)
    for v in range(5):
        await append(store, match, v, f"r{v}")
    assert [a.version for a in await store.get_actions(match.id, 2, 4)] == [2, 3, 4]
    assert [a.version for a in await store.get_actions(match.id, 4)] == [4, 5]
    assert await store.get_actions(match.id, 6) == []
    with pytest.raises(NotFound):
        await store.get_actions("nope")


async def test_snapshots(store: Store) -> None:
    match = await running_match(store)
    assert await store.latest_snapshot(match.id) is None
    await store.put_snapshot(match.id, 0, b"s0")
    for v in range(6):
        await append(store, match, v, f"r{v}", snapshot=f"s{v + 1}".encode() if (v + 1) % 3 == 0 else None)
    latest = await store.latest_snapshot(match.id)
    assert latest is not None and (latest.version, latest.state) == (6, b"s6")
    assert (await store.latest_snapshot(match.id, at_most=5)).version == 3  # type: ignore[union-attr]
    assert (await store.latest_snapshot(match.id, at_most=2)).state == b"s0"  # type: ignore[union-attr]
    with pytest.raises(InvalidArgument):
        await store.put_snapshot(match.id, 7, b"future")
    await store.put_snapshot(match.id, 3, b"s3-again")
    assert (await store.latest_snapshot(match.id, at_most=3)).state == b"s3-again"  # type: ignore[union-attr]
    assert await store.prune_snapshots(match.id, keep=1) == 2
    assert await store.latest_snapshot(match.id, at_most=5) is None
    assert (await store.latest_snapshot(match.id)).version == 6  # type: ignore[union-attr]
    with pytest.raises(NotFound):
        await store.latest_snapshot("nope")
