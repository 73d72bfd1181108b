"""The harness's access log is quiet when all is well (issue 20, finding 9: every internal RPC was
logged at info): a good call at debug, a client's mistake at info, a fault at warning, a slow call at
info; and a refused request's message is cut short."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
import structlog

from gamehall.engine import MalformedAction
from gamehall.internal.v1 import diagnostics_pb2, diagnostics_pb2_grpc
from gamehall.runtime import interceptor
from gamehall.runtime.diagnostics import SERVICE_NAME, DiagnosticsServicer
from gamehall.runtime.service import ServiceApp
from gamehall.runtime.settings import Settings


class _Echo(DiagnosticsServicer):
    async def Echo(self, request: Any, context: Any) -> Any:
        if request.payload == b"bad":
            raise MalformedAction("no such action kind " + "x" * 5000)
        if request.payload == b"boom":
            raise RuntimeError("bug")
        if request.payload == b"slow":
            await asyncio.sleep(0.05)
        return await super().Echo(request, context)


@pytest.fixture
async def echo() -> AsyncIterator[diagnostics_pb2_grpc.DiagnosticsServiceStub]:
    app = ServiceApp(Settings(service="log-levels", grpc_port=0, grace_seconds=1), diagnostics=False)
    app.add_servicer(diagnostics_pb2_grpc.add_DiagnosticsServiceServicer_to_server, _Echo(), SERVICE_NAME)
    port = await app.start(metrics=False)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield diagnostics_pb2_grpc.DiagnosticsServiceStub(channel)
    await app.stop()


async def _level_of(stub: diagnostics_pb2_grpc.DiagnosticsServiceStub, payload: bytes) -> str:
    with structlog.testing.capture_logs() as logs:
        with contextlib.suppress(grpc.aio.AioRpcError):
            await stub.Echo(diagnostics_pb2.EchoRequest(payload=payload))
        for _ in range(100):  # the access line is written after the status is sent
            if any(e["event"] == "rpc" for e in logs):
                break
            await asyncio.sleep(0.01)
    return next(e["log_level"] for e in logs if e["event"] == "rpc")


async def test_access_log_levels(echo: diagnostics_pb2_grpc.DiagnosticsServiceStub, monkeypatch: Any) -> None:
    assert await _level_of(echo, b"fine") == "debug"
    assert await _level_of(echo, b"bad") == "info"
    assert await _level_of(echo, b"boom") == "warning"
    monkeypatch.setattr(interceptor, "SLOW_SECONDS", 0.01)
    assert await _level_of(echo, b"slow") == "info"


async def test_a_long_error_message_is_cut(echo: diagnostics_pb2_grpc.DiagnosticsServiceStub) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await echo.Echo(diagnostics_pb2.EchoRequest(payload=b"bad"))
    assert len(caught.value.details() or "") <= interceptor.MAX_MESSAGE_CHARS


def test_a_call_ended_in_another_context_still_counts_and_ends_quietly() -> None:
    """A streaming handler abandoned by its client is closed by asyncio's async-generator finalizer in a task of
    its own, so its bookkeeping ends in a context other than the one it began in (that raised ValueError)."""
    meters = interceptor._Meters("log-levels", "/test.Service/Stream")
    call = interceptor._Call(meters, "/test.Service/Stream", "trace", None, streaming=True)
    before = meters.in_flight._value.get()
    contextvars.copy_context().run(call.__enter__)
    contextvars.copy_context().run(call.__exit__, None, None, None)
    assert meters.in_flight._value.get() == before
