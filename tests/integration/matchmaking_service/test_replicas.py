"""Two replicas of the service, each with its own channel to the same persistence service: passes
running at the same time match each ticket once, and seat every player exactly once."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from gamehall.matchmaking import MatchPolicy
from gamehall.runtime.errors import lookup
from gamehall_services.matchmaking.queues import Queues
from gamehall_services.matchmaking.ratings import Ratings
from tests.integration.matchmaking_service.conftest import Persistence
from tests.integration.matchmaking_service.fakes import FakeCreator

pytestmark = pytest.mark.integration

GAME, MODE = "high-card", "duel"


def _replicas(persistence: Persistence, creator: FakeCreator) -> list[Queues]:
    replicas = []
    for _ in range(2):
        store = persistence.store()  # a channel of its own, like a separate process
        replicas.append(Queues(store, Ratings(store), creator, MatchPolicy()))  # type: ignore[arg-type]
    return replicas


async def test_replicas_sharing_persistence_never_match_a_ticket_twice(persistence: Persistence) -> None:
    creator = FakeCreator()
    replicas = _replicas(persistence, creator)
    players = [f"p{k:02d}" for k in range(30)]
    tickets = []
    for k, player in enumerate(players):  # enqueued through both replicas, interleaved with passes
        entry = await replicas[k % 2].enqueue(GAME, "", [player], player, allow_bots=False, pool="")
        tickets.append(entry.ticket.id)
        if k % 5 == 4:
            await asyncio.gather(*(r.pass_once(GAME) for r in replicas))
    for _ in range(3):
        await asyncio.gather(*(r.pass_once(GAME) for r in replicas))
    store = replicas[0].store
    assert await store.queued(GAME, MODE) == [] and await store.pending(GAME) == []
    seated = sorted(s.account_id for m in creator.created.values() for s in m.seats)
    assert seated == players and len(creator.created) == 15
    entries = [await replicas[1].get(t) for t in tickets]
    assert {e.state for e in entries} == {"matched"}
    assert {e.match_id for e in entries} == {m.id for m in creator.created.values()}


async def test_a_player_enqueued_through_both_replicas_at_once_holds_one_ticket(persistence: Persistence) -> None:
    replicas = _replicas(persistence, FakeCreator())
    outcomes = await asyncio.gather(
        *(r.enqueue(GAME, "", ["ann"], "ann", allow_bots=False, pool="") for r in replicas), return_exceptions=True
    )
    made = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(made) == 1 and len(refused) == 1, outcomes
    mapped = lookup(refused[0])
    assert mapped is not None and mapped.code == grpc.StatusCode.ALREADY_EXISTS, repr(refused[0])
    for replica in replicas:  # both replicas see the same single ticket
        assert [t.id for t in await replica.store.queued(GAME, MODE)] == [made[0].ticket.id]
