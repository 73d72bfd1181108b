"""`next_deadline_ms` follows every write that changes a match's clock or status, and `clocked_matches` answers
"which running matches of a game have a deadline, and when" from the index, earliest first and paged, on SQLite
and PostgreSQL: what a rules replica arms its timers from when it starts or its peers change (ARCHITECTURE
rule 7)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gamehall.matches import clocks
from gamehall.matches.clocks import ClockSpec
from gamehall.store import InvalidArgument, Match, Store, open_store
from gamehall.store import migrations as store_migrations
from tests.integration.store.helpers import DUEL, log_action

T0 = 1_900_000_000_000
"""A unix-ms instant the tests build clock states around (the store's own clock plays no part)."""
PER_MOVE = ClockSpec(per_move_ms=30_000)
BANK = ClockSpec(bank_ms=60_000, increment_ms=1_000)


async def clocked_match(
    store: Store,
    spec: ClockSpec = PER_MOVE,
    *,
    since: int = T0,
    to_act: tuple[int, ...] = (0,),
    status: str = "running",
    **kwargs: Any,
) -> Match:
    state = clocks.initial(spec, 2, to_act, since)
    return await store.create_match(
        game="high-card",
        config=DUEL,
        clock=spec.to_json(),
        clock_state=state,
        status=status,  # type: ignore[arg-type]
        **kwargs,
    )


async def deadline_of(store: Store, match: Match) -> int | None:
    return (await store.get_match(match.id)).next_deadline_ms


async def test_create_sets_the_deadline_only_for_an_active_clock_with_someone_to_act(store: Store) -> None:
    per_move = await clocked_match(store)
    assert per_move.next_deadline_ms == T0 + 30_000
    assert (await store.create_match(game="high-card", config=DUEL, clock=PER_MOVE.to_json())).next_deadline_ms is None
    no_clock = await store.create_match(game="high-card", config=DUEL, clock_state=clocks.initial(PER_MOVE, 2, [0], T0))
    assert no_clock.next_deadline_ms is None
    assert (await clocked_match(store, ClockSpec())).next_deadline_ms is None  # a clock of zeros runs nothing
    assert (await clocked_match(store, to_act=())).next_deadline_ms is None
    legacy = await store.create_match(game="high-card", config=DUEL, clock={"base_ms": 9}, clock_state={"left": [9]})
    assert legacy.next_deadline_ms is None  # unknown clock shapes stay opaque and never fire


async def test_start_update_log_and_close_keep_the_deadline(store: Store) -> None:
    waiting = await store.create_match(game="high-card", config=DUEL, clock=PER_MOVE.to_json())
    started = await store.start_match(waiting.id, clock_state=clocks.initial(PER_MOVE, 2, [0], T0))
    assert started.next_deadline_ms == T0 + 30_000
    kept = await clocked_match(store, status="open", since=T0 + 5)
    assert (await store.start_match(kept.id)).next_deadline_ms == T0 + 5 + 30_000  # the state it already had

    moved = clocks.advance(PER_MOVE, started.clock_state, 2, 0, [1], T0 + 4_000)
    await store.update_clock(started.id, moved, expected_version=0)
    assert await deadline_of(store, started) == T0 + 4_000 + 30_000
    await store.update_clock(started.id, {**moved, "to_act": []})
    assert await deadline_of(store, started) is None

    after = clocks.advance(PER_MOVE, moved, 2, 1, [0], T0 + 9_000)
    await log_action(store, started, 1, "r1", clock_state=after)
    assert await deadline_of(store, started) == T0 + 9_000 + 30_000
    await log_action(store, started, 2, "r2")  # no clock change: the deadline stays
    assert await deadline_of(store, started) == T0 + 9_000 + 30_000
    again = clocks.advance(PER_MOVE, after, 2, 0, [1], T0 + 10_000)
    await log_action(store, started, 3, "r3", status="finished", outcome={"r": 1}, clock_state=again)
    done = await store.get_match(started.id)
    assert (done.status, done.next_deadline_ms, done.clock_state) == ("finished", None, again)

    aborted_by_action = await clocked_match(store)
    await log_action(store, aborted_by_action, 1, "r1", status="aborted")
    assert await deadline_of(store, aborted_by_action) is None
    finished = await clocked_match(store)
    assert (await store.finish_match(finished.id, {"ranks": [1, 2]})).next_deadline_ms is None
    aborted = await clocked_match(store, status="open")
    assert (await store.abort_match(aborted.id)).next_deadline_ms is None


async def test_a_bank_with_increment_counts_down_and_back_up(store: Store) -> None:
    match = await clocked_match(store, BANK)
    assert match.next_deadline_ms == T0 + 60_000
    state = clocks.advance(BANK, match.clock_state, 2, 0, [1], T0 + 10_000)  # seat 0 used 10 s of 60, gains 1
    await log_action(store, match, 1, "r1", clock_state=state)
    assert await deadline_of(store, match) == T0 + 10_000 + 60_000
    state = clocks.advance(BANK, state, 2, 1, [0], T0 + 30_000)  # seat 0 has 51 s left from here
    await log_action(store, match, 2, "r2", clock_state=state)
    assert state["remaining_ms"] == [51_000, 41_000]
    assert await deadline_of(store, match) == T0 + 30_000 + 51_000


async def test_simultaneous_seats_and_both_limits_take_the_earliest(store: Store) -> None:
    both = ClockSpec(per_move_ms=20_000, bank_ms=15_000)
    state = {"to_act": [0, 1], "since_ms": {"0": T0, "1": T0 - 3_000}, "remaining_ms": [15_000, 40_000]}
    match = await store.create_match(game="high-card", config=DUEL, clock=both.to_json(), clock_state=state)
    # seat 0: min(T0 + 20 s per move, T0 + 15 s bank); seat 1: min(T0 - 3 s + 20 s, T0 - 3 s + 40 s)
    assert match.next_deadline_ms == T0 + 15_000
    assert match.next_deadline_ms == min(clocks.deadline_ms(both, state, s) for s in (0, 1))


async def test_a_clock_state_the_clock_cannot_read_is_refused_and_writes_nothing(store: Store) -> None:
    match = await clocked_match(store, BANK)
    broken = {"to_act": [1], "since_ms": {"1": T0}, "remaining_ms": [60_000]}  # no bank for seat 1
    with pytest.raises(InvalidArgument, match="clock state"):
        await store.update_clock(match.id, broken)
    with pytest.raises(InvalidArgument, match="clock state"):
        await log_action(store, match, 1, "r1", clock_state=broken)
    with pytest.raises(InvalidArgument, match="clock state"):
        await store.create_match(game="high-card", config=DUEL, clock=BANK.to_json(), clock_state=broken)
    after = await store.get_match(match.id)
    assert (after.version, after.clock_state, after.next_deadline_ms) == (0, match.clock_state, T0 + 60_000)
    assert await store.get_actions(match.id) == []


async def test_clocked_matches_are_the_games_running_matches_with_a_deadline_earliest_first(store: Store) -> None:
    late = await clocked_match(store, since=T0 + 300)
    first = await clocked_match(store, since=T0 + 100)
    middle = await clocked_match(store, BANK, since=T0 + 30_200 - 60_000)  # bank: due at T0 + 30_200
    tie = [await clocked_match(store, since=T0 + 500, match_id=f"tie-{n}") for n in "ba"]
    await clocked_match(store, since=T0, status="open")  # not started: no deadline
    finished = await clocked_match(store, since=T0)
    await log_action(store, finished, 1, "r1", status="finished", outcome={"r": 1})
    closed = await clocked_match(store, since=T0)
    await store.abort_match(closed.id)
    await store.create_match(game="high-card", config=DUEL, status="running")  # no clock at all
    future = await clocked_match(store, since=T0 + 10**9)  # far in the future: listed too, last
    await store.create_match(  # another game's
        game="grimmoir", config=DUEL, status="running", clock=PER_MOVE.to_json(), clock_state=first.clock_state
    )

    everything = await store.clocked_matches("high-card")
    assert everything == [
        (first.id, T0 + 30_100),
        (middle.id, T0 + 30_200),
        (late.id, T0 + 30_300),
        ("tie-a", T0 + 30_500),
        ("tie-b", T0 + 30_500),
        (future.id, T0 + 10**9 + 30_000),
    ]
    assert {m.id for m in tie} == {"tie-a", "tie-b"}
    pages, after = [], (0, "")
    while page := await store.clocked_matches("high-card", after, limit=2):  # paged by (deadline, id)
        pages.append(page)
        after = (page[-1][1], page[-1][0])
    assert [len(p) for p in pages] == [2, 2, 2] and [m for p in pages for m in p] == everything
    assert await store.clocked_matches("high-card", (T0 + 30_500, "tie-a")) == everything[4:]
    # a move moves the match to its new deadline
    moved = clocks.advance(PER_MOVE, first.clock_state, 2, 0, [1], T0 + 30_000)
    await log_action(store, first, 1, "m1", clock_state=moved)
    assert [m for m, _ in await store.clocked_matches("high-card")][:2] == [middle.id, late.id]
    assert (first.id, T0 + 60_000) in await store.clocked_matches("high-card")


async def test_a_closed_match_is_never_listed(store: Store) -> None:
    ways = [await clocked_match(store, since=T0 - 10**6) for _ in range(3)]
    assert len(await store.clocked_matches("high-card")) == 3
    await store.finish_match(ways[0].id, {"ranks": [1, 2]})
    await log_action(store, ways[1], 1, "r1", status="finished", outcome={"r": 1})
    await store.abort_match(ways[2].id)
    assert await store.clocked_matches("high-card") == []


async def test_clocked_matches_bounds(store: Store) -> None:
    for bad in (0, -1, 501):
        with pytest.raises(InvalidArgument, match="limit"):
            await store.clocked_matches("high-card", limit=bad)
    with pytest.raises(InvalidArgument, match="deadline"):
        await store.clocked_matches("high-card", (-5, ""))
    assert await store.clocked_matches("high-card", limit=500) == []


async def test_the_clocked_query_reads_the_index(store: Store) -> None:
    await clocked_match(store)
    sql = (
        "SELECT id, next_deadline_ms FROM matches WHERE status = 'running' AND next_deadline_ms IS NOT NULL "
        "AND game = ? AND next_deadline_ms >= ? AND (next_deadline_ms > ? OR id > ?) "
        "ORDER BY next_deadline_ms, id LIMIT ?"
    )
    args = ("high-card", T0, T0, "", 10)
    async with store._read() as tx:
        if store.dialect.name == "sqlite":
            plan = " ".join(r["detail"] for r in await tx.fetch("EXPLAIN QUERY PLAN " + sql, *args))
            assert "INDEX matches_clocked_by_game" in plan
            assert "TEMP B-TREE" not in plan  # the index gives the order: no sort
        else:  # a tiny table prefers a scan: forbid it to see whether the index can answer at all
            await tx.execute("SET LOCAL enable_seqscan = off")
            plan = " ".join(r["QUERY PLAN"] for r in await tx.fetch("EXPLAIN " + sql, *args))
            assert "matches_clocked_by_game" in plan and "Sort" not in plan


async def test_the_migration_backfills_matches_that_were_live(store_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_migrations, "MIGRATIONS", store_migrations.MIGRATIONS[:2])
    old = await open_store(store_dsn)
    rows = [
        ("live", "running", PER_MOVE.to_json(), clocks.initial(PER_MOVE, 2, [1], T0)),
        ("waiting", "open", BANK.to_json(), clocks.initial(BANK, 2, [0], T0)),
        ("over", "finished", PER_MOVE.to_json(), clocks.initial(PER_MOVE, 2, [1], T0)),
        ("broken", "running", BANK.to_json(), {"to_act": [1], "since_ms": {"1": T0}, "remaining_ms": [1]}),
        ("unclocked", "running", None, None),
    ]
    try:
        assert await old.schema_version() == 2
        async with old._write() as tx:
            for match_id, status, clock, state in rows:
                await tx.execute(
                    "INSERT INTO matches (id, game, mode, config, public, status, seed, seed_commitment, version, "
                    "created_at, clock, clock_state, labels) "
                    "VALUES (?, 'high-card', 'duel', ?, ?, ?, 1, 'c', 0, ?, ?, ?, '{}')",
                    match_id,
                    '{"mode": "duel", "seats": 2}',
                    True,
                    status,
                    old._now(),
                    None if clock is None else json.dumps(clock),
                    None if state is None else json.dumps(state),
                )
    finally:
        await old.close()
    monkeypatch.undo()
    store = await open_store(store_dsn)
    try:
        assert await store.schema_version() == store_migrations.latest_version()
        deadlines = {m: (await store.get_match(m)).next_deadline_ms for m, *_ in rows}
        assert deadlines == {
            "live": T0 + 30_000,
            "waiting": T0 + 60_000,
            "over": None,
            "broken": None,
            "unclocked": None,
        }
        assert [m for m, _ in await store.clocked_matches("high-card")] == ["live"]
    finally:
        await store.close()
