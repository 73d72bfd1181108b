"""Which seats a finished match rates: humans only, grouped by team, each team at its best seat's rank;
and rating writes through the real persistence service that apply each match once."""

from __future__ import annotations

import asyncio
import json

import pytest

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matchmaking import DEFAULT_RATING, update
from gamehall_services.matchmaking.ratings import Ratings
from gamehall_services.matchmaking.store_client import MatchmakingStore, Stale
from tests.integration.matchmaking_service.conftest import Persistence

GAME, MODE = "high-card", "duel"


def _match(kinds: list[str], match_id: str = "m1", players: tuple[str, ...] = ("acc0", "acc1")) -> ppb.MatchRecord:
    record = ppb.MatchRecord(id=match_id, game=GAME, config_json=json.dumps({"mode": MODE, "seats": 2}))
    for n, kind in enumerate(kinds):
        record.seats.add(seat=n, kind=kind, account_id=players[n] if kind == "human" else "")
    return record


@pytest.mark.integration
async def test_a_match_is_rated_once_however_often_it_arrives(store: MatchmakingStore) -> None:
    ratings = Ratings(store)
    match = _match(["human", "human"])
    first = await ratings.apply(match, [1, 2])
    assert first is not None and [c.player for c in first] == ["acc0", "acc1"]
    stored = await store.ratings(GAME, MODE, ["acc0", "acc1"])
    assert await ratings.apply(match, [1, 2]) is None  # redelivered
    assert await ratings.apply(match, [2, 1]) is None  # even with another outcome: the first one stands
    assert await store.ratings(GAME, MODE, ["acc0", "acc1"]) == stored  # nothing written for the duplicates
    winner, loser = await ratings.rating(GAME, MODE, "acc0"), await ratings.rating(GAME, MODE, "acc1")
    assert winner.matches == 1 and loser.matches == 1
    assert winner.mu > DEFAULT_RATING.mu > loser.mu
    board = await ratings.leaderboard(GAME, MODE, 10)
    assert [(e.rank, e.player) for e in board] == [(1, "acc0"), (2, "acc1")]


@pytest.mark.integration
async def test_a_match_against_a_bot_moves_no_rating(store: MatchmakingStore) -> None:
    ratings = Ratings(store)
    assert await ratings.apply(_match(["human", "bot"]), [1, 2]) is None
    assert await ratings.rating(GAME, MODE, "acc0") == DEFAULT_RATING
    assert await ratings.leaderboard(GAME, MODE, 10) == []


@pytest.mark.integration
async def test_two_matches_of_a_player_rated_at_once_both_count(persistence: Persistence) -> None:
    """Two replicas rate two matches of acc0 at the same moment: both read acc0 unrated, one write wins the
    compare-and-swap and the other is stale, so it re-reads and recomputes from the winner's result."""
    both_read = asyncio.Barrier(2)
    stale: list[str] = []
    replicas = []
    for _ in range(2):
        store = persistence.store()
        read, record = store.ratings, store.record_ratings
        first_read = [True]

        async def ratings(game, mode, players, read=read, first_read=first_read):  # type: ignore[no-untyped-def]
            found = await read(game, mode, players)
            if first_read[0]:  # the first read of each replica happens before either writes
                first_read[0] = False
                await both_read.wait()
            return found

        async def recording(match_id, game, mode, before, after, record=record):  # type: ignore[no-untyped-def]
            try:
                return await record(match_id, game, mode, before, after)
            except Stale:
                stale.append(match_id)
                raise

        store.ratings, store.record_ratings = ratings, recording  # type: ignore[method-assign]
        replicas.append(Ratings(store))

    one = _match(["human", "human"], "m1", ("acc0", "acc1"))
    two = _match(["human", "human"], "m2", ("acc0", "acc2"))
    first, second = await asyncio.gather(replicas[0].apply(one, [1, 2]), replicas[1].apply(two, [1, 2]))
    assert first is not None and second is not None
    assert len(stale) == 1  # the race did happen, and its loser retried

    changes = {"m1": {c.player: c for c in first}, "m2": {c.player: c for c in second}}
    loser = stale[0]
    winner = "m2" if loser == "m1" else "m1"
    assert changes[winner]["acc0"].before == DEFAULT_RATING
    assert changes[loser]["acc0"].before == changes[winner]["acc0"].after
    final = await replicas[0].rating(GAME, MODE, "acc0")
    assert final.matches == 2
    assert (final.mu, final.sigma) == (changes[loser]["acc0"].after.mu, changes[loser]["acc0"].after.sigma)
    # the same as rating the two matches one after the other
    opponent = "acc1" if winner == "m1" else "acc2"
    after_first = update({"acc0": DEFAULT_RATING, opponent: DEFAULT_RATING}, [["acc0"], [opponent]], [1, 2])
    other = "acc2" if winner == "m1" else "acc1"
    after_both = update({"acc0": after_first["acc0"], other: DEFAULT_RATING}, [["acc0"], [other]], [1, 2])
    assert final.mu == pytest.approx(after_both["acc0"].mu) and final.sigma == pytest.approx(after_both["acc0"].sigma)
    for player in ("acc1", "acc2"):
        assert (await replicas[1].rating(GAME, MODE, player)).matches == 1
