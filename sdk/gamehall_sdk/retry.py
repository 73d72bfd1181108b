"""Bounded retry of idempotent calls while the platform is UNAVAILABLE (a restarting service).

Only calls that are safe to repeat are retried: reads, and writes carrying an idempotency key
(SubmitAction and CreateMatch with the same request id), so a retry never plays twice. The loop is
written out (a few lines) so that the SDK depends on nothing beyond gRPC and protobuf.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import grpc

T = TypeVar("T")


def is_unavailable(exc: BaseException) -> bool:
    """True for a raw gRPC error with status UNAVAILABLE (the server may not have seen the call)."""
    code = getattr(exc, "code", None)
    return isinstance(exc, grpc.RpcError) and callable(code) and code() == grpc.StatusCode.UNAVAILABLE


@dataclass(frozen=True)
class RetryPolicy:
    """How many attempts in all (1: no retry) and the first backoff delay, doubled each time."""

    attempts: int = 4
    backoff: float = 0.1
    max_backoff: float = 2.0

    def delay(self, retry: int) -> float:
        """Seconds to wait before retry number `retry` (1, 2, ...): exponential, capped."""
        return float(min(self.max_backoff, self.backoff * 2 ** (retry - 1)))

    async def run(self, call: Callable[[], Awaitable[T]]) -> T:
        """Await `call()`, again while it fails UNAVAILABLE, at most `attempts` times; re-raise the last error."""
        attempts = max(1, self.attempts)
        for attempt in range(1, attempts + 1):
            try:
                return await call()
            except Exception as exc:
                if attempt == attempts or not is_unavailable(exc):
                    raise
            await asyncio.sleep(self.delay(attempt))
        raise AssertionError("unreachable: the last attempt returns or raises")  # pragma: no cover
