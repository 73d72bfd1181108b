"""PersistenceService over gRPC on SQLite and PostgreSQL: statuses of the store's errors, reads of the action
log the projection wrote, and the outbox relay publishing each committed event to JetStream exactly once."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import grpc
import nats
import pytest

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.runtime.bus import Bus, match_subject
from gamehall.store import OutboxMessage, open_store
from tests.integration.matches.conftest import Served, log_action, serve
from tests.support.nats import NatsServer

CONFIG = json.dumps({"mode": "duel", "seats": 2, "options": {}, "flags": {}})


async def _running_match(stub: object, match_id: str = "") -> ppb.MatchRecord:
    created = await stub.CreateMatch(  # type: ignore[attr-defined]
        ppb.CreateMatchRequest(match_id=match_id, game="high-card", config_json=CONFIG, seed=42, status="running")
    )
    return created.match  # type: ignore[no-any-return]


def _event(match_id: str, n: int) -> ppb.OutboxEntry:
    return ppb.OutboxEntry(subject=match_subject(match_id, "seat_joined"), msg_id=f"{match_id}:{n}", payload=b"p")


async def _code(awaitable: object) -> grpc.StatusCode:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await awaitable  # type: ignore[misc]
    return caught.value.code()  # type: ignore[no-any-return]


async def test_store_errors_map_to_statuses_and_the_log_reads_back(
    persistence: Served, nats_server: NatsServer
) -> None:
    stub = persistence.stub
    match = await _running_match(stub)
    await log_action(persistence, nats_server.url, match.id, 1, "r1", snapshot=b"state-1")
    loaded = await stub.LoadMatchState(ppb.LoadMatchStateRequest(match_id=match.id, request_id="r1"))
    assert loaded.match.version == 1 and loaded.snapshot == b"state-1" and loaded.snapshot_version == 1
    assert loaded.prior.request_id == "r1" and not loaded.actions and loaded.log_seq > 0
    at_zero = await stub.LoadMatchState(ppb.LoadMatchStateRequest(match_id=match.id, at_version=0))
    assert at_zero.snapshot == b"" and not at_zero.actions
    assert await _code(stub.GetMatch(ppb.GetMatchRequest(match_id="nope"))) == grpc.StatusCode.NOT_FOUND
    account = ppb.CreateAccountRequest(username="alice", password_hash="h", role="player")
    await stub.CreateAccount(account)
    assert await _code(stub.CreateAccount(account)) == grpc.StatusCode.ALREADY_EXISTS
    open_match = (await stub.CreateMatch(ppb.CreateMatchRequest(game="high-card", config_json=CONFIG, seed=1))).match
    alice = (await stub.GetAccount(ppb.GetAccountRequest(username="ALICE"))).account
    await stub.ClaimSeat(ppb.ClaimSeatRequest(match_id=open_match.id, seat=0, account_id=alice.id, kind="human"))
    bob = (await stub.CreateAccount(ppb.CreateAccountRequest(username="bob", password_hash="h"))).account
    taken = stub.ClaimSeat(ppb.ClaimSeatRequest(match_id=open_match.id, seat=0, account_id=bob.id, kind="human"))
    assert await _code(taken) == grpc.StatusCode.FAILED_PRECONDITION
    assert await _code(stub.CreateMatch(ppb.CreateMatchRequest(game="g", config_json="[1]"))) == (
        grpc.StatusCode.INVALID_ARGUMENT
    )
    running_close = ppb.CloseMatchRequest(match_id=match.id, status="aborted", expected_version=1)
    assert await _code(stub.CloseMatch(running_close)) == grpc.StatusCode.FAILED_PRECONDITION  # its owner closes it
    assert (await stub.GetMatch(ppb.GetMatchRequest(match_id=match.id))).match.status == "running"
    closed = await stub.CloseMatch(ppb.CloseMatchRequest(match_id=open_match.id, status="aborted"))
    assert closed.match.status == "aborted"  # an open match (a no-show) closes in the store
    assert await _code(stub.ClaimSeat(ppb.ClaimSeatRequest(match_id=open_match.id, seat=1, account_id=bob.id))) == (
        grpc.StatusCode.FAILED_PRECONDITION
    )


async def _stream_ids(url: str, match_id: str) -> list[str]:
    nc = await nats.connect(url)
    try:
        js = nc.jetstream()
        sub = await js.pull_subscribe(match_subject(match_id, ">"), stream="GAMEHALL_MATCHES")
        ids: list[str] = []
        while True:
            try:
                batch = await sub.fetch(100, timeout=1.0)
            except TimeoutError:  # nats' own, or asyncio's from a lingering pull request
                return ids
            for msg in batch:
                ids.append(msg.headers["Nats-Msg-Id"] if msg.headers else "")
                await msg.ack()
    finally:
        await nc.close()


async def test_outbox_is_published_once_even_after_a_crash(
    store_dsn: str, nats_server: NatsServer, tmp_path: Path
) -> None:
    """The stream holds each event once, and so does the wire: JetStream would hide a second publish by
    its msg id, so a plain subscriber counts every publish the relays make, before and after a restart."""
    dsn = store_dsn
    # Before any service runs: a committed event, and one that was published but never marked (a crash).
    store = await open_store(dsn)
    match = await store.create_match(game="high-card", config={"mode": "duel", "seats": 2})
    early = OutboxMessage(subject=match_subject(match.id, "created"), msg_id=f"{match.id}:0:created", payload=b"c")
    await store.enqueue([early])
    bus = await Bus.connect(nats_server.url, "test")
    await bus.ensure_streams()
    await bus.publish(early.subject, early.payload, early.msg_id)  # published, then "crashed" before marking
    await bus.close()
    await store.close()

    wire = await nats.connect(nats_server.url)
    published: list[str] = []

    async def seen(msg: nats.aio.msg.Msg) -> None:
        published.append(msg.headers["Nats-Msg-Id"] if msg.headers else "")

    await wire.subscribe(match_subject(match.id, ">"), cb=seen)
    await wire.flush()
    served = await serve(dsn, nats_server.url, tmp_path)
    try:
        for seat in range(2):  # two writes through the service, each with its event
            claim = ppb.ClaimSeatRequest(match_id=match.id, seat=seat, kind="bot", bot_difficulty="easy")
            claim.outbox.append(_event(match.id, seat + 1))
            await served.stub.ClaimSeat(claim)
        await served.stub.StartMatch(ppb.StartMatchRequest(match_id=match.id, outbox=[_event(match.id, 3)]))
        await asyncio.sleep(0.3)
    finally:
        await served.channel.close()
        await served.app.stop()
    await wire.flush()  # every publish of the first run has reached this subscriber
    expected = [early.msg_id] + [f"{match.id}:{n}" for n in (1, 2, 3)]
    assert published == expected  # the crashed one once more (the stream drops that copy), the rest once
    restarted = await serve(dsn, nats_server.url, tmp_path)  # its start drains what is pending: nothing
    await restarted.channel.close()
    await restarted.app.stop()
    await wire.flush()
    await wire.close()
    assert published == expected, "the restarted relay published already-published events again"

    ids = await _stream_ids(nats_server.url, match.id)
    assert ids == expected
    check = await open_store(dsn)
    try:
        assert await check.pending_outbox() == []
    finally:
        await check.close()


async def test_match_heads_read_many_matches_at_once_and_leave_unknown_ones_out(
    persistence: Served, nats_server: NatsServer
) -> None:
    stub = persistence.stub
    running = await _running_match(stub)
    await log_action(persistence, nats_server.url, running.id, 1, "r1")
    waiting = (await stub.CreateMatch(ppb.CreateMatchRequest(game="high-card", config_json=CONFIG, seed=7))).match
    reply = await stub.GetMatchHeads(ppb.GetMatchHeadsRequest(match_ids=[running.id, "nope", waiting.id, running.id]))
    assert sorted((h.match_id, h.status, h.version) for h in reply.heads) == sorted(
        [(running.id, "running", 1), (waiting.id, "open", 0)]
    )
    assert not (await stub.GetMatchHeads(ppb.GetMatchHeadsRequest())).heads
    too_many = ppb.GetMatchHeadsRequest(match_ids=[f"m{i}" for i in range(501)])
    assert await _code(stub.GetMatchHeads(too_many)) == grpc.StatusCode.INVALID_ARGUMENT
