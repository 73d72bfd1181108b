"""The NATS JetStream bus: streams declared in one place, deduplicated publishes, durable consumers.

- `STREAMS` is the whole event topology; `Bus.ensure_streams` creates or updates it
  idempotently at start, so any replica may run it.
- `publish` sets ``Nats-Msg-Id``: JetStream drops a second message with the same id inside
  the stream's duplicate window (the outbox relies on it for exactly-once events).
- `consume` runs a durable pull consumer with explicit acks: a message is acked only after
  the handler succeeded, otherwise it is redelivered (after `ack_wait`, or at once on nak).
- `close` drains: pending publishes are flushed and subscriptions finish their messages.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import nats
import structlog
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout
from nats.js import JetStreamContext, api
from nats.js.errors import NotFoundError, ServiceUnavailableError
from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_delay, wait_exponential

from gamehall.runtime import metrics

log = structlog.get_logger("gamehall.bus")

SUBJECT_ROOT = "gamehall.v1"


def match_subject(match_id: str, event: str) -> str:
    return f"{SUBJECT_ROOT}.match.{match_id}.{event}"


def turn_subject(game: str) -> str:
    return f"{SUBJECT_ROOT}.turn.{game}"


def view_subject(match_id: str, seat: int | None) -> str:
    """Core NATS (no stream): the views a match's owner pushes to one audience after each step."""
    return f"{SUBJECT_ROOT}.view.{match_id}.{'spectator' if seat is None else f'seat-{seat}'}"


@dataclass(frozen=True)
class StreamSpec:
    name: str
    subjects: tuple[str, ...]
    retention: api.RetentionPolicy = api.RetentionPolicy.LIMITS
    max_age_seconds: float = 7 * 24 * 3600
    duplicate_window_seconds: float = 300.0
    description: str = ""

    def config(self, replicas: int = 1) -> api.StreamConfig:
        """File storage, `replicas` copies (3 on a JetStream cluster: a node may die without losing a message)."""
        return api.StreamConfig(
            name=self.name,
            description=self.description,
            subjects=list(self.subjects),
            retention=self.retention,
            storage=api.StorageType.FILE,
            num_replicas=replicas,
            max_age=self.max_age_seconds,
            duplicate_window=self.duplicate_window_seconds,
        )


STREAMS: tuple[StreamSpec, ...] = (
    StreamSpec("GAMEHALL_MATCHES", (f"{SUBJECT_ROOT}.match.>",), description="Match lifecycle and action events."),
    StreamSpec(
        "GAMEHALL_TURNS",
        (f"{SUBJECT_ROOT}.turn.>",),
        retention=api.RetentionPolicy.WORK_QUEUE,
        max_age_seconds=24 * 3600,
        description="Turns waiting for a bot: a work queue per game, one consumer group per game.",
    ),
    StreamSpec("GAMEHALL_MATCHMAKING", (f"{SUBJECT_ROOT}.matchmaking.>",), description="Queue and ticket events."),
    StreamSpec("GAMEHALL_TOURNAMENTS", (f"{SUBJECT_ROOT}.tournament.>",), description="Tournament events."),
)

Handler = Callable[[Msg], Awaitable[None]]


class Bus:
    """One NATS connection with its JetStream context."""

    def __init__(self, nc: Client, js: JetStreamContext) -> None:
        self.nc = nc
        self.js = js
        self._tasks: list[asyncio.Task[None]] = []
        self._subscriptions: list[JetStreamContext.PullSubscription] = []
        self._closing = asyncio.Event()

    @classmethod
    async def connect(cls, url: str, name: str, *, connect_timeout: float = 5.0) -> Bus:
        """Connect with unlimited reconnects; the first connection must succeed within `connect_timeout`."""

        async def on_disconnect() -> None:
            log.warning("nats disconnected")

        async def on_reconnect() -> None:
            log.info("nats reconnected")

        async def on_error(exc: Exception) -> None:
            log.warning("nats error", error=str(exc))

        nc = await nats.connect(
            servers=[u.strip() for u in url.split(",")],
            name=name,
            connect_timeout=connect_timeout,
            allow_reconnect=True,
            max_reconnect_attempts=-1,
            reconnect_time_wait=0.5,
            disconnected_cb=on_disconnect,
            reconnected_cb=on_reconnect,
            error_cb=on_error,
            drain_timeout=5,
        )
        return cls(nc, nc.jetstream())

    async def ensure_streams(self, streams: tuple[StreamSpec, ...] = STREAMS, replicas: int = 1) -> None:
        """Create each stream, or update it to the declared config (idempotent)."""
        for spec in streams:
            config = spec.config(replicas)
            try:
                await self.js.stream_info(spec.name)
            except NotFoundError:
                await self.js.add_stream(config)
            else:
                await self.js.update_stream(config)

    async def publish(
        self,
        subject: str,
        payload: bytes,
        msg_id: str,
        *,
        stream: str | None = None,
        timeout: float = 2.0,
        retry_for: float = 15.0,
    ) -> api.PubAck:
        """Publish with ``Nats-Msg-Id`` = `msg_id`; `PubAck.duplicate` tells a dropped duplicate.

        Retries for up to `retry_for` seconds while the server is away or JetStream is not
        ready (after a restart); the msg id makes a retried publish land at most once.
        """
        retrying = AsyncRetrying(
            retry=retry_if_exception_type((NatsTimeout, NoRespondersError, ServiceUnavailableError)),
            wait=wait_exponential(multiplier=0.05, max=1.0),
            stop=stop_after_delay(retry_for),
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                ack = await self.js.publish(
                    subject, payload, timeout=timeout, stream=stream, headers={"Nats-Msg-Id": msg_id}
                )
        metrics.JETSTREAM_PUBLISHED.labels(ack.stream).inc()
        return ack

    async def durable(
        self,
        stream: str,
        durable: str,
        filter_subject: str,
        *,
        ack_wait: float = 30.0,
        max_deliver: int = -1,
    ) -> JetStreamContext.PullSubscription:
        """A durable pull subscription with explicit acks; replicas sharing `durable` share the work."""
        config = api.ConsumerConfig(
            durable_name=durable,
            ack_policy=api.AckPolicy.EXPLICIT,
            deliver_policy=api.DeliverPolicy.ALL,
            ack_wait=ack_wait,
            max_deliver=max_deliver,
            filter_subject=filter_subject,
        )
        sub = await self.js.pull_subscribe(filter_subject, durable=durable, stream=stream, config=config)
        self._subscriptions.append(sub)
        return sub

    def consume(
        self,
        subscription: JetStreamContext.PullSubscription,
        handler: Handler,
        *,
        batch: int = 16,
        nak_delay: float = 1.0,
        heartbeat: float | None = None,
    ) -> asyncio.Task[None]:
        """Run `handler` on each message in the background; ack on success, nak (redeliver) on failure.

        `heartbeat` (seconds, below the consumer's ack_wait) keeps a long handler's message from
        being redelivered while the handler is alive.
        """
        task = asyncio.create_task(self._consume(subscription, handler, batch, nak_delay, heartbeat))
        self._tasks.append(task)
        return task

    async def _consume(
        self,
        sub: JetStreamContext.PullSubscription,
        handler: Handler,
        batch: int,
        nak_delay: float,
        heartbeat: float | None,
    ) -> None:
        while not self._closing.is_set():
            try:
                messages = await sub.fetch(batch, timeout=1.0)
            except TimeoutError:  # nats' own, or asyncio's when a lingering pull request's time ran out
                continue
            except (nats.errors.ConnectionClosedError, nats.errors.DrainTimeoutError):
                return
            except Exception as exc:
                log.warning("fetch failed", error=str(exc))
                await asyncio.sleep(0.5)
                continue
            for msg in messages:
                try:
                    await self._with_heartbeat(msg, handler, heartbeat)
                except Exception:
                    log.exception("handler failed; message will be redelivered", subject=msg.subject)
                    await _quietly(msg.nak(delay=nak_delay))
                else:
                    await _quietly(msg.ack())

    @staticmethod
    async def _with_heartbeat(msg: Msg, handler: Handler, interval: float | None) -> None:
        """Run the handler, telling the server every `interval` seconds that work is in progress:
        a slow handler keeps its message, a dead one stops beating and the message is redelivered."""
        if interval is None:
            await handler(msg)
            return

        async def beat() -> None:
            while True:
                await asyncio.sleep(interval)
                await _quietly(msg.in_progress())

        beating = asyncio.create_task(beat())
        try:
            await handler(msg)
        finally:
            beating.cancel()

    async def pending(self, stream: str, durable: str) -> int:
        info = await self.js.consumer_info(stream, durable)
        metrics.JETSTREAM_PENDING.labels(stream, durable).set(info.num_pending)
        return int(info.num_pending)

    async def close(self) -> None:
        """Stop consumers after their current message, flush publishes and drain the connection."""
        self._closing.set()
        for task in self._tasks:
            try:
                await asyncio.wait_for(task, timeout=5.0)
            except (TimeoutError, asyncio.CancelledError):
                task.cancel()
        for sub in self._subscriptions:  # an open pull subscription makes drain wait out its timeout
            with contextlib.suppress(Exception):
                await sub.unsubscribe()
        if not self.nc.is_closed:
            try:
                await self.nc.drain()
            except Exception:
                await self.nc.close()


async def _quietly(coro: Awaitable[Any]) -> None:
    try:
        await coro
    except Exception as exc:
        log.warning("ack/nak failed", error=str(exc))
