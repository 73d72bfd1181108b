"""Seats: compare-and-swap claims (open, or reserved for the claimant), releases."""

from __future__ import annotations

import asyncio

import pytest

from gamehall.store import (
    AlreadySeated,
    InvalidArgument,
    MatchClosed,
    NewSeat,
    NotFound,
    SeatTaken,
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
