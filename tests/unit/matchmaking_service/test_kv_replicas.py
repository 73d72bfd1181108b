"""Two replicas' queues over a real JetStream KV bucket: concurrent passes match each ticket once."""

from __future__ import annotations

import asyncio

import pytest

from gamehall.matchmaking import Ledger, MatchPolicy
from gamehall.runtime.bus import Bus
from gamehall_services.matchmaking.documents import QueueDoc, TicketEntry
from gamehall_services.matchmaking.kv import TICKETS_BUCKET, Documents, open_bucket
from gamehall_services.matchmaking.queues import Queues
from gamehall_services.matchmaking.ratings import Ratings
from tests.support.nats import NatsServer
from tests.unit.matchmaking_service.fakes import FakeCreator

pytestmark = pytest.mark.integration


async def test_replicas_sharing_a_bucket_never_match_a_ticket_twice(nats_server: NatsServer) -> None:
    buses = [await Bus.connect(nats_server.url, f"replica-{k}") for k in range(2)]
    creator = FakeCreator()
    try:
        replicas = []
        for bus in buses:
            kv, records = await open_bucket(bus.js), await open_bucket(bus.js, TICKETS_BUCKET, 3600.0)
            queue = Documents(kv, "queue", QueueDoc)
            closed = Documents(records, "ticket", TicketEntry)
            ratings = Ratings(Documents(kv, "ledger", Ledger))
            replicas.append(Queues(queue, closed, ratings, creator, MatchPolicy()))  # type: ignore[arg-type]
        players = [f"p{k}" for k in range(30)]
        for k, player in enumerate(players):  # enqueued through both replicas, interleaved with passes
            await replicas[k % 2].enqueue("high-card", "", [player], player, allow_bots=False, pool="")
            if k % 5 == 4:
                await asyncio.gather(*(r.pass_once("high-card") for r in replicas))
        for _ in range(3):
            await asyncio.gather(*(r.pass_once("high-card") for r in replicas))
        doc, _ = await replicas[0].docs.get("high-card")  # type: ignore[misc]
        assert not doc.tickets and not doc.pending
        seated = sorted(s.account_id for m in creator.created.values() for s in m.seats)
        assert seated == sorted(players) and len(creator.created) == 15
    finally:
        for bus in buses:
            await bus.close()
