"""Ratings as matchmaking reads them through the real persistence service: a finish rated by persistence's
projection (with its rater over the matchmaking library: humans only, once per match) shows in the players'
ratings and on the leaderboard; a player never rated has the default rating."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamehall.matchmaking import DEFAULT_RATING
from gamehall.store import NewSeat, open_store
from gamehall_services.matchmaking.ratings import Ratings
from gamehall_services.matchmaking.store_client import MatchmakingStore
from gamehall_services.persistence.rating import FinishRater
from tests.integration.store.helpers import resignation

GAME, MODE = "high-card", "duel"


async def _finish(database: Path, kinds: list[str]) -> None:
    """A duel between `kinds` (human seats are acc0, acc1) that seat 0 won, projected with persistence's rater."""
    store = await open_store(f"sqlite://{database}")
    try:
        accounts = {}
        for n, kind in enumerate(kinds):
            if kind == "human":
                accounts[n] = (await store.create_account(f"acc{n}", "hash", "player")).id
        bot = NewSeat(kind="bot", bot_difficulty="easy")
        seats = [NewSeat(kind="human", account_id=accounts[n]) if n in accounts else bot for n in range(len(kinds))]
        match = await store.create_match(game=GAME, config={"mode": MODE, "seats": 2}, seats=seats, status="running")
        finish = resignation(store, match.id)
        for _ in range(2):  # delivered twice: rated once
            await store.project([finish], rater=FinishRater())
    finally:
        await store.close()


@pytest.mark.integration
async def test_a_finish_persistence_rated_shows_in_ratings_and_on_the_board(
    store: MatchmakingStore, tmp_path: Path
) -> None:
    ratings = Ratings(store)
    assert await ratings.rating(GAME, MODE, "nobody") == DEFAULT_RATING
    assert await ratings.leaderboard(GAME, MODE, 10) == []
    await _finish(tmp_path / "db", ["human", "human"])
    board = await ratings.leaderboard(GAME, MODE, 10)
    assert [e.rank for e in board] == [1, 2]
    winner, loser = (await ratings.ratings(GAME, MODE, [e.player for e in board])).values()
    assert winner.matches == 1 and loser.matches == 1
    assert winner.mu > DEFAULT_RATING.mu > loser.mu


@pytest.mark.integration
async def test_a_match_against_a_bot_moves_no_rating(store: MatchmakingStore, tmp_path: Path) -> None:
    await _finish(tmp_path / "db", ["human", "bot"])
    assert await Ratings(store).leaderboard(GAME, MODE, 10) == []
