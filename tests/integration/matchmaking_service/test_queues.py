"""The service's queues over the real persistence service: one ticket per game per player, cancel, and
two replicas passing at once never put a ticket in two matches (the claim is one transaction that
takes a match's tickets only if all of them are still queued)."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from gamehall.matchmaking import MatchPolicy
from gamehall.matchmaking.errors import AlreadyQueued, UnknownTicket
from gamehall.runtime.errors import ClientError, lookup
from gamehall_sdk.v1 import match_pb2
from gamehall_services.matchmaking import store_client
from gamehall_services.matchmaking.queues import Queues
from gamehall_services.matchmaking.ratings import Ratings
from gamehall_services.matchmaking.store_client import MatchmakingStore
from tests.integration.matchmaking_service.conftest import Persistence
from tests.integration.matchmaking_service.fakes import FakeCreator

pytestmark = pytest.mark.integration

NOW = 1_000_000.0
GAME, MODE = "high-card", "duel"


def _queues(store: MatchmakingStore, creator: FakeCreator, policy: MatchPolicy | None = None) -> Queues:
    return Queues(store, Ratings(store), creator, policy or MatchPolicy(), clock=lambda: NOW)  # type: ignore[arg-type]


async def _solo(queues: Queues, player: str, *, bots: bool = False) -> str:
    return (await queues.enqueue(GAME, "", [player], player, allow_bots=bots, pool="")).ticket.id


async def test_one_ticket_per_game_per_player_and_cancel(store: MatchmakingStore) -> None:
    queues = _queues(store, FakeCreator())
    ticket = await queues.enqueue(GAME, "", ["ann"], "ann", allow_bots=True, pool="")
    assert ticket.state == "queued" and ticket.ticket.mode == MODE
    with pytest.raises((AlreadyQueued, ClientError)) as refused:  # the library's error, or the store's refusal
        await queues.enqueue(GAME, "", ["ann"], "ann", allow_bots=True, pool="")
    mapped = lookup(refused.value)  # either way the client sees ALREADY_EXISTS
    assert mapped is not None and mapped.code == grpc.StatusCode.ALREADY_EXISTS, repr(refused.value)
    assert ticket.ticket.id in str(refused.value)  # it names the ticket already held
    assert [e.ticket.id for e in await queues.tickets_of("ann", GAME)] == [ticket.ticket.id]

    with pytest.raises(UnknownTicket):  # not the caller's ticket: as if it did not exist
        await queues.cancel(ticket.ticket.id, lambda e: e.submitted_by == "bob")
    cancelled = await queues.cancel(ticket.ticket.id, lambda e: True)
    assert cancelled.state == "cancelled" and cancelled.closed_at > 0
    assert (await queues.get(ticket.ticket.id)).state == "cancelled"  # its record outlives the queue
    with pytest.raises(UnknownTicket):
        await queues.cancel(ticket.ticket.id, lambda e: True)
    with pytest.raises(UnknownTicket):
        await queues.get("tk-none")
    again = await queues.enqueue(GAME, "", ["ann"], "ann", allow_bots=True, pool="")
    assert again.ticket.id != ticket.ticket.id and again.state == "queued"
    assert [t.id for t in await store.queued(GAME, MODE)] == [again.ticket.id]


async def test_two_replicas_never_match_a_ticket_twice(persistence: Persistence) -> None:
    creator = FakeCreator()
    first, second = _queues(persistence.store(), creator), _queues(persistence.store(), creator)
    players = [f"p{k:02d}" for k in range(40)]
    tickets = [await _solo(first, p) for p in players]

    # Both replicas read the queue before either claims: they propose the same matches and race for them.
    both_read = asyncio.Barrier(2)
    proposed: list[int] = []
    claimed: list[int] = []
    for replica in (first, second):
        store = replica.store
        read, claim = store.queued, store.claim

        async def queued(game: str, mode: str, read=read) -> list:  # type: ignore[no-untyped-def,type-arg]
            waiting = await read(game, mode)
            await both_read.wait()
            return waiting

        async def claiming(game: str, proposals, claim=claim) -> set[str]:  # type: ignore[no-untyped-def]
            got = await claim(game, proposals)
            proposed.append(len(proposals))
            claimed.append(len(got))
            return got

        store.queued, store.claim = queued, claiming  # type: ignore[method-assign]

    made = await asyncio.gather(first.pass_once(GAME), second.pass_once(GAME))
    assert proposed == [20, 20]  # the replicas did race for the same tickets...
    assert sum(claimed) == 20 and sum(made) == 20  # ...and each match was claimed by one of them only
    for replica in (first, second):  # a second pass finds nothing left
        del replica.store.queued, replica.store.claim
    assert list(await asyncio.gather(first.pass_once(GAME), second.pass_once(GAME))) == [0, 0]

    assert await first.store.queued(GAME, MODE) == [] and await first.store.pending(GAME) == []
    seated = [s.account_id for m in creator.created.values() for s in m.seats]
    assert sorted(seated) == players  # everyone seated exactly once
    assert len(creator.created) == 20
    records = [await second.get(t) for t in tickets]
    assert {r.state for r in records} == {"matched"}
    by_match: dict[str, list[int]] = {}
    for entry in records:
        by_match.setdefault(entry.match_id, []).extend(entry.seats)
    assert set(by_match) == {m.id for m in creator.created.values()}
    assert all(sorted(seats) == [0, 1] for seats in by_match.values())
    for entry in records:  # each ticket's seat holds its own player
        match = creator.match(entry.match_id)
        assert [match.seats[s].account_id for s in entry.seats] == [entry.ticket.members[0].player]


async def test_a_ticket_cancelled_while_a_pass_proposes_it_is_not_matched(store: MatchmakingStore) -> None:
    creator = FakeCreator()
    queues = _queues(store, creator)
    ann, bob = await _solo(queues, "ann"), await _solo(queues, "bob")
    claim = store.claim

    async def cancel_first(game: str, proposals) -> set[str]:  # type: ignore[no-untyped-def]
        assert [sorted(p.match.tickets) for p in proposals] == [sorted([ann, bob])]
        await queues.cancel(bob, lambda e: True)  # bob leaves between the read and the claim
        return await claim(game, proposals)

    store.claim = cancel_first  # type: ignore[method-assign]
    assert await queues.pass_once(GAME) == 0
    assert creator.calls == 0 and await store.pending(GAME) == []
    assert (await queues.get(ann)).state == "queued" and (await queues.get(bob)).state == "cancelled"
    assert [t.id for t in await store.queued(GAME, MODE)] == [ann]


async def test_a_matching_ticket_can_no_longer_be_cancelled(store: MatchmakingStore) -> None:
    creator = FakeCreator(refuse=grpc.StatusCode.UNAVAILABLE)  # the gateway is away: the match stays pending
    queues = _queues(store, creator)
    ids = [await _solo(queues, p) for p in ("ann", "bob")]
    with pytest.raises(grpc.aio.AioRpcError):
        await queues.pass_once(GAME)
    assert {(await queues.get(t)).state for t in ids} == {"matching"}
    with pytest.raises(UnknownTicket):
        await queues.cancel(ids[0], lambda e: True)
    assert (await queues.get(ids[0])).state == "matching"
    creator.refuse = None  # the gateway is back: the next pass creates the same match
    await queues.pass_once(GAME)
    assert {(await queues.get(t)).state for t in ids} == {"matched"} and len(creator.created) == 1


async def test_a_pending_match_left_by_a_crash_is_created_once_by_the_next_pass(store: MatchmakingStore) -> None:
    creator = FakeCreator()
    queues = _queues(store, creator)
    ids = [await _solo(queues, p) for p in "ab"]

    async def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("killed after the claim")

    original = queues._create_all
    queues._create_all = crash  # type: ignore[assignment,method-assign]
    with pytest.raises(RuntimeError):
        await queues.pass_once(GAME)
    pending = await store.pending(GAME)
    assert len(pending) == 1 and sorted(pending[0].match.tickets) == sorted(ids)
    assert {(await queues.get(t)).state for t in ids} == {"matching"}
    assert await store.queued(GAME, MODE) == []
    queues._create_all = original  # type: ignore[method-assign]
    await queues.pass_once(GAME)
    await queues.pass_once(GAME)
    assert await store.pending(GAME) == [] and await store.queued(GAME, MODE) == []
    assert len(creator.created) == 1
    assert {(await queues.get(t)).match_id for t in ids} == {"m1"}
    assert {(await queues.get(t)).state for t in ids} == {"matched"}


async def test_a_refused_match_cancels_its_tickets(store: MatchmakingStore) -> None:
    creator = FakeCreator(refuse=grpc.StatusCode.FAILED_PRECONDITION)
    queues = _queues(store, creator)
    ids = [await _solo(queues, p) for p in ("ann", "bob")]
    await queues.pass_once(GAME)  # a refusal is not a failure of the pass
    assert creator.calls == 1 and not creator.created
    closed = [await queues.get(t) for t in ids]
    assert {e.state for e in closed} == {"cancelled"} and {e.match_id for e in closed} == {""}
    assert await store.pending(GAME) == [] and await store.queued(GAME, MODE) == []
    await queues.pass_once(GAME)
    assert creator.calls == 1  # nothing is retried
    creator.refuse = None
    await _solo(queues, "ann")  # their queue places are free again
    await _solo(queues, "bob")
    assert await queues.pass_once(GAME) == 1 and len(creator.created) == 1


async def test_a_lone_ticket_gets_a_bot_seat_after_the_wait(store: MatchmakingStore) -> None:
    creator = FakeCreator()
    queues = _queues(store, creator, MatchPolicy(bot_fill_after=5.0))
    ticket = await _solo(queues, "solo", bots=True)
    assert await queues.pass_once(GAME) == 0
    assert (await queues.get(ticket)).state == "queued"
    queues.clock = lambda: NOW + 6
    assert await queues.pass_once(GAME) == 1
    (match,) = creator.created.values()
    assert sorted(s.kind for s in match.seats) == [match_pb2.SEAT_KIND_HUMAN, match_pb2.SEAT_KIND_BOT]  # held
    entry = await queues.get(ticket)
    assert entry.state == "matched" and entry.match_id == match.id
    assert [match.seats[s].account_id for s in entry.seats] == ["solo"]


async def test_a_queue_longer_than_a_page_is_read_once_per_ticket(
    store: MatchmakingStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No document size limit any more: the queue is read a page at a time (every ticket here has the
    same enqueue time, so paging relies on the id tie-break), each ticket exactly once."""
    monkeypatch.setattr(store_client, "PAGE", 4)
    creator = FakeCreator()
    queues = _queues(store, creator)
    players = [f"p{k:02d}" for k in range(22)]
    ids = [await _solo(queues, p) for p in players]
    waiting = [t.id for t in await store.queued(GAME, MODE)]
    assert sorted(waiting) == sorted(ids)  # each ticket once (no repeats at page boundaries)
    assert await queues.pass_once(GAME) == 11  # every match claimed in one pass
    for _ in range(3):  # pending matches are created a page at a time too
        await queues.pass_once(GAME)
    assert await store.pending(GAME) == [] and await store.queued(GAME, MODE) == []
    seated = sorted(s.account_id for m in creator.created.values() for s in m.seats)
    assert seated == players  # everyone seated, once


async def test_proposals_are_claimed_in_batches_each_match_once(
    store: MatchmakingStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_client, "CLAIM_BATCH", 3)
    creator = FakeCreator()
    queues = _queues(store, creator)
    players = [f"p{k:02d}" for k in range(22)]
    for p in players:
        await _solo(queues, p)
    assert await queues.pass_once(GAME) == 11  # four claim transactions: 3 + 3 + 3 + 2
    assert len(creator.created) == 11
    assert sorted(s.account_id for m in creator.created.values() for s in m.seats) == players
    assert await store.queued(GAME, MODE) == [] and await store.pending(GAME) == []
