"""The harness over real sockets: error mapping, metrics, deadlines, health, reflection, graceful stop."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
import uvloop
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from prometheus_client import REGISTRY

from gamehall.engine import IllegalAction, MalformedAction
from gamehall.internal.v1 import diagnostics_pb2, diagnostics_pb2_grpc
from gamehall.runtime import budget, service
from gamehall.runtime.diagnostics import SERVICE_NAME, DiagnosticsServicer
from gamehall.runtime.errors import read_failure
from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings
from gamehall_sdk.v1 import common_pb2


class Misbehaving(DiagnosticsServicer):
    """Echo that fails on purpose depending on the payload."""

    async def Echo(self, request: Any, context: Any) -> Any:
        p = request.payload
        if p == b"illegal":
            raise IllegalAction("that card is not in your hand")
        if p == b"malformed":
            raise MalformedAction("no such action kind")
        if p == b"boom":
            raise RuntimeError("secret internal detail")
        if p == b"abort":
            await context.abort(grpc.StatusCode.NOT_FOUND, "no such match")
        if p == b"slow":
            await asyncio.sleep(5)
        if p == b"budget":  # what a call made upstream from here may take
            return diagnostics_pb2.EchoResponse(payload=repr(budget.upstream_timeout(10.0)).encode())
        return await super().Echo(request, context)


@pytest.fixture
async def served() -> AsyncIterator[tuple[ServiceApp, grpc.aio.Channel]]:
    app = ServiceApp(
        Settings(service="harness-test", grpc_port=0, grace_seconds=2), default_timeout=0.5, diagnostics=False
    )
    app.add_servicer(diagnostics_pb2_grpc.add_DiagnosticsServiceServicer_to_server, Misbehaving(), SERVICE_NAME)
    port = await app.start(metrics=False)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    yield app, channel
    await channel.close()
    await app.stop()


async def _settled_count(method: str, code: str, expected: float) -> float:
    """The counter, once the server has finished its bookkeeping (it runs after the status is sent)."""
    for _ in range(100):
        if _count(method, code) >= expected:
            break
        await asyncio.sleep(0.01)
    return _count(method, code)


def _count(method: str, code: str) -> float:
    value = REGISTRY.get_sample_value(
        "gamehall_rpc_requests_total", {"service": "harness-test", "method": method, "code": code}
    )
    return value or 0.0


ECHO = "/gamehall.internal.v1.DiagnosticsService/Echo"


async def test_echo_and_metrics(served: tuple[ServiceApp, grpc.aio.Channel]) -> None:
    _, channel = served
    stub = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel)
    before = _count(ECHO, "OK")
    reply = await stub.Echo(diagnostics_pb2.EchoRequest(payload=b"hi"))
    assert reply.payload == b"hi"
    assert await _settled_count(ECHO, "OK", before + 1) == before + 1


@pytest.mark.parametrize(
    ("payload", "code", "reason", "message"),
    [
        (b"illegal", grpc.StatusCode.FAILED_PRECONDITION, common_pb2.ERROR_REASON_ILLEGAL_ACTION, "not in your hand"),
        (b"malformed", grpc.StatusCode.INVALID_ARGUMENT, common_pb2.ERROR_REASON_MALFORMED, "no such action kind"),
        (b"abort", grpc.StatusCode.NOT_FOUND, None, "no such match"),
        (b"slow", grpc.StatusCode.DEADLINE_EXCEEDED, common_pb2.ERROR_REASON_DEADLINE_EXCEEDED, "deadline"),
    ],
)
async def test_errors_get_clear_statuses(
    served: tuple[ServiceApp, grpc.aio.Channel], payload: bytes, code: grpc.StatusCode, reason: int | None, message: str
) -> None:
    _, channel = served
    stub = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel)
    before = _count(ECHO, code.name)
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await stub.Echo(diagnostics_pb2.EchoRequest(payload=payload))
    assert info.value.code() == code
    assert message in info.value.details()
    if reason is not None:
        detail = read_failure(info.value)
        assert detail is not None and detail.reason == reason and detail.trace_id
    assert await _settled_count(ECHO, code.name, before + 1) == before + 1


async def test_unexpected_errors_are_internal_without_details(served: tuple[ServiceApp, grpc.aio.Channel]) -> None:
    _, channel = served
    stub = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel)
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await stub.Echo(diagnostics_pb2.EchoRequest(payload=b"boom"), metadata=(("x-trace-id", "trace-123"),))
    assert info.value.code() == grpc.StatusCode.INTERNAL
    assert "secret internal detail" not in info.value.details()
    assert "trace-123" in info.value.details()


async def test_client_deadline_is_respected(served: tuple[ServiceApp, grpc.aio.Channel]) -> None:
    _, channel = served
    stub = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel)
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await stub.Echo(diagnostics_pb2.EchoRequest(payload=b"slow"), timeout=0.2)
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


async def test_oversize_messages_are_resource_exhausted() -> None:
    app = ServiceApp(Settings(service="harness-small", grpc_port=0, max_message_bytes=2048))
    port = await app.start(metrics=False)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel)
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await stub.Echo(diagnostics_pb2.EchoRequest(payload=b"x" * 10_000))
            assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    finally:
        await app.stop()


async def test_health_and_reflection(served: tuple[ServiceApp, grpc.aio.Channel]) -> None:
    _, channel = served
    health = health_pb2_grpc.HealthStub(channel)
    for name in ("", SERVICE_NAME):
        reply = await health.Check(health_pb2.HealthCheckRequest(service=name))
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
    refl = reflection_pb2_grpc.ServerReflectionStub(channel)
    responses = refl.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
    names = [s.name async for r in responses for s in r.list_services_response.service]
    assert SERVICE_NAME in names and "grpc.health.v1.Health" in names
    assert {"grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"} <= set(names)


async def test_reflection_is_offered_as_v1_too(served: tuple[ServiceApp, grpc.aio.Channel]) -> None:
    """Issue 39: tools ask `grpc.reflection.v1` first (grpcurl, Postman, gRPC UI); v1alpha stays for old ones.
    v1's messages are v1alpha's, field for field, so the v1alpha classes speak v1 here."""
    _, channel = served
    v1 = channel.stream_stream(
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    asked = [
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol=SERVICE_NAME),
    ]
    replies = [r async for r in v1(iter(asked))]
    assert SERVICE_NAME in {s.name for s in replies[0].list_services_response.service}
    assert replies[1].file_descriptor_response.file_descriptor_proto, "the service's file descriptors"


async def test_graceful_stop_finishes_in_flight_calls() -> None:
    app = ServiceApp(
        Settings(service="harness-drain", grpc_port=0, grace_seconds=5), default_timeout=10, diagnostics=False
    )

    class Slow(DiagnosticsServicer):
        async def Echo(self, request: Any, context: Any) -> Any:
            await asyncio.sleep(0.5)
            return await super().Echo(request, context)

    stopped: list[str] = []
    app.add_servicer(diagnostics_pb2_grpc.add_DiagnosticsServiceServicer_to_server, Slow(), SERVICE_NAME)

    @app.on_stop
    async def _record() -> None:
        stopped.append("hook")

    port = await app.start(metrics=False)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel)
        call = asyncio.ensure_future(stub.Echo(diagnostics_pb2.EchoRequest(payload=b"late")))
        await asyncio.sleep(0.1)
        await app.stop()
        assert (await call).payload == b"late"
    assert stopped == ["hook"]


@pytest.mark.parametrize(("name", "loop_type"), [("uvloop", uvloop.Loop), ("asyncio", asyncio.SelectorEventLoop)])
def test_main_runs_on_the_configured_event_loop(
    monkeypatch: pytest.MonkeyPatch, name: str, loop_type: type[asyncio.AbstractEventLoop]
) -> None:
    app = ServiceApp(Settings(service="loop-test", event_loop=name))
    ran_on: list[type[asyncio.AbstractEventLoop]] = []

    async def run_until_signal() -> None:
        ran_on.append(type(asyncio.get_running_loop()))

    monkeypatch.setattr(service, "configure_logging", lambda *args: None)
    monkeypatch.setattr(app, "run_until_signal", run_until_signal)
    app.main()
    assert ran_on == [loop_type]


def test_an_unknown_event_loop_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown event loop"):
        service.event_loop_factory("trio")


def test_the_collector_settles_once_the_service_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    app = ServiceApp(Settings(service="gc-test", gc_young_threshold=5000))
    calls: list[object] = []

    async def start() -> int:
        calls.append("start")
        return 0

    async def stop() -> None:
        calls.append("stop")

    def settle(young_threshold: int) -> None:
        calls.append(("settle", young_threshold))
        app._stopping.set()  # as SIGTERM would

    monkeypatch.setattr(app, "start", start)
    monkeypatch.setattr(app, "stop", stop)
    monkeypatch.setattr(service.collector, "settle", settle)
    asyncio.run(app.run_until_signal())
    assert calls == ["start", ("settle", 5000), "stop"]


async def test_a_nested_call_gets_the_time_left_to_the_call_being_served(
    served: tuple[ServiceApp, grpc.aio.Channel],
) -> None:
    """Issue 36: a call made upstream ends before its caller's deadline (the answer "the store is slow" arrives
    in time, not a deadline that reads as a dead replica); with no client deadline, the service's own default.
    Issue 37: a client deadline longer than the service's own is capped by it (the harness's is 0.5 s)."""
    _, channel = served
    stub = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel)
    given = float((await stub.Echo(diagnostics_pb2.EchoRequest(payload=b"budget"), timeout=0.45)).payload)
    assert 0.1 < given < 0.2  # the client's 0.45 s less the margin for the answer
    capped = float((await stub.Echo(diagnostics_pb2.EchoRequest(payload=b"budget"), timeout=60.0)).payload)
    assert 0.2 < capped <= 0.25  # the service's own 0.5 s less the margin, not the client's minute
    unbounded = float((await stub.Echo(diagnostics_pb2.EchoRequest(payload=b"budget"))).payload)
    assert 0.05 <= unbounded < 0.5  # the harness's default timeout is 0.5 s
    assert budget.upstream_timeout(10.0) == 10.0  # outside any call: its own timeout
