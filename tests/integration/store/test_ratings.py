"""Skill ratings as the projection writes them (the only writer: a finish rates its match in the transaction that
projects it), guarded per player by the `matches` count read, and ranked on leaderboards by the conservative
rating mu - 3 sigma. The rating maths is the rater's (tested with the matchmaking library); here a rater hands
the store the new ratings each test chose. Once-per-match and batches: test_projection_ratings.py."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

import pytest

from gamehall.store import InvalidArgument, PlayerRating, RatingConflict, RatingUpdate, Store, open_store
from gamehall.store.projection import Projected
from gamehall.store.ratings import RatedTeams
from gamehall.store.records import Seat
from tests.integration.store.helpers import resignation

GAME, MODE = "grimmoir", "duel"


def up(account: str, expected: int, mu: float = 25.0, sigma: float = 8.0) -> RatingUpdate:
    return RatingUpdate(account=account, expected_matches=expected, mu=mu, sigma=sigma)


class Chosen:
    """A rater whose new ratings are the test's: every player of `updates` is a team of its own."""

    def __init__(self, updates: Sequence[RatingUpdate]) -> None:
        self.updates = list(updates)

    def teams(
        self, match_id: str, game: str, mode: str, seats: Sequence[Seat], ranks: Sequence[int]
    ) -> RatedTeams | None:
        return RatedTeams(
            teams=tuple((u.account,) for u in self.updates), ranks=tuple(range(1, len(self.updates) + 1))
        )

    def update(self, teams: RatedTeams, before: Mapping[str, PlayerRating]) -> Sequence[RatingUpdate]:
        return self.updates


async def rate(store: Store, updates: Sequence[RatingUpdate], game: str = GAME, mode: str = MODE) -> Projected:
    """A running match of `game`/`mode` whose finishing entry is projected with `updates` as its new ratings."""
    match = await store.create_match(game=game, config={"mode": mode, "seats": 2}, status="running")
    finish = resignation(store, match.id)
    return await store.project([finish], rater=Chosen(updates))


def summary(ratings: dict[str, PlayerRating]) -> dict[str, tuple[float, float, int]]:
    return {a: (r.mu, r.sigma, r.matches) for a, r in ratings.items()}


async def test_a_first_rating_inserts_and_later_ones_update_with_the_count_read(store: Store) -> None:
    assert await store.ratings(GAME, MODE, ["alice", "bob"]) == {}
    assert (await rate(store, [up("alice", 0, 27.5, 7.0), up("bob", 0, 22.5, 7.5)])).rated == ((GAME, MODE),)
    ratings = await store.ratings(GAME, MODE, ["alice", "bob", "carol", "alice"])
    assert summary(ratings) == {"alice": (27.5, 7.0, 1), "bob": (22.5, 7.5, 1)}
    alice = ratings["alice"]
    assert (alice.game, alice.mode, alice.account) == (GAME, MODE, "alice")
    assert alice.updated_at.tzinfo is not None
    # Ratings are per (game, mode).
    assert await store.ratings(GAME, "ffa", ["alice"]) == {}
    assert await store.ratings("grimslingers", MODE, ["alice"]) == {}
    assert await store.ratings(GAME, MODE, []) == {}
    await rate(store, [up("alice", 1, 30.0, 6.0), up("carol", 0, 20.0, 8.0)])
    await rate(store, [up("alice", 2, 31.0, 5.0), up("carol", 1, 19.0, 7.0)])
    assert summary(await store.ratings(GAME, MODE, ["alice", "bob", "carol"])) == {
        "alice": (31.0, 5.0, 3),
        "bob": (22.5, 7.5, 1),
        "carol": (19.0, 7.0, 2),
    }


async def test_a_stale_count_writes_nothing(store: Store) -> None:
    await rate(store, [up("alice", 0, 26.0, 7.0), up("bob", 0, 24.0, 7.0)])
    before = await store.ratings(GAME, MODE, ["alice", "bob", "carol"])
    stale = [
        [up("carol", 0, 21.0, 7.0), up("alice", 1, 27.0, 6.0), up("bob", 0, 23.0, 6.0)],  # bob was rated once
        [up("alice", 2, 27.0, 6.0)],  # ahead of the truth
        [up("carol", 1, 27.0, 6.0)],  # never rated: the rater must say 0
    ]
    for updates in stale:
        with pytest.raises(RatingConflict) as conflict:
            await rate(store, updates)
        assert conflict.value.grpc_status == "ABORTED"
        assert await store.ratings(GAME, MODE, ["alice", "bob", "carol"]) == before
    await rate(store, [up("carol", 0, 21.0, 7.0), up("alice", 1, 27.0, 6.0), up("bob", 1, 23.0, 6.0)])
    assert summary(await store.ratings(GAME, MODE, ["alice", "bob", "carol"])) == {
        "alice": (27.0, 6.0, 2),
        "bob": (23.0, 6.0, 2),
        "carol": (21.0, 7.0, 1),
    }


@pytest.mark.parametrize(
    "updates",
    [
        [up("alice", 0), up("alice", 0)],
        [up("alice", 0, sigma=0.0)],
        [up("alice", 0, sigma=-1.0)],
        [up("alice", 0, sigma=float("nan"))],
        [up("alice", 0, sigma=float("inf"))],
        [up("alice", 0, mu=float("nan"))],
        [up("alice", 0, mu=float("inf"))],
        [up("bob", 0), up("alice", -1)],
    ],
)
async def test_invalid_updates_are_refused(store: Store, updates: list[RatingUpdate]) -> None:
    with pytest.raises(InvalidArgument):
        await rate(store, updates)
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
    for account, (mu, sigma) in players.items():
        await rate(store, [up(account, 0, mu, sigma)])
    await rate(store, [up("dan", 1, 20.0, 8.0), up("eve", 1, 50.0, 20.0)])
    await rate(store, [up("zed", 0, 99.0, 1.0)], mode="ffa")
    await rate(store, [up("yan", 0, 99.0, 1.0)], game="grimslingers")

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
    await rate(store, [up("alice", 0, 30.0, 2.0), up("bob", 0, 25.0, 2.0)])
    assert [r.account for r in await store.leaderboard(GAME, MODE)] == ["alice", "bob"]
    await rate(store, [up("alice", 1, 20.0, 2.0), up("bob", 1, 26.0, 1.0)])
    assert [r.account for r in await store.leaderboard(GAME, MODE)] == ["bob", "alice"]


async def test_two_finishes_computed_from_one_read_of_a_player_rate_one(store_dsn: str) -> None:
    """Two persistence replicas project finishes rated from the same read of alice: one writes, the other's batch
    fails whole (its redelivery recomputes from fresh values)."""
    stores = [await open_store(store_dsn) for _ in range(2)]
    try:
        await rate(stores[0], [up("alice", 0, 30.0, 5.0), up("bob", 0, 20.0, 5.0)])
        outcomes = await asyncio.gather(
            rate(stores[0], [up("alice", 1, 31.0, 4.0), up("carol", 0)]),
            rate(stores[1], [up("dave", 0), up("alice", 1, 29.0, 4.0)]),
            return_exceptions=True,
        )
        assert sum(isinstance(r, Projected) for r in outcomes) == 1, outcomes
        assert sum(isinstance(r, RatingConflict) for r in outcomes) == 1, outcomes
        won = 0 if isinstance(outcomes[0], Projected) else 1
        lost_player = "dave" if won == 0 else "carol"
        after = summary(await stores[1].ratings(GAME, MODE, ["alice", "carol", "dave"]))
        assert after["alice"][2] == 2 and lost_player not in after
    finally:
        for store in stores:
            await store.close()
