"""Fakes for the SDK's unit tests: real `AioRpcError`s with a real standard status trailer, and a recording stub."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import grpc
from grpc.aio import AioRpcError, Metadata

from gamehall.runtime.errors import Failure


def rpc_error(code: grpc.StatusCode, reason: int | None = None, message: str = "", trace_id: str = "") -> AioRpcError:
    """A failed call as grpc.aio raises it; with the server's `grpc-status-details-bin` trailer when `reason`
    is given (as the platform's interceptor builds it)."""
    details = f"grpc says: {message}"
    trailing = Metadata()
    if reason is not None:
        status = Failure(code, details, reason, trace_id=trace_id).grpc_status()
        trailing = Metadata(*status.trailing_metadata)
    return AioRpcError(code, Metadata(), trailing, details=details)


@dataclass
class Recorded:
    request: Any
    metadata: Any
    timeout: float | None


@dataclass
class FakeMethod:
    """An async stub method that raises the queued errors first, then returns `reply`."""

    reply: Any
    errors: list[BaseException] = field(default_factory=list)
    calls: list[Recorded] = field(default_factory=list)

    async def __call__(self, request: Any, *, metadata: Any = None, timeout: float | None = None) -> Any:
        self.calls.append(Recorded(request, metadata, timeout))
        if self.errors:
            raise self.errors.pop(0)
        return self.reply


class FakeStub:
    """Stub attributes are `FakeMethod`s set by the test."""

    def __init__(self, **methods: FakeMethod) -> None:
        for name, method in methods.items():
            setattr(self, name, method)
