"""Skill ratings: recorded exactly once per match id, guarded per player by the `matches` count read,
and ranked on leaderboards by the conservative rating mu - 3 sigma."""

from __future__ import annotations

import asyncio

import pytest

from gamehall.store import (
    AlreadyExists,
    InvalidArgument,
    OutboxMessage,
    PlayerRating,
    RatingConflict,
    RatingUpdate,
    Store,
    open_store,
)

GAME, MODE = "grimmoir", "duel"


def up(account: str, expected: int, mu: float = 25.0, sigma: float = 8.0) -> RatingUpdate:
    return RatingUpdate(account=account, expected_matches=expected, mu=mu, sigma=sigma)


def msg(msg_id: str) -> OutboxMessage:
    return OutboxMessage(subject="gamehall.v1.ratings", msg_id=msg_id, payload=msg_id.encode())


async def outbox_ids(store: Store) -> list[str]:
    return [r.msg_id for r in await store.pending_outbox(limit=1000)]


def summary(ratings: dict[str, PlayerRating]) -> dict[str, tuple[float, float, int]]:
    return {a: (r.mu, r.sigma, r.matches) for a, r in ratings.items()}


async def test_first_recording_inserts(store: Store) -> None:
    assert await store.ratings(GAME, MODE, ["alice", "bob"]) == {}
    assert not await store.is_rated("m1")
    recorded = await store.record_ratings(
        "m1", GAME, MODE, [up("alice", 0, 27.5, 7.0), up("bob", 0, 22.5, 7.5)], outbox=[msg("rated-m1")]
    )
    assert recorded is True
    assert await store.is_rated("m1") and not await store.is_rated("m2")
    ratings = await store.ratings(GAME, MODE, ["alice", "bob", "carol", "alice"])
    assert summary(ratings) == {"alice": (27.5, 7.0, 1), "bob": (22.5, 7.5, 1)}
    alice = ratings["alice"]
    assert (alice.game, alice.mode, alice.account) == (GAME, MODE, "alice")
    assert alice.updated_at.tzinfo is not None
    assert await outbox_ids(store) == ["rated-m1"]
    # Ratings are per (game, mode).
    assert await store.ratings(GAME, "ffa", ["alice"]) == {}
    assert await store.ratings("grimslingers", MODE, ["alice"]) == {}
    assert await store.ratings(GAME, MODE, []) == {}


async def test_later_matches_update_with_the_count_read(store: Store) -> None:
    await store.record_ratings("m1", GAME, MODE, [up("alice", 0), up("bob", 0)])
    assert await store.record_ratings("m2", GAME, MODE, [up("alice", 1, 30.0, 6.0), up("carol", 0, 20.0, 8.0)])
    assert await store.record_ratings("m3", GAME, MODE, [up("alice", 2, 31.0, 5.0), up("carol", 1, 19.0, 7.0)])
    assert summary(await store.ratings(GAME, MODE, ["alice", "bob", "carol"])) == {
        "alice": (31.0, 5.0, 3),
        "bob": (25.0, 8.0, 1),
        "carol": (19.0, 7.0, 2),
    }


async def test_a_match_is_recorded_once(store: Store) -> None:
    assert await store.record_ratings("m1", GAME, MODE, [up("alice", 0, 28.0, 7.0)], outbox=[msg("first")])
    before = await store.ratings(GAME, MODE, ["alice", "bob"])
    # The same match again: nothing is written, whatever the values (even counts that would now conflict).
    for updates in (
        [up("alice", 1, 40.0, 2.0)],
        [up("alice", 0, 40.0, 2.0), up("bob", 0, 10.0, 1.0)],
        [up("alice", 7, 40.0, 2.0)],
    ):
        assert await store.record_ratings("m1", GAME, MODE, updates, outbox=[msg(f"again-{len(updates)}")]) is False
    assert await store.ratings(GAME, MODE, ["alice", "bob"]) == before
    assert await outbox_ids(store) == ["first"]
    # The match id is global: recording it under another game changes nothing either.
    assert await store.record_ratings("m1", "grimslingers", MODE, [up("alice", 0)]) is False
    assert await store.ratings("grimslingers", MODE, ["alice"]) == {}


async def test_a_stale_count_writes_nothing(store: Store) -> None:
    await store.record_ratings("m1", GAME, MODE, [up("alice", 0, 26.0, 7.0), up("bob", 0, 24.0, 7.0)])
    before = await store.ratings(GAME, MODE, ["alice", "bob", "carol"])
    stale_calls = [
        [up("carol", 0, 21.0, 7.0), up("alice", 1, 27.0, 6.0), up("bob", 0, 23.0, 6.0)],  # bob was rated once
        [up("alice", 2, 27.0, 6.0)],  # ahead of the truth
        [up("carol", 1, 27.0, 6.0)],  # never rated: the caller must send 0
        [up("alice", 1, 27.0, 6.0), up("bob", 2, 23.0, 6.0)],  # the last one conflicts after a first success
    ]
    for updates in stale_calls:
        with pytest.raises(RatingConflict) as conflict:
            await store.record_ratings("m2", GAME, MODE, updates, outbox=[msg("rated-m2")])
        assert conflict.value.grpc_status == "ABORTED"
        assert await store.ratings(GAME, MODE, ["alice", "bob", "carol"]) == before
        assert not await store.is_rated("m2")  # not even the rated-match mark
        assert await outbox_ids(store) == []
    # Re-read, recompute, retry: the same match id now goes through.
    assert await store.record_ratings(
        "m2", GAME, MODE, [up("carol", 0, 21.0, 7.0), up("alice", 1, 27.0, 6.0), up("bob", 1, 23.0, 6.0)]
    )
    assert summary(await store.ratings(GAME, MODE, ["alice", "bob", "carol"])) == {
        "alice": (27.0, 6.0, 2),
        "bob": (23.0, 6.0, 2),
        "carol": (21.0, 7.0, 1),
    }
    assert await store.is_rated("m2")


async def test_a_failing_outbox_writes_nothing(store: Store) -> None:
    await store.enqueue([msg("taken")])
    with pytest.raises(AlreadyExists):
        await store.record_ratings("m1", GAME, MODE, [up("alice", 0)], outbox=[msg("taken")])
    assert not await store.is_rated("m1")
    assert await store.ratings(GAME, MODE, ["alice"]) == {}
    assert await store.record_ratings("m1", GAME, MODE, [up("alice", 0)], outbox=[msg("fresh")])
    assert await outbox_ids(store) == ["taken", "fresh"]


@pytest.mark.parametrize(
    ("match_id", "updates"),
    [
        ("", [up("alice", 0)]),
        ("m1", []),
        ("m1", [up("alice", 0), up("alice", 0)]),
        ("m1", [up("alice", 0, sigma=0.0)]),
        ("m1", [up("alice", 0, sigma=-1.0)]),
        ("m1", [up("alice", 0, sigma=float("nan"))]),
        ("m1", [up("alice", 0, sigma=float("inf"))]),
        ("m1", [up("alice", 0, mu=float("nan"))]),
        ("m1", [up("alice", 0, mu=float("inf"))]),
        ("m1", [up("bob", 0), up("alice", -1)]),
    ],
)
async def test_invalid_updates_are_refused(store: Store, match_id: str, updates: list[RatingUpdate]) -> None:
    with pytest.raises(InvalidArgument):
        await store.record_ratings(match_id, GAME, MODE, updates)
    assert not await store.is_rated(match_id)
    assert await store.ratings(GAME, MODE, ["alice", "bob"]) == {}


async def test_leaderboard(store: Store) -> None:
    # (mu, sigma) -> ordinal mu - 3 sigma
    players = {
        "ann": (30.0, 1.0),  # 27
        "ben": (40.0, 5.0),  # 25: higher mu, lower on the board
        "cat": (28.0, 1.0),  # 25: tie with ben, broken by account
        "abe": (31.0, 2.0),  # 25: ...and abe comes first of the three
        "dan": (20.0, 8.0),  # -4
        "eve": (50.0, 20.0),  # -10
    }
    for n, (account, (mu, sigma)) in enumerate(players.items()):
        await store.record_ratings(f"m{n}", GAME, MODE, [up(account, 0, mu, sigma)])
    await store.record_ratings("m-more", GAME, MODE, [up("dan", 1, 20.0, 8.0), up("eve", 1, 50.0, 20.0)])
    await store.record_ratings("m-elsewhere", GAME, "ffa", [up("zed", 0, 99.0, 1.0)])
    await store.record_ratings("m-other-game", "grimslingers", MODE, [up("yan", 0, 99.0, 1.0)])

    async def board(**kwargs: int) -> list[str]:
        return [r.account for r in await store.leaderboard(GAME, MODE, **kwargs)]

    assert await board() == ["ann", "abe", "ben", "cat", "dan", "eve"]
    top = (await store.leaderboard(GAME, MODE, limit=1))[0]
    assert (top.account, top.mu, top.sigma, top.matches) == ("ann", 30.0, 1.0, 1)
    assert await board(limit=2) == ["ann", "abe"]
    assert await board(limit=2, offset=2) == ["ben", "cat"]
    assert await board(limit=10, offset=5) == ["eve"]
    assert await board(offset=6) == []
    assert await board(min_matches=2) == ["dan", "eve"]
    assert await board(min_matches=2, offset=1) == ["eve"]
    assert await board(min_matches=3) == []
    assert [r.account for r in await store.leaderboard(GAME, "ffa")] == ["zed"]
    assert await store.leaderboard("nothing", MODE) == []
    for bad in ({"limit": 0}, {"limit": 10_001}, {"offset": -1}):
        with pytest.raises(InvalidArgument):
            await store.leaderboard(GAME, MODE, **bad)


async def test_an_update_moves_a_player_on_the_board(store: Store) -> None:
    await store.record_ratings("m1", GAME, MODE, [up("alice", 0, 30.0, 2.0), up("bob", 0, 25.0, 2.0)])
    assert [r.account for r in await store.leaderboard(GAME, MODE)] == ["alice", "bob"]
    await store.record_ratings("m2", GAME, MODE, [up("alice", 1, 20.0, 2.0), up("bob", 1, 26.0, 1.0)])
    assert [r.account for r in await store.leaderboard(GAME, MODE)] == ["bob", "alice"]


async def test_concurrent_recordings(store_dsn: str) -> None:
    stores = [await open_store(store_dsn) for _ in range(2)]
    try:
        # The same match recorded twice at once: exactly one recording counts.
        results = await asyncio.gather(
            stores[0].record_ratings("m1", GAME, MODE, [up("alice", 0, 30.0, 5.0), up("bob", 0, 20.0, 5.0)]),
            stores[1].record_ratings("m1", GAME, MODE, [up("alice", 0, 10.0, 5.0), up("bob", 0, 40.0, 5.0)]),
        )
        assert sorted(results) == [False, True]
        ratings = summary(await stores[0].ratings(GAME, MODE, ["alice", "bob"]))
        assert ratings in (
            {"alice": (30.0, 5.0, 1), "bob": (20.0, 5.0, 1)},
            {"alice": (10.0, 5.0, 1), "bob": (40.0, 5.0, 1)},
        )
        # Two matches computed from the same read of alice: one wins, the other must re-read.
        outcomes = await asyncio.gather(
            stores[0].record_ratings("m2", GAME, MODE, [up("alice", 1, 31.0, 4.0), up("carol", 0)]),
            stores[1].record_ratings("m3", GAME, MODE, [up("dave", 0), up("alice", 1, 29.0, 4.0)]),
            return_exceptions=True,
        )
        assert sum(r is True for r in outcomes) == 1, outcomes
        assert sum(isinstance(r, RatingConflict) for r in outcomes) == 1, outcomes
        won = "m2" if outcomes[0] is True else "m3"
        lost_player = "dave" if won == "m2" else "carol"
        after = summary(await stores[1].ratings(GAME, MODE, ["alice", "carol", "dave"]))
        assert after["alice"] == ((31.0 if won == "m2" else 29.0), 4.0, 2)
        assert lost_player not in after
        assert await stores[0].is_rated(won)
        assert not await stores[0].is_rated("m3" if won == "m2" else "m2")
    finally:
        for store in stores:
            await store.close()
