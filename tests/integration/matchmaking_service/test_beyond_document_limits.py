"""Volumes past what one JetStream KV value held (the service's former storage, capped at ~900 KB per
document: ~3,000 queued tickets per game, ~10,000 rated players per ledger, tournaments of a few
hundred players), through the real persistence service."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from gamehall.matchmaking import MatchPolicy
from gamehall.store import NewSeat, Store, open_store
from gamehall.store.projection import LogRecord
from gamehall.tournaments import TournamentConfig, current_pairings
from gamehall.tournaments.machine import create, next_round, record_results, start
from gamehall.tournaments.model import Entrant
from gamehall_services.matchmaking.documents import TournamentDoc, decode_doc, encode_doc
from gamehall_services.matchmaking.queues import Queues
from gamehall_services.matchmaking.ratings import Ratings
from gamehall_services.matchmaking.store_client import MatchmakingStore
from gamehall_services.persistence.rating import FinishRater
from tests.integration.matchmaking_service.conftest import Persistence
from tests.integration.matchmaking_service.fakes import FakeCreator

pytestmark = pytest.mark.integration

GAME, MODE = "high-card", "duel"


async def test_a_queue_of_4000_tickets_is_matched_whole(persistence: Persistence) -> None:
    store = persistence.store()
    creator = FakeCreator()
    queues = Queues(store, Ratings(store), creator, MatchPolicy())  # type: ignore[arg-type]
    players = [f"player-{k:05d}" for k in range(4000)]
    gate = asyncio.Semaphore(32)

    async def enqueue(player: str) -> None:
        async with gate:
            await queues.enqueue(GAME, MODE, [player], player, allow_bots=False, pool="")

    await asyncio.gather(*(enqueue(p) for p in players))
    assert len(await store.queued(GAME, MODE)) == 4000
    while await store.queued(GAME, MODE):
        await queues.pass_once(GAME)
    seated = sorted(s.account_id for m in creator.created.values() for s in m.seats)
    assert seated == players  # everyone seated, once
    assert len(creator.created) == 2000


async def test_ratings_of_12000_players_are_stored_and_ranked(persistence: Persistence, tmp_path: Path) -> None:
    """6,000 finishes rated as persistence rates them (its projection, with its rater), then read through it."""
    store = persistence.store()
    ratings = Ratings(store)
    names = [f"rated-{k:05d}" for k in range(12_000)]
    strength = {p: k for k, p in enumerate(names)}  # a higher index always wins
    rng = random.Random(3)
    winners: set[str] = set()
    database = await open_store(f"sqlite://{tmp_path / 'db'}?synchronous=normal")
    try:
        ids = {p: (await database.create_account(p, "hash", "player")).id for p in names}
        shuffled = names[:]
        rng.shuffle(shuffled)
        finishes = []
        for k in range(6000):
            a, b = shuffled[2 * k], shuffled[2 * k + 1]
            winners.add(ids[a] if strength[a] > strength[b] else ids[b])
            seats = [NewSeat(kind="human", account_id=ids[a]), NewSeat(kind="human", account_id=ids[b])]
            match = await database.create_match(
                game=GAME, config={"mode": MODE, "seats": 2}, seats=seats, status="running"
            )
            ranks = [1, 2] if strength[a] > strength[b] else [2, 1]
            finishes.append(_finish(database, match.id, ranks))
        rater = FinishRater()
        for start in range(0, len(finishes), 500):  # the projection's batches
            await database.project(finishes[start : start + 500], rater=rater)
    finally:
        await database.close()
    rated = await store.ratings(GAME, MODE, list(ids.values()))
    assert all(r.matches == 1 for r in rated.values())
    board = await ratings.leaderboard(GAME, MODE, 6000)
    assert {e.player for e in board} == winners  # every winner above every loser
    assert [e.ordinal for e in board] == sorted((e.ordinal for e in board), reverse=True)


def _finish(database: Store, match_id: str, ranks: list[int]) -> LogRecord:
    return LogRecord(
        match_id=match_id,
        seq=1,
        version=1,
        kind="action",
        status="finished",
        created_at=database._now(),
        action=json.dumps({"kind": "resign"}),
        request_id="r1",
        state_digest=b"d",
        outcome=json.dumps({"ranks": ranks, "scores": None, "reason": "resigned"}),
    )


async def test_a_4096_player_swiss_document_round_trips(persistence: Persistence) -> None:
    store: MatchmakingStore = persistence.store()
    tournament = create("tn-big", TournamentConfig(GAME, MODE, "swiss", 0.0, 1.0, rounds=12))
    tournament.entrants = [Entrant(f"{k:08x}-0000-4000-8000-{k:012x}", 0.0, 0.5, checked_in=True) for k in range(4096)]
    tournament = start(tournament, now=1.0)
    rng = random.Random(5)
    while tournament.status == "running":
        tournament = record_results(
            tournament, [(p.id, rng.choice([[1, 2], [2, 1]])) for p in current_pairings(tournament)]
        )
        tournament = next_round(tournament)
    doc = TournamentDoc(tournament, "big", "operator", 0.0)
    data = encode_doc(doc)
    assert len(data) < 1_500_000  # well inside one gRPC message (4 MiB)
    stored = await store.create_tournament(
        tournament_id=tournament.id,
        name="big",
        game=GAME,
        mode=MODE,
        format="swiss",
        status=tournament.status,
        doc=data,
        created_by="operator",
    )
    again = await store.tournament(stored.id)
    assert again is not None and decode_doc(again.doc) == doc
    assert len(tournament.pairings) == 12 * 2048
