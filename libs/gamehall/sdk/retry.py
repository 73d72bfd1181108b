"""Bounded retry of idempotent calls while the platform is UNAVAILABLE (a restarting service).

Only calls that are safe to repeat are retried: reads, and writes carrying an idempotency key
(SubmitAction and CreateMatch with the same request id), so a retry never plays twice.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import grpc
from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential

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

    async def run(self, call: Callable[[], Awaitable[T]]) -> T:
        """Await `call()`, again while it fails UNAVAILABLE, at most `attempts` times; re-raise the last error."""
        retrying = AsyncRetrying(
            stop=stop_after_attempt(max(1, self.attempts)),
            wait=wait_exponential(multiplier=self.backoff, max=self.max_backoff),
            retry=retry_if_exception(is_unavailable),
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                return await call()
        raise AssertionError("unreachable: tenacity re-raises the last error")  # pragma: no cover
