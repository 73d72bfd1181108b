"""CreateMatch, JoinMatch and LeaveMatch retried with the same request id each return the first result, also after a
restart of the rules replica that served the first try; another request id is another request (issue 37).

A real persistence (SQLite, with its projector on a real nats-server), a real rules replica and a real gateway, in
process over loopback gRPC; the client calls the public MatchService as a third party would."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest

from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings
from gamehall_sdk.v1 import auth_pb2, auth_pb2_grpc, match_pb2, match_pb2_grpc
from gamehall_services.gateway.app import build_app as gateway_app
from gamehall_services.persistence.app import build_app as persistence_app
from gamehall_services.rules.app import build_app as rules_app
from tests.support.nats import NatsServer

pytestmark = pytest.mark.integration
KEY = "lifecycle-retries-test-key-0123456789-abcdefgh"
GAME = "grimmoir"  # two seats: a second player's join starts the match
PASSWORD = "a long passphrase 42"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Player:
    """One signed-in player's MatchService calls."""

    stub: match_pb2_grpc.MatchServiceStub
    account_id: str
    token: str

    def _meta(self) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {self.token}"),)

    async def create(self, **fields: Any) -> match_pb2.CreateMatchResponse:
        reply: match_pb2.CreateMatchResponse = await self.stub.CreateMatch(
            match_pb2.CreateMatchRequest(game=GAME, **fields), metadata=self._meta(), timeout=10
        )
        return reply

    async def join(self, match_id: str, request_id: str) -> match_pb2.JoinMatchResponse:
        reply: match_pb2.JoinMatchResponse = await self.stub.JoinMatch(
            match_pb2.JoinMatchRequest(match_id=match_id, request_id=request_id), metadata=self._meta(), timeout=10
        )
        return reply

    async def leave(self, match_id: str, request_id: str) -> match_pb2.LeaveMatchResponse:
        reply: match_pb2.LeaveMatchResponse = await self.stub.LeaveMatch(
            match_pb2.LeaveMatchRequest(match_id=match_id, request_id=request_id), metadata=self._meta(), timeout=10
        )
        return reply


@dataclass
class Hall:
    player: Callable[[str], Awaitable[Player]]
    restart_rules: Callable[[], Awaitable[None]]


@pytest.fixture
async def hall(tmp_path: Path, nats_server: NatsServer) -> AsyncIterator[Hall]:
    store = persistence_app(
        Settings(
            service="persistence",
            grpc_port=0,
            database_url=f"sqlite://{tmp_path / 'db'}",
            data_dir=tmp_path,
            nats_url=nats_server.url,
            grace_seconds=1,
        )
    )
    store_addr = f"127.0.0.1:{await store.start(metrics=False)}"
    rules_port = _free_port()
    rules_settings = Settings(
        service=f"rules-{GAME}",
        game=GAME,
        grpc_port=rules_port,
        host="127.0.0.1",
        data_dir=tmp_path,
        persistence_addr=store_addr,
        nats_url=nats_server.url,
        grace_seconds=1,
    )
    rules: list[ServiceApp] = [rules_app(rules_settings)]
    await rules[0].start(metrics=False)
    gateway = gateway_app(
        Settings(
            service="gateway",
            grpc_port=0,
            data_dir=tmp_path,
            persistence_addr=store_addr,
            nats_url=nats_server.url,
            token_key=KEY,
            rules_addrs={GAME: f"127.0.0.1:{rules_port}"},
            grace_seconds=1,
        )
    )
    address = f"127.0.0.1:{await gateway.start(metrics=False)}"
    channel = grpc.aio.insecure_channel(address)

    async def player(name: str) -> Player:
        registered = await auth_pb2_grpc.AuthServiceStub(channel).Register(
            auth_pb2.RegisterRequest(username=name, password=PASSWORD), timeout=10
        )
        return Player(match_pb2_grpc.MatchServiceStub(channel), registered.account.id, registered.token)

    async def restart_rules() -> None:
        """The replica that served the first tries stops (its memory gone); a new one serves at the same address."""
        await rules[0].stop()
        rules[0] = rules_app(rules_settings)
        await rules[0].start(metrics=False)

    try:
        yield Hall(player, restart_rules)
    finally:
        await channel.close()
        await gateway.stop()
        with contextlib.suppress(Exception):
            await rules[0].stop()
        await store.stop()


def _seated(match: match_pb2.Match, account_id: str) -> list[int]:
    return [s.seat for s in match.seats if s.account_id == account_id and s.kind == match_pb2.SEAT_KIND_HUMAN]


async def test_a_retried_create_returns_the_first_match(hall: Hall) -> None:
    alice = await hall.player("alice")
    first = await alice.create(request_id="create-1", join_seat=0)
    assert await alice.create(request_id="create-1", join_seat=0) == first
    await hall.restart_rules()
    assert await alice.create(request_id="create-1", join_seat=0) == first, "no second match after a restart"
    other = await alice.create(request_id="create-2", join_seat=0)
    assert other.match.id != first.match.id, "another request id is another match"
    bob = await hall.player("bob")
    theirs = await bob.create(request_id="create-1")
    assert theirs.match.id != first.match.id, "a request id is scoped to its caller"


async def test_a_retried_join_returns_the_seat_it_took_and_never_joins_twice(hall: Hall) -> None:
    alice, bob = await hall.player("alice"), await hall.player("bob")
    match_id = (await alice.create(request_id="open")).match.id
    first = await bob.join(match_id, "join-1")
    assert _seated(first.match, bob.account_id) == [first.seat]
    assert await bob.join(match_id, "join-1") == first
    await hall.restart_rules()
    assert await bob.join(match_id, "join-1") == first, "the first seat, from the store, after a restart"

    await bob.leave(match_id, "leave-1")
    replayed = await bob.join(match_id, "join-1")
    assert replayed.seat == first.seat and _seated(replayed.match, bob.account_id) == [], "a retry joins nothing"
    again = await bob.join(match_id, "join-2")
    assert _seated(again.match, bob.account_id) == [again.seat], "another request id is another join"
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await bob.join((await alice.create(request_id="second")).match.id, "join-1")
    assert caught.value.code() == grpc.StatusCode.ALREADY_EXISTS, "a join's id names one match"


async def test_a_retried_leave_of_an_open_match_returns_the_first_answer_and_leaves_once(hall: Hall) -> None:
    alice, bob = await hall.player("alice"), await hall.player("bob")
    match_id = (await alice.create(request_id="open")).match.id
    await bob.join(match_id, "join-1")
    first = await bob.leave(match_id, "leave-1")
    assert _seated(first.match, bob.account_id) == [] and first.match.status == match_pb2.MATCH_STATUS_OPEN
    assert await bob.leave(match_id, "leave-1") == first, "a retry is the first answer, not 'you hold no seat'"
    await hall.restart_rules()
    assert await bob.leave(match_id, "leave-1") == first

    seat = (await bob.join(match_id, "join-2")).seat
    kept = await bob.leave(match_id, "leave-1")
    assert _seated(kept.match, bob.account_id) == [seat], "a retry of the old leave does not free the new seat"
    freed = await bob.leave(match_id, "leave-2")
    assert _seated(freed.match, bob.account_id) == [], "another request id is another leave"


async def test_a_retried_leave_of_a_running_match_returns_the_forfeit_it_made(hall: Hall) -> None:
    alice, bob = await hall.player("alice"), await hall.player("bob")
    match_id = (await alice.create(request_id="duel", join_seat=0)).match.id
    joined = await bob.join(match_id, "join-1")
    assert joined.match.status == match_pb2.MATCH_STATUS_RUNNING
    first = await bob.leave(match_id, "resign-1")
    assert first.match.status == match_pb2.MATCH_STATUS_FINISHED
    assert first.match.outcome.ranks[joined.seat] == 2, "the leaver forfeited"
    assert await bob.leave(match_id, "resign-1") == first
    await hall.restart_rules()
    assert await bob.leave(match_id, "resign-1") == first, "the forfeit's record, as projected, after a restart"
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await bob.leave(match_id, "resign-2")
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION, "another request id: the match is over"
