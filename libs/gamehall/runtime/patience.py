"""Waiting out a dependency that is away, instead of dropping work to get unstuck (ARCHITECTURE rule 6).

A durable consumer whose database, peer service or NATS is away holds what it has and tries again with
backoff for as long as it takes. Meanwhile it says so three ways: `gamehall_consumer_waiting{stream,consumer}`
counts the messages it holds waiting, its health service (`gamehall.consumer.<consumer>`, or the name it was
given) is NOT_SERVING, and one log line says what it waits for (another says how long it waited). The
service's overall health ("") stays SERVING: restarting a process cannot bring a database back.

Only a message that can never be processed is dead-lettered; `is_away` tells the two kinds of failure apart.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import grpc
import structlog
from grpc_health.v1 import health_pb2

from gamehall.runtime import metrics

log = structlog.get_logger("gamehall.patience")

AWAY_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
"""gRPC statuses that say the callee (or what it depends on) is away for now, not that the request is wrong."""

BACKOFF_FIRST, BACKOFF_MAX = 0.1, 2.0
"""Seconds before the first retry, doubling to at most this much between retries."""


class DependencyAway(Exception):
    """Raised by a handler to say explicitly: what I need is away; hold the message and retry, never drop it."""


def is_away(exc: BaseException) -> bool:
    """Whether a failure means "a dependency is away for now" (wait and retry) rather than "this message is bad"
    (count it towards the dead letter). Store errors and gRPC statuses say which; so do broken connections."""
    if isinstance(exc, DependencyAway | ConnectionError | TimeoutError):
        return True
    if getattr(exc, "grpc_status", None) == "UNAVAILABLE":  # the store's Unavailable (and the log's)
        return True
    code = getattr(exc, "code", None)
    if callable(code):  # grpc.aio.AioRpcError
        try:
            code = code()
        except Exception:
            return False
    if isinstance(code, grpc.StatusCode):
        return code in AWAY_CODES
    name = type(exc).__name__
    return name in _AWAY_NAMES or (isinstance(exc, OSError) and not isinstance(exc, FileNotFoundError))


_AWAY_NAMES = frozenset(
    {
        "LogUnavailable",  # the match log did not answer
        "NoRespondersError",
        "ServiceUnavailableError",
        "NoStreamResponseError",
        "ConnectionClosedError",
        "ConnectionReconnectingError",
        "StaleConnectionError",
        "OutboundBufferLimitError",
    }
)
"""Exceptions of NATS and of our own log whose classes this module does not import (nats errors derive from
a plain Exception), named so a consumer waits for the server instead of counting them against the message."""


_health: Any = None
_waiting: dict[str, int] = {}
_since: dict[str, float] = {}


def bind_health(health: Any) -> None:
    """The service's gRPC health servicer (`grpc_health.v1.health.aio.HealthServicer`); set by ServiceApp."""
    global _health
    _health = health


async def _set_health(name: str, serving: bool) -> None:
    if _health is None:
        return
    status = health_pb2.HealthCheckResponse.SERVING if serving else health_pb2.HealthCheckResponse.NOT_SERVING
    try:
        await _health.set(name, status)
    except Exception as exc:  # health is a report; it must never stop the work it reports on
        log.warning("health not updated", service=name, error=str(exc))


def health_name(consumer: str) -> str:
    return f"gamehall.consumer.{consumer}"


class Waiter:
    """One consumer's waiting state: `await waiter.wait(exc, beat)` sleeps the next backoff step while
    `beat` keeps held messages alive; `await waiter.resumed()` once the work went through."""

    def __init__(self, stream: str, consumer: str, *, health: str | None = None, beat_every: float = 5.0) -> None:
        self.stream = stream
        self.consumer = consumer
        self.health = health or health_name(consumer)
        self.beat_every = beat_every
        self._attempt = 0

    @property
    def waiting(self) -> bool:
        return self._attempt > 0

    async def wait(self, exc: BaseException, beat: Callable[[], Awaitable[None]] | None = None) -> None:
        """Record that the work failed because a dependency is away, then sleep the next backoff step
        (0.1 s doubling to 2 s), calling `beat` at least every `beat_every` seconds meanwhile."""
        if self._attempt == 0:
            await _begin(self, exc)
        self._attempt += 1
        delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** (self._attempt - 1))
        deadline = time.monotonic() + delay
        while True:
            if beat is not None:
                await beat()
            left = deadline - time.monotonic()
            if left <= 0:
                return
            await asyncio.sleep(min(left, self.beat_every))

    async def resumed(self) -> None:
        if self._attempt == 0:
            return
        self._attempt = 0
        await _end(self)

    async def abandon(self) -> None:
        """Stop waiting without success (the service is stopping): the gauges and health forget this waiter."""
        await self.resumed()


async def _begin(waiter: Waiter, exc: BaseException) -> None:
    key = waiter.health
    _waiting[key] = _waiting.get(key, 0) + 1
    metrics.CONSUMER_WAITING.labels(waiter.stream, waiter.consumer).inc()
    if _waiting[key] == 1:
        _since[key] = time.monotonic()
        log.warning(
            "a dependency is away; holding the work and retrying until it is back",
            stream=waiter.stream,
            consumer=waiter.consumer,
            error=f"{type(exc).__name__}: {exc}"[:300],
        )
        await _set_health(key, serving=False)


async def _end(waiter: Waiter) -> None:
    key = waiter.health
    _waiting[key] = max(0, _waiting.get(key, 0) - 1)
    metrics.CONSUMER_WAITING.labels(waiter.stream, waiter.consumer).dec()
    if _waiting[key] == 0:
        waited = time.monotonic() - _since.pop(key, time.monotonic())
        log.info(
            "the dependency is back; work resumed", stream=waiter.stream, consumer=waiter.consumer, waited_s=waited
        )
        await _set_health(key, serving=True)


async def declare(consumer: str, *, health: str | None = None) -> None:
    """A consumer that is running and not waiting: its health service SERVING (so a probe can name it)."""
    await _set_health(health or health_name(consumer), serving=True)


def waiting_now() -> dict[str, int]:
    """Health names with the number of messages held waiting (for tests and diagnostics)."""
    return {k: v for k, v in _waiting.items() if v}
