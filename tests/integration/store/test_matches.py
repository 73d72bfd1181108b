"""Matches: atomic creation with seats, reads, filters, keyset pagination, lifecycle, clocks."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from gamehall.store import (
    AlreadyExists,
    InvalidArgument,
    MatchClosed,
    MatchHead,
    NewSeat,
    NotFound,
    Store,
    VersionConflict,
    open_store,
    seed_commitment,
)
from tests.integration.store.helpers import DUEL, account, event, log_action, running_match


async def test_create_and_get(store: Store) -> None:
    alice = await account(store)
    match = await store.create_match(
        game="high-card",
        config=DUEL,
        public=False,
        seed=12345,
        created_by=alice.id,
        seats=[NewSeat(kind="reserved", account_id=alice.id), NewSeat(kind="bot", bot_difficulty="hard")],
        clock={"base_ms": 60000, "increment_ms": 2000},
        tournament_id="cup-1",
        labels={"table": "A"},
    )
    loaded = await store.get_match(match.id)
    assert loaded == match
    assert (loaded.game, loaded.mode, loaded.status, loaded.version, loaded.public) == (
        "high-card",
        "duel",
        "open",
        0,
        False,
    )
    assert loaded.config == DUEL
    assert loaded.seed == 12345 and loaded.revealed_seed is None
    assert loaded.seed_commitment == seed_commitment(12345, match.id)
    assert [(s.seat, s.kind, s.account_id, s.bot_difficulty) for s in loaded.seats] == [
        (0, "reserved", alice.id, None),
        (1, "bot", None, "hard"),
    ]
    assert loaded.clock == {"base_ms": 60000, "increment_ms": 2000}
    assert loaded.clock_state is None and loaded.outcome is None and loaded.finished_at is None
    assert loaded.tournament_id == "cup-1" and loaded.labels == {"table": "A"}
    assert loaded.created_at.tzinfo is not None


async def test_match_heads_give_status_and_version_of_each_known_match(store: Store) -> None:
    played = await running_match(store)
    await log_action(store, played, 1, "r1")
    await log_action(store, played, 2, "r2")
    waiting = await store.create_match(game="high-card", config=DUEL)
    aborted = await running_match(store)
    await store.abort_match(aborted.id)
    heads = await store.match_heads([played.id, waiting.id, "no-such-match", aborted.id, played.id])
    assert heads == {
        played.id: MatchHead("running", 2),
        waiting.id: MatchHead("open", 0),
        aborted.id: MatchHead("aborted", 0),
    }
    assert await store.match_heads([]) == {}
    with pytest.raises(InvalidArgument):
        await store.match_heads([f"m{i}" for i in range(501)])


async def test_seed_is_drawn_when_not_given(store: Store) -> None:
    first = await store.create_match(game="high-card", config=DUEL)
    second = await store.create_match(game="high-card", config=DUEL)
    assert first.seed != second.seed
    assert 0 <= first.seed < 2**63
    assert first.seed_commitment == seed_commitment(first.seed, first.id)


async def test_bad_creations_write_nothing(store: Store) -> None:
    with pytest.raises(InvalidArgument):
        await store.create_match(game="high-card", config={"mode": "duel"})
    with pytest.raises(InvalidArgument):
        await store.create_match(game="high-card", config=DUEL, seats=[NewSeat()])
    with pytest.raises(InvalidArgument):
        await store.create_match(game="high-card", config=DUEL, seats=[NewSeat(kind="reserved"), NewSeat()])
    with pytest.raises(InvalidArgument):
        await store.create_match(game="high-card", config=DUEL, seed=2**63)
    with pytest.raises(NotFound):  # the reserved account does not exist: the seat insert fails after the match row
        await store.create_match(
            game="high-card",
            config=DUEL,
            match_id="m-1",
            seats=[NewSeat(kind="reserved", account_id="ghost"), NewSeat()],
        )
    with pytest.raises(NotFound):
        await store.get_match("m-1")
    first = await store.create_match(game="high-card", config=DUEL, match_id="m-2", outbox=[event("x", 0)])
    with pytest.raises(AlreadyExists):  # the outbox row is refused: the match must not exist afterwards
        await store.create_match(game="high-card", config=DUEL, match_id="m-3", outbox=[event("x", 0)])
    with pytest.raises(NotFound):
        await store.get_match("m-3")
    with pytest.raises(AlreadyExists):
        await store.create_match(game="high-card", config=DUEL, match_id=first.id)
    assert len((await store.list_matches()).matches) == 1


async def test_list_filters(store: Store) -> None:
    alice, bob = await account(store, "alice"), await account(store, "bob")
    a = await store.create_match(
        game="high-card", config=DUEL, seats=[NewSeat(kind="human", account_id=alice.id), NewSeat()]
    )
    b = await store.create_match(game="grimmoir", config=DUEL, public=False, tournament_id="cup")
    c = await running_match(store)
    await store.claim_seat(c.id, 1, bob.id)
    d = await store.create_match(
        game="high-card", config=DUEL, seats=[NewSeat(kind="reserved", account_id=bob.id), NewSeat()]
    )
    await store.abort_match(d.id)

    async def ids(**filters: object) -> set[str]:
        return {m.id for m in (await store.list_matches(**filters)).matches}  # type: ignore[arg-type]

    assert await ids() == {a.id, b.id, c.id, d.id}
    assert await ids(game="high-card") == {a.id, c.id, d.id}
    assert await ids(status="open") == {a.id, b.id}
    assert await ids(status=["running", "aborted"]) == {c.id, d.id}
    assert await ids(public=False) == {b.id}
    assert await ids(public=True, game="high-card", status="open") == {a.id}
    assert await ids(account_id=alice.id) == {a.id}
    assert await ids(account_id=bob.id) == {c.id, d.id}
    assert await ids(account_id=bob.id, status=["open", "running"]) == {c.id}
    assert await ids(tournament_id="cup") == {b.id}
    assert await store.count_active_matches(bob.id) == 1
    with pytest.raises(InvalidArgument):
        await store.list_matches(status="paused")  # type: ignore[arg-type]
    page = await store.list_matches(account_id=bob.id, status="running")
    assert page.matches[0].seat_of(bob.id) == 1


async def test_pagination_is_newest_first_and_complete(store: Store) -> None:
    created = [await store.create_match(game="high-card", config=DUEL) for _ in range(7)]
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        page = await store.list_matches(limit=3, cursor=cursor)
        pages += 1
        seen.extend(m.id for m in page.matches)
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    assert pages == 3
    assert seen == [m.id for m in sorted(created, key=lambda m: (m.created_at, m.id), reverse=True)]
    with pytest.raises(InvalidArgument):
        await store.list_matches(cursor="not a cursor")
    with pytest.raises(InvalidArgument):
        await store.list_matches(limit=0)


def _frozen_clock() -> Iterator[datetime]:
    t0 = datetime(2030, 1, 1, tzinfo=UTC)
    for i in range(1000):
        yield t0 + timedelta(seconds=i // 4)  # four matches per instant: ties broken by id


async def test_pagination_breaks_time_ties_by_id(store_dsn: str) -> None:
    ticks = _frozen_clock()
    store = await open_store(store_dsn, clock=lambda: next(ticks))
    try:
        created = [await store.create_match(game="high-card", config=DUEL, match_id=f"m{i:02d}") for i in range(10)]
        seen: list[str] = []
        cursor = None
        while True:
            page = await store.list_matches(limit=3, cursor=cursor, game="high-card")
            seen.extend(m.id for m in page.matches)
            if page.next_cursor is None:
                break
            cursor = page.next_cursor
        expected = sorted(created, key=lambda m: (m.created_at, m.id), reverse=True)
        assert seen == [m.id for m in expected]
    finally:
        await store.close()


async def test_lifecycle(store: Store) -> None:
    match = await store.create_match(game="high-card", config=DUEL, seed=99)
    with pytest.raises(MatchClosed):
        await store.finish_match(match.id, {"ranks": [1, 2]})
    running = await store.start_match(match.id)
    assert running.status == "running"
    with pytest.raises(MatchClosed):
        await store.start_match(match.id)
    await log_action(store, running, 1, "r1")
    with pytest.raises(VersionConflict):
        await store.finish_match(match.id, {"ranks": [1, 2]}, expected_version=0)
    finished = await store.finish_match(match.id, {"ranks": [1, 2]}, expected_version=1)
    assert finished.status == "finished" and finished.outcome == {"ranks": [1, 2]}
    assert finished.finished_at is not None and finished.revealed_seed == 99
    with pytest.raises(MatchClosed):
        await store.abort_match(match.id)
    with pytest.raises(NotFound):
        await store.start_match("nope")


async def test_abort_from_open(store: Store) -> None:
    match = await store.create_match(game="high-card", config=DUEL)
    aborted = await store.abort_match(match.id, outcome={"reason": "never filled"})
    assert aborted.status == "aborted" and aborted.outcome == {"reason": "never filled"}
    assert aborted.revealed_seed == match.seed


async def test_clocks_can_start_with_the_match(store: Store) -> None:
    created = await store.create_match(
        game="high-card", config=DUEL, clock={"base_ms": 9}, clock_state={"left": [9, 9]}
    )
    assert created.clock_state == {"left": [9, 9]}
    started = await store.start_match(created.id, clock_state={"left": [9, 9], "running": 0})
    assert started.clock_state == {"left": [9, 9], "running": 0}
    other = await store.create_match(game="high-card", config=DUEL, clock_state={"left": [1, 1]})
    assert (await store.start_match(other.id)).clock_state == {"left": [1, 1]}  # left as it was


async def test_clock_updates(store: Store) -> None:
    match = await running_match(store, clock={"base_ms": 1000})
    await store.update_clock(match.id, {"left_ms": [900, 1000]})
    assert (await store.get_match(match.id)).clock_state == {"left_ms": [900, 1000]}
    await log_action(store, match, 1, "r1")
    with pytest.raises(VersionConflict) as conflict:
        await store.update_clock(match.id, {"left_ms": [0, 0]}, expected_version=0)
    assert conflict.value.current == 1
    await store.update_clock(match.id, {"left_ms": [800, 1000]}, expected_version=1)
    assert (await store.get_match(match.id)).clock_state == {"left_ms": [800, 1000]}
    await store.abort_match(match.id)
    with pytest.raises(MatchClosed):
        await store.update_clock(match.id, {"left_ms": [0, 0]})


async def test_labels(store: Store) -> None:
    match = await store.create_match(game="high-card", config=DUEL)
    await store.set_labels(match.id, {"featured": True})
    assert (await store.get_match(match.id)).labels == {"featured": True}
    with pytest.raises(NotFound):
        await store.set_labels("nope", {})
