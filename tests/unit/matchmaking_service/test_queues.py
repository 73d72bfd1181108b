"""The service's queues over a fake KV: one ticket per game per player, and two replicas passing at
once never put a ticket in two matches (the claim is one compare-and-swap of the queue document)."""

from __future__ import annotations

import asyncio

import pytest

from gamehall.matchmaking import Ledger, MatchPolicy
from gamehall.matchmaking.errors import AlreadyQueued, UnknownTicket
from gamehall_services.matchmaking.documents import QueueDoc, TicketEntry
from gamehall_services.matchmaking.kv import Documents
from gamehall_services.matchmaking.queues import Queues
from gamehall_services.matchmaking.ratings import Ratings
from tests.unit.matchmaking_service.fakes import FakeCreator, FakeKV

NOW = 1_000_000.0


def _queues(kv: FakeKV, creator: FakeCreator, policy: MatchPolicy | None = None) -> Queues:
    ratings = Ratings(Documents(kv, "ledger", Ledger))  # type: ignore[arg-type]
    docs = Documents(kv, "queue", QueueDoc)  # type: ignore[arg-type]
    closed = Documents(kv, "ticket", TicketEntry)  # type: ignore[arg-type]
    return Queues(docs, closed, ratings, creator, policy or MatchPolicy(), clock=lambda: NOW)  # type: ignore[arg-type]


def test_one_ticket_per_game_per_player_and_cancel() -> None:
    async def scenario() -> None:
        queues = _queues(FakeKV(), FakeCreator())
        ticket = await queues.enqueue("high-card", "", ["ann"], "ann", allow_bots=True, pool="")
        with pytest.raises(AlreadyQueued):
            await queues.enqueue("high-card", "", ["ann"], "ann", allow_bots=True, pool="")
        cancelled = await queues.cancel(ticket.ticket.id, lambda e: True)
        assert cancelled.state == "cancelled"
        assert (await queues.get(ticket.ticket.id)).state == "cancelled"  # its record outlives the queue
        with pytest.raises(UnknownTicket):
            await queues.cancel(ticket.ticket.id, lambda e: True)
        await queues.enqueue("high-card", "", ["ann"], "ann", allow_bots=True, pool="")

    asyncio.run(scenario())


def test_two_replicas_never_match_a_ticket_twice() -> None:
    async def scenario() -> None:
        kv, creator = FakeKV(), FakeCreator()
        first, second = _queues(kv, creator), _queues(kv, creator)
        players = [f"p{k}" for k in range(40)]
        tickets = []
        for p in players:
            tickets.append((await first.enqueue("high-card", "", [p], p, allow_bots=False, pool="")).ticket.id)
        await asyncio.gather(first.pass_once("high-card"), second.pass_once("high-card"))
        await asyncio.gather(first.pass_once("high-card"), second.pass_once("high-card"))
        assert kv.conflicts > 0  # the replicas did race for the same document
        doc = (await first.docs.get("high-card"))[0]  # type: ignore[index]
        assert not doc.tickets and not doc.pending  # every ticket left the queue
        seated = [s.account_id for m in creator.created.values() for s in m.seats]
        assert sorted(seated) == sorted(players)  # everyone seated exactly once
        assert len(creator.created) == 20
        records = [(await first.closed.get(t))[0] for t in tickets]  # type: ignore[index]
        assert {r.state for r in records} == {"matched"}
        by_match: dict[str, list[int]] = {}
        for entry in records:
            by_match.setdefault(entry.match_id, []).extend(entry.seats)
        assert all(sorted(seats) == [0, 1] for seats in by_match.values())

    asyncio.run(scenario())


def test_a_pending_match_left_by_a_crash_is_created_once_by_the_next_pass() -> None:
    async def scenario() -> None:
        kv, creator = FakeKV(), FakeCreator()
        queues = _queues(kv, creator)
        ids = [(await queues.enqueue("high-card", "", [p], p, allow_bots=False, pool="")).ticket.id for p in "ab"]

        async def crash(*args: object, **kwargs: object) -> None:
            raise RuntimeError("killed after the claim")

        original = queues._create_all
        queues._create_all = crash  # type: ignore[assignment,method-assign]
        with pytest.raises(RuntimeError):
            await queues.pass_once("high-card")
        doc = (await queues.docs.get("high-card"))[0]  # type: ignore[index]
        assert len(doc.pending) == 1 and {e.state for e in doc.tickets.values()} == {"matching"}
        queues._create_all = original  # type: ignore[method-assign]
        await queues.pass_once("high-card")
        await queues.pass_once("high-card")
        doc = (await queues.docs.get("high-card"))[0]  # type: ignore[index]
        assert not doc.pending and not doc.tickets and len(creator.created) == 1
        assert {(await queues.get(t)).match_id for t in ids} == {"m1"}

    asyncio.run(scenario())


def test_a_lone_ticket_gets_a_bot_seat_after_the_wait() -> None:
    async def scenario() -> None:
        creator = FakeCreator()
        queues = _queues(FakeKV(), creator, MatchPolicy(bot_fill_after=5.0))
        await queues.enqueue("high-card", "", ["solo"], "solo", allow_bots=True, pool="")
        assert await queues.pass_once("high-card") == 0
        queues.clock = lambda: NOW + 6
        assert await queues.pass_once("high-card") == 1
        (match,) = creator.created.values()
        assert sorted(s.kind for s in match.seats) == ["bot", "reserved"]

    asyncio.run(scenario())


def test_a_queue_document_at_its_size_limit_refuses_new_tickets(monkeypatch: pytest.MonkeyPatch) -> None:
    from gamehall_services.matchmaking import kv as kv_module

    monkeypatch.setattr(kv_module, "MAX_DOCUMENT_BYTES", 1500)

    async def scenario() -> None:
        queues = _queues(FakeKV(), FakeCreator())
        with pytest.raises(kv_module.DocumentFull):
            for k in range(50):
                await queues.enqueue("high-card", "", [f"p{k}"], f"p{k}", allow_bots=False, pool="")

    asyncio.run(scenario())
