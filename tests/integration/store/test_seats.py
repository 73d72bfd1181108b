"""Seats: compare-and-swap claims (open, or reserved for the claimant), releases."""

from __future__ import annotations

import asyncio

import pytest

from gamehall.matches import clocks
from gamehall.matches.clocks import ClockSpec
from gamehall.store import (
    AlreadySeated,
    InvalidArgument,
    MatchClosed,
    NewSeat,
    NotFound,
    SeatTaken,
    StartPlan,
    Store,
    open_store,
)
from tests.integration.store.helpers import DUEL, account, event


async def test_claim_an_open_seat(store: Store) -> None:
    alice = await account(store)
    match = await store.create_match(game="high-card", config=DUEL)
    seat = await store.claim_seat(match.id, 0, alice.id, outbox=[event(match.id, 0, "seat")])
    assert (seat.kind, seat.account_id) == ("human", alice.id)
    assert (await store.get_match(match.id)).seats[0] == seat
    assert [r.msg_id for r in await store.pending_outbox()] == [f"{match.id}:0"]


async def test_one_account_plays_one_seat_even_when_its_two_joins_race(store: Store) -> None:
    alice = await account(store, "alice")
    match = await store.create_match(game="high-card", config=DUEL)
    await store.claim_seat(match.id, 0, alice.id)
    with pytest.raises(AlreadySeated, match="one account plays one seat"):
        await store.claim_seat(match.id, 1, alice.id)
    assert (await store.claim_seat(match.id, 0, alice.id)).seat == 0  # a retry of the first claim is fine
    other = await store.create_match(game="high-card", config=DUEL)
    results = await asyncio.gather(
        store.claim_seat(other.id, 0, alice.id), store.claim_seat(other.id, 1, alice.id), return_exceptions=True
    )
    assert sorted(type(r).__name__ for r in results) == ["AlreadySeated", "Seat"]
    assert [s.kind for s in (await store.get_match(other.id)).seats].count("human") == 1


async def test_a_taken_seat_cannot_be_claimed(store: Store) -> None:
    alice, bob = await account(store, "alice"), await account(store, "bob")
    match = await store.create_match(game="high-card", config=DUEL)
    await store.claim_seat(match.id, 0, alice.id)
    with pytest.raises(SeatTaken):
        await store.claim_seat(match.id, 0, bob.id)
    with pytest.raises(SeatTaken):
        await store.claim_seat(match.id, 0, None, kind="bot", bot_difficulty="easy")
    assert (await store.get_match(match.id)).seats[0].account_id == alice.id


async def test_claiming_again_is_idempotent(store: Store) -> None:
    alice = await account(store)
    match = await store.create_match(game="high-card", config=DUEL)
    first = await store.claim_seat(match.id, 1, alice.id)
    assert await store.claim_seat(match.id, 1, alice.id) == first


async def test_reserved_seats_only_go_to_their_account(store: Store) -> None:
    alice, bob = await account(store, "alice"), await account(store, "bob")
    match = await store.create_match(
        game="high-card", config=DUEL, seats=[NewSeat(kind="reserved", account_id=alice.id), NewSeat()]
    )
    with pytest.raises(SeatTaken, match="reserved"):
        await store.claim_seat(match.id, 0, bob.id)
    seat = await store.claim_seat(match.id, 0, alice.id)
    assert (seat.kind, seat.account_id) == ("human", alice.id)


async def test_bot_seats(store: Store) -> None:
    bot = await account(store, "botty", "bot")
    match = await store.create_match(game="high-card", config=DUEL)
    builtin = await store.claim_seat(match.id, 0, None, kind="bot", bot_difficulty="hard")
    assert (builtin.kind, builtin.account_id, builtin.bot_difficulty) == ("bot", None, "hard")
    external = await store.claim_seat(match.id, 1, bot.id, kind="bot")
    assert (external.kind, external.account_id) == ("bot", bot.id)
    with pytest.raises(InvalidArgument):
        await store.claim_seat(match.id, 1, None)  # a human seat needs an account


async def test_concurrent_claims_have_one_winner(store_dsn: str) -> None:
    stores = [await open_store(store_dsn) for _ in range(2)]
    try:
        players = [await account(stores[0], f"player{i}") for i in range(6)]
        match = await stores[0].create_match(game="high-card", config=DUEL)
        results = await asyncio.gather(
            *(stores[i % 2].claim_seat(match.id, 0, p.id) for i, p in enumerate(players)), return_exceptions=True
        )
        winners = [r for r in results if not isinstance(r, BaseException)]
        losers = [r for r in results if isinstance(r, BaseException)]
        assert len(winners) == 1
        assert all(isinstance(e, SeatTaken) for e in losers), losers
        assert (await stores[1].get_match(match.id)).seats[0].account_id == winners[0].account_id
    finally:
        for store in stores:
            await store.close()


PER_MOVE = ClockSpec(per_move_ms=30_000)
T0 = 1_900_000_000_000


def start_plan(match_id: str) -> StartPlan:
    return StartPlan(clock_state=clocks.initial(PER_MOVE, 2, [0], T0), outbox=(event(match_id, 0, "turn"),))


async def test_the_claim_that_fills_a_match_starts_it_in_its_own_transaction(store: Store) -> None:
    alice, bob = await account(store, "alice"), await account(store, "bob")
    match = await store.create_match(game="high-card", config=DUEL, clock=PER_MOVE.to_json())
    await store.claim_seat(match.id, 0, alice.id, start_when_full=start_plan(match.id))
    assert (await store.get_match(match.id)).status == "open"  # a seat is left: nothing starts
    assert await store.pending_outbox() == []
    await store.claim_seat(match.id, 1, bob.id, start_when_full=start_plan(match.id))
    started = await store.get_match(match.id)
    assert (started.status, started.clock_state, started.next_deadline_ms) == (
        "running",
        clocks.initial(PER_MOVE, 2, [0], T0),
        T0 + 30_000,
    )
    assert [r.msg_id for r in await store.pending_outbox()] == [f"{match.id}:0"]
    await store.claim_seat(match.id, 1, bob.id, start_when_full=start_plan(match.id))  # a retry: started once
    assert len(await store.pending_outbox()) == 1


async def test_a_retried_claim_starts_a_full_match_left_open(store: Store) -> None:
    alice, bob = await account(store, "alice"), await account(store, "bob")
    match = await store.create_match(game="high-card", config=DUEL)
    await store.claim_seat(match.id, 0, alice.id)
    await store.claim_seat(match.id, 1, bob.id)  # full, but no plan to start with (a join cut off here)
    assert (await store.get_match(match.id)).status == "open"
    await store.claim_seat(match.id, 1, bob.id, start_when_full=start_plan(match.id))
    assert (await store.get_match(match.id)).status == "running"


async def test_a_failed_claim_starts_nothing(store: Store) -> None:
    alice, bob, carol = [await account(store, n) for n in ("alice", "bob", "carol")]
    match = await store.create_match(game="high-card", config=DUEL)
    await store.claim_seat(match.id, 0, alice.id)
    await store.claim_seat(match.id, 1, bob.id)
    with pytest.raises(SeatTaken):
        await store.claim_seat(match.id, 1, carol.id, start_when_full=start_plan(match.id))
    assert (await store.get_match(match.id)).status == "open"
    assert await store.pending_outbox() == []


async def test_release(store: Store) -> None:
    alice, bob = await account(store, "alice"), await account(store, "bob")
    match = await store.create_match(game="high-card", config=DUEL)
    await store.claim_seat(match.id, 0, alice.id)
    with pytest.raises(SeatTaken):
        await store.release_seat(match.id, 0, account_id=bob.id)
    released = await store.release_seat(match.id, 0, account_id=alice.id)
    assert (released.kind, released.account_id) == ("open", None)
    assert await store.release_seat(match.id, 0) == released  # already open: nothing to do
    await store.claim_seat(match.id, 0, bob.id)


async def test_a_seat_of_a_running_match_is_never_released(store: Store) -> None:
    """A leave read the match open, the last join started it meanwhile: the seat stays (leaving now resigns)."""
    alice, bob = await account(store, "alice"), await account(store, "bob")
    match = await store.create_match(game="high-card", config=DUEL)
    await store.claim_seat(match.id, 0, alice.id)
    await store.claim_seat(match.id, 1, bob.id, start_when_full=StartPlan())
    with pytest.raises(MatchClosed, match="only a seat of an open match"):
        await store.release_seat(match.id, 0, account_id=alice.id)
    assert (await store.get_match(match.id)).seats[0].account_id == alice.id


async def test_unknown_and_closed(store: Store) -> None:
    alice = await account(store)
    match = await store.create_match(game="high-card", config=DUEL)
    with pytest.raises(NotFound):
        await store.claim_seat("nope", 0, alice.id)
    with pytest.raises(NotFound):
        await store.claim_seat(match.id, 5, alice.id)
    with pytest.raises(NotFound):  # no such account
        await store.claim_seat(match.id, 0, "ghost")
    assert (await store.get_match(match.id)).seats[0].kind == "open"
    await store.abort_match(match.id)
    with pytest.raises(MatchClosed):
        await store.claim_seat(match.id, 0, alice.id)
    with pytest.raises(MatchClosed):
        await store.release_seat(match.id, 0)
