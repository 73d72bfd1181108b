"""Volumes past what one JetStream KV value held (the service's former storage, capped at ~900 KB per
document: ~3,000 queued tickets per game, ~10,000 rated players per ledger, tournaments of a few
hundred players), through the real persistence service."""

from __future__ import annotations

import asyncio
import random

import pytest

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matchmaking import MatchPolicy
from gamehall.tournaments import TournamentConfig, current_pairings
from gamehall.tournaments.machine import create, next_round, record_results, start
from gamehall.tournaments.model import Entrant
from gamehall_services.matchmaking.documents import TournamentDoc, decode_doc, encode_doc
from gamehall_services.matchmaking.queues import Queues
from gamehall_services.matchmaking.ratings import Ratings
from gamehall_services.matchmaking.store_client import MatchmakingStore
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


async def test_ratings_of_12000_players_are_stored_and_ranked(persistence: Persistence) -> None:
    store = persistence.store()
    ratings = Ratings(store)
    players = [f"rated-{k:05d}" for k in range(12_000)]
    strength = {p: k for k, p in enumerate(players)}  # a higher index always wins
    rng = random.Random(3)
    gate = asyncio.Semaphore(32)
    winners: set[str] = set()

    async def play(number: int, a: str, b: str) -> None:
        match = ppb.MatchRecord(id=f"m-{number}", game=GAME, config_json=f'{{"mode": "{MODE}"}}')
        match.seats.add(seat=0, kind="human", account_id=a)
        match.seats.add(seat=1, kind="human", account_id=b)
        ranks = [1, 2] if strength[a] > strength[b] else [2, 1]
        winners.add(a if ranks[0] == 1 else b)
        async with gate:
            assert await ratings.apply(match, ranks) is not None

    shuffled = players[:]
    rng.shuffle(shuffled)
    await asyncio.gather(*(play(k, shuffled[2 * k], shuffled[2 * k + 1]) for k in range(6000)))
    rated = await store.ratings(GAME, MODE, players)
    assert all(r.matches == 1 for r in rated.values())
    board = await ratings.leaderboard(GAME, MODE, 6000)
    assert {e.player for e in board} == winners  # every winner above every loser
    assert [e.ordinal for e in board] == sorted((e.ordinal for e in board), reverse=True)


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
