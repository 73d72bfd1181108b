"""Bounded retry, with exponential backoff, of idempotent calls while the platform is UNAVAILABLE (a restarting
service), and of changes refused with ABORTED where nothing was written (lost compare-and-swaps).

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
    return _code_of(exc) is grpc.StatusCode.UNAVAILABLE


def _code_of(exc: BaseException) -> grpc.StatusCode | None:
    code = getattr(exc, "code", None)
    found = code() if isinstance(exc, grpc.RpcError) and callable(code) else None
    return found if isinstance(found, grpc.StatusCode) else None


RETRY_ON_UNAVAILABLE = frozenset({grpc.StatusCode.UNAVAILABLE})
"""Safe for any idempotent call: the server may not have seen it."""
RETRY_ON_ABORTED = frozenset({grpc.StatusCode.ABORTED})
"""Safe for a call the server refuses with ABORTED having written nothing (a change that kept losing a
compare-and-swap to concurrent changes, with no expected version of the client's): the next try may win."""


@dataclass(frozen=True)
class RetryPolicy:
    """How many attempts in all (1: no retry) and the first backoff delay, doubled each time."""

    attempts: int = 4
    backoff: float = 0.1
    max_backoff: float = 2.0

    def delay(self, retry: int) -> float:
        """Seconds to wait before retry number `retry` (1, 2, ...): exponential, capped."""
        return float(min(self.max_backoff, self.backoff * 2 ** (retry - 1)))

    async def run(
        self, call: Callable[[], Awaitable[T]], retry_on: frozenset[grpc.StatusCode] = RETRY_ON_UNAVAILABLE
    ) -> T:
        """Await `call()`, again while it fails with a status in `retry_on`, at most `attempts` times; re-raise the
        last error."""
        attempts = max(1, self.attempts)
        for attempt in range(1, attempts + 1):
            try:
                return await call()
            except Exception as exc:
                if attempt == attempts or _code_of(exc) not in retry_on:
                    raise
            await asyncio.sleep(self.delay(attempt))
        raise AssertionError("unreachable: the last attempt returns or raises")  # pragma: no cover
