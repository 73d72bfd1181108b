"""A client's deadline travels through the gateway to the rules replica and on to persistence, shrinking at each hop,
and a call that runs out of its client's short budget never marks a healthy replica dead (issue 37).

A real gateway (and, in the first tests, real rules replicas) over loopback gRPC, in front of fake persistence
services that note the deadline each call arrived with and can be made slow, and fake rules replicas that can hang.
The match is a public running one, read anonymously with GetMatch: the gateway reads its record from persistence,
then its head from the owner (GetHead), which loads it from its own persistence."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest

from gamehall.internal.v1 import live_pb2, live_pb2_grpc, persistence_pb2_grpc
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches.routing import rank_replicas
from gamehall.runtime.settings import Settings
from gamehall_sdk.v1 import match_pb2, match_pb2_grpc
from gamehall_services.gateway.app import build_app as gateway_app
from gamehall_services.rules.app import build_app as rules_app
from tests.support.nats import NatsServer

pytestmark = pytest.mark.integration
KEY = "deadlines-test-key-0123456789-abcdefghijkl"
GAME = "grimmoir"
CLIENT_DEADLINE = 1.5


@dataclass
class FakeStore(persistence_pb2_grpc.PersistenceServiceServicer):
    """Persistence as far as these calls need it: the match's record, and a LoadMatchState that answers NOT_FOUND
    (after `slow` seconds, when set). Notes each call's remaining deadline by method."""

    slow: float = 0.0
    seen: dict[str, list[float | None]] = field(default_factory=dict)

    def _note(self, method: str, context: Any) -> None:
        self.seen.setdefault(method, []).append(context.time_remaining())

    async def CreateAccount(self, request: ppb.CreateAccountRequest, context: Any) -> ppb.CreateAccountResponse:
        await context.abort(grpc.StatusCode.ALREADY_EXISTS, "the operator account exists")  # the gateway's bootstrap
        raise AssertionError("unreachable")

    async def GetMatch(self, request: ppb.GetMatchRequest, context: Any) -> ppb.GetMatchResponse:
        self._note("GetMatch", context)
        return ppb.GetMatchResponse(
            match=ppb.MatchRecord(
                id=request.match_id, game=GAME, status="running", public=True, config_json="{}", version=3
            )
        )

    async def LoadMatchState(self, request: ppb.LoadMatchStateRequest, context: Any) -> ppb.LoadMatchStateResponse:
        self._note("LoadMatchState", context)
        if self.slow:
            await asyncio.sleep(self.slow)
        await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id}")
        raise AssertionError("unreachable")


@dataclass
class FakeOwner(live_pb2_grpc.LiveMatchServiceServicer):
    """A rules replica's GetHead that hangs `slow` seconds when set, counting its calls and noting their deadlines."""

    slow: float = 0.0
    calls: int = 0
    given: list[float | None] = field(default_factory=list)

    async def GetHead(self, request: live_pb2.GetHeadRequest, context: Any) -> live_pb2.GetHeadResponse:
        self.calls += 1
        self.given.append(context.time_remaining())
        if self.slow:
            await asyncio.sleep(self.slow)
        return live_pb2.GetHeadResponse(version=3, status="running")


@contextlib.asynccontextmanager
async def serving(servicer: Any, add: Any) -> AsyncIterator[str]:
    server = grpc.aio.server()
    add(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        await server.stop(0)


@contextlib.asynccontextmanager
async def gateway(store: str, replicas: list[str], tmp_path: Path, nats_url: str) -> AsyncIterator[Any]:
    settings = Settings(
        service="gateway",
        grpc_port=0,
        data_dir=tmp_path,
        persistence_addr=store,
        nats_url=nats_url,
        token_key=KEY,
        rules_addrs={GAME: ",".join(replicas)},
        grace_seconds=1,
    )
    app = gateway_app(settings)
    port = await app.start(metrics=False)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield match_pb2_grpc.MatchServiceStub(channel)
    finally:
        await app.stop()


@contextlib.asynccontextmanager
async def rules_replica(store: str, tmp_path: Path, nats_url: str) -> AsyncIterator[str]:
    settings = Settings(
        service=f"rules-{GAME}",
        game=GAME,
        grpc_port=0,
        data_dir=tmp_path,
        persistence_addr=store,
        nats_url=nats_url,
        grace_seconds=1,
    )
    app = rules_app(settings)
    port = await app.start(metrics=False)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        await app.stop()


@contextlib.asynccontextmanager
async def two_owners(
    front_store: FakeStore, owner_store: FakeStore, other_store: FakeStore, tmp_path: Path, nats_url: str
) -> AsyncIterator[tuple[Any, str]]:
    """A gateway on `front_store` before two real rules replicas, each on its own store; yields the gateway's
    client and a match id the first replica owns."""
    add = persistence_pb2_grpc.add_PersistenceServiceServicer_to_server
    async with (
        serving(front_store, add) as front_addr,
        serving(owner_store, add) as owner_store_addr,
        serving(other_store, add) as other_store_addr,
        rules_replica(owner_store_addr, tmp_path / "a", nats_url) as owner,
        rules_replica(other_store_addr, tmp_path / "b", nats_url) as other,
    ):
        match_id = owned_first(range(1000), owner, other)
        async with gateway(front_addr, [owner, other], tmp_path, nats_url) as front:
            yield front, match_id


def owned_first(match_ids: range, first: str, second: str) -> str:
    """A match id whose owner, by rendezvous rank, is `first`."""
    return next(m for m in (f"match-{n}" for n in match_ids) if rank_replicas(m, [first, second])[0] == first)


async def _get(front: Any, match_id: str, timeout: float | None) -> tuple[grpc.StatusCode, float]:
    started = time.monotonic()
    try:
        await front.GetMatch(match_pb2.GetMatchRequest(match_id=match_id), timeout=timeout)
    except grpc.aio.AioRpcError as exc:
        return exc.code(), time.monotonic() - started
    return grpc.StatusCode.OK, time.monotonic() - started


async def test_a_clients_deadline_reaches_the_replica_and_its_store_as_less(
    tmp_path: Path, nats_server: NatsServer
) -> None:
    front_store, owner_store, other_store = FakeStore(), FakeStore(), FakeStore()
    async with two_owners(front_store, owner_store, other_store, tmp_path, nats_server.url) as (front, match_id):
        code, _ = await _get(front, match_id, CLIENT_DEADLINE)
        assert code == grpc.StatusCode.NOT_FOUND  # the owner's store does not know the match: it answered
        (at_gateway_store,) = front_store.seen["GetMatch"]
        (at_owner_store,) = owner_store.seen["LoadMatchState"]
        assert at_gateway_store is not None and at_owner_store is not None
        assert at_gateway_store < CLIENT_DEADLINE - 0.2, "the gateway's store call ends before the client's"
        assert at_owner_store < at_gateway_store - 0.2, "the owner gives its store less than it was given"
        assert not other_store.seen, "a healthy owner's answer is not failed over"

        # No client deadline: the gateway's own cap (30 s) shrinks to the calls' own 10 s budgets.
        code, _ = await _get(front, match_id, None)
        assert code == grpc.StatusCode.NOT_FOUND
        at_owner_store = owner_store.seen["LoadMatchState"][-1]
        assert at_owner_store is not None and 8.0 < at_owner_store < 10.0


async def test_a_slow_store_fails_the_call_within_its_deadline_and_the_replica_stays_in_routing(
    tmp_path: Path, nats_server: NatsServer
) -> None:
    front_store, owner_store, other_store = FakeStore(), FakeStore(slow=5.0), FakeStore()
    async with two_owners(front_store, owner_store, other_store, tmp_path, nats_server.url) as (front, match_id):
        code, took = await _get(front, match_id, CLIENT_DEADLINE)
        assert code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
        assert took < CLIENT_DEADLINE + 0.1
        owner_store.slow = 0.0
        code, _ = await _get(front, match_id, CLIENT_DEADLINE)
        assert code == grpc.StatusCode.NOT_FOUND
        assert len(owner_store.seen["LoadMatchState"]) == 2, "the owner still serves its match"
        assert not other_store.seen, "the owner was not skipped for its slow store"


async def test_a_hung_call_under_a_clients_short_deadline_does_not_mark_the_replica_dead(
    tmp_path: Path, nats_server: NatsServer
) -> None:
    """The owner hangs past the client's 1.5 s: the client gets DEADLINE_EXCEEDED within it, and the owner, whose
    full 10 s budget never ran out, is still the one the next call goes to."""
    store, hung, spare = FakeStore(), FakeOwner(slow=5.0), FakeOwner()
    async with (
        serving(store, persistence_pb2_grpc.add_PersistenceServiceServicer_to_server) as store_addr,
        serving(hung, live_pb2_grpc.add_LiveMatchServiceServicer_to_server) as owner,
        serving(spare, live_pb2_grpc.add_LiveMatchServiceServicer_to_server) as other,
    ):
        match_id = owned_first(range(1000), owner, other)
        async with gateway(store_addr, [owner, other], tmp_path, nats_server.url) as front:
            code, took = await _get(front, match_id, CLIENT_DEADLINE)
            assert code == grpc.StatusCode.DEADLINE_EXCEEDED and took < CLIENT_DEADLINE + 0.1
            assert (hung.calls, spare.calls) == (1, 0), "no failover: the client's budget was spent"
            hung.slow = 0.0
            code, _ = await _get(front, match_id, CLIENT_DEADLINE)
            assert code == grpc.StatusCode.OK
            assert (hung.calls, spare.calls) == (2, 0), "the owner was not skipped"
            assert all(g is not None and g < CLIENT_DEADLINE - 0.2 for g in hung.given), "the owner got less"
