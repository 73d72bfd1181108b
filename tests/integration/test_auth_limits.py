"""Login and Register are limited per address and per username with backoff, and registration is open,
by invite or by operators only (issue 20, finding 6). A real gateway and persistence in process, over
loopback gRPC, with a real nats-server."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import grpc
import pytest

from gamehall.runtime.settings import Settings
from gamehall_sdk import Gamehall
from gamehall_sdk.v1 import auth_pb2, auth_pb2_grpc
from gamehall_services.gateway.app import build_app as gateway_app
from gamehall_services.persistence.app import build_app as persistence_app
from tests.support.nats import NatsServer

pytestmark = pytest.mark.integration
KEY = "auth-limits-test-key-0123456789-abcdefghijkl"
OPERATOR = "operator password 2026"
PASSWORD = "a long passphrase 42"
Gateway = Callable[..., contextlib.AbstractAsyncContextManager["Gate"]]


class Gate(auth_pb2_grpc.AuthServiceStub):
    """The AuthService of a running gateway, and its address (for the SDK)."""

    def __init__(self, channel: grpc.aio.Channel, address: str) -> None:
        super().__init__(channel)
        self.address = address


@pytest.fixture
async def gateway(tmp_path: Path, nats_server: NatsServer) -> AsyncIterator[Gateway]:
    """A factory: a gateway with the given settings in front of one shared persistence service."""
    store = persistence_app(
        Settings(
            service="persistence",
            grpc_port=0,
            database_url=f"sqlite://{tmp_path / 'db'}",
            data_dir=tmp_path,
            grace_seconds=1,
        ),
        publish=False,
    )
    store_port = await store.start(metrics=False)

    @contextlib.asynccontextmanager
    async def start(**overrides: Any) -> AsyncIterator[Gate]:
        settings = Settings(
            service="gateway",
            grpc_port=0,
            data_dir=tmp_path,
            persistence_addr=f"127.0.0.1:{store_port}",
            nats_url=nats_server.url,
            token_key=KEY,
            operator_password=OPERATOR,
            grace_seconds=1,
            **overrides,
        )
        app = gateway_app(settings)
        port = await app.start(metrics=False)
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                yield Gate(channel, f"127.0.0.1:{port}")
        finally:
            await app.stop()

    try:
        yield start
    finally:
        await store.stop()


async def _code(call: Any) -> grpc.StatusCode:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    return caught.value.code()


def _register(name: str, code: str = "") -> auth_pb2.RegisterRequest:
    return auth_pb2.RegisterRequest(username=name, password=PASSWORD, invite_code=code)


async def test_registrations_per_address_are_limited(gateway: Gateway) -> None:
    async with gateway(auth_register_per_ip="3/minute") as auth:
        for k in range(3):
            await auth.Register(_register(f"reg-{k}"))
        assert await _code(auth.Register(_register("reg-3"))) == grpc.StatusCode.RESOURCE_EXHAUSTED


async def test_failed_logins_back_off_per_username(gateway: Gateway) -> None:
    async with gateway(auth_free_failures=2) as auth:
        await auth.Register(_register("victim"))
        wrong = auth_pb2.LoginRequest(username="victim", password="not the password")
        right = auth_pb2.LoginRequest(username="victim", password=PASSWORD)
        for _ in range(2):
            assert await _code(auth.Login(wrong)) == grpc.StatusCode.UNAUTHENTICATED
        with pytest.raises(grpc.aio.AioRpcError) as waiting:
            await auth.Login(right)  # even the right password waits out the backoff
        assert waiting.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "retry in 1 s" in waiting.value.details()
        await auth.Login(auth_pb2.LoginRequest(username="operator", password=OPERATOR))  # others are not held
        await asyncio.sleep(1.1)
        assert (await auth.Login(right)).account.username == "victim"
        assert await _code(auth.Login(wrong)) == grpc.StatusCode.UNAUTHENTICATED  # success cleared the count


async def test_login_attempts_per_username_and_per_address_are_limited(gateway: Gateway) -> None:
    async with gateway(auth_login_per_username="3/minute", auth_login_per_ip="5/minute") as auth:
        await auth.Register(_register("target"))
        unknown = auth_pb2.LoginRequest(username="target", password="guess guess guess")
        for _ in range(3):
            assert await _code(auth.Login(unknown)) == grpc.StatusCode.UNAUTHENTICATED
        assert await _code(auth.Login(unknown)) == grpc.StatusCode.RESOURCE_EXHAUSTED
        other = auth_pb2.LoginRequest(username="nobody-here", password="guess guess guess")
        assert await _code(auth.Login(other)) == grpc.StatusCode.UNAUTHENTICATED  # 5th from this address
        assert await _code(auth.Login(other)) == grpc.StatusCode.RESOURCE_EXHAUSTED  # 6th


async def test_invite_only_registration(gateway: Gateway) -> None:
    async with gateway(registration="invite", registration_invite_codes="alpha-7,beta-9") as auth:
        assert await _code(auth.Register(_register("nocode"))) == grpc.StatusCode.PERMISSION_DENIED
        assert await _code(auth.Register(_register("badcode", "alpha"))) == grpc.StatusCode.PERMISSION_DENIED
        assert (await auth.Register(_register("invited", "beta-9"))).account.username == "invited"
        async with Gamehall.connect(auth.address) as hall:  # the SDK passes the code along
            assert (await hall.register("sdk-invited", PASSWORD, invite_code="alpha-7")).username == "sdk-invited"


async def test_operator_only_registration(gateway: Gateway) -> None:
    async with gateway(auth_register_per_ip="100/minute") as open_auth:
        player = await open_auth.Register(_register("earlybird"))
    async with gateway(registration="operator-only") as auth:
        assert await _code(auth.Register(_register("walkin"))) == grpc.StatusCode.UNAUTHENTICATED
        as_player = (("authorization", f"Bearer {player.token}"),)
        assert await _code(auth.Register(_register("walkin"), metadata=as_player)) == grpc.StatusCode.PERMISSION_DENIED
        op = await auth.Login(auth_pb2.LoginRequest(username="operator", password=OPERATOR))
        made = await auth.Register(_register("walkin"), metadata=(("authorization", f"Bearer {op.token}"),))
        assert made.account.username == "walkin" and made.account.role == auth_pb2.ROLE_PLAYER


async def test_register_retried_with_its_request_id_returns_the_account(gateway: Gateway) -> None:
    """Issue 39 (AIP-155): a Register whose answer was lost is retried with the same request id and password and
    gets the account it made (a new token for it); the same username with another password stays taken, and
    without a request id a second Register is ALREADY_EXISTS as before (a retry counts as a registration attempt
    for the per-address limit)."""
    async with gateway(auth_register_per_ip="100/minute") as auth:
        ask = auth_pb2.RegisterRequest(username="retrier", password=PASSWORD, request_id="reg-1")
        first = await auth.Register(ask)
        again = await auth.Register(ask)
        assert again.account.id == first.account.id and again.token
        other = auth_pb2.RegisterRequest(username="retrier", password="another passphrase 43", request_id="reg-1")
        assert await _code(auth.Register(other)) == grpc.StatusCode.ALREADY_EXISTS
        assert await _code(auth.Register(_register("retrier"))) == grpc.StatusCode.ALREADY_EXISTS
        async with Gamehall.connect(auth.address) as hall:
            account = await hall.register("sdk-retrier", PASSWORD, request_id="sdk-1")
            assert (await hall.register("sdk-retrier", PASSWORD, request_id="sdk-1")).id == account.id
