"""The NATS JetStream bus: streams declared in one place, deduplicated publishes, durable consumers.

- `STREAMS` is the whole event topology; `Bus.ensure_streams` creates or updates it
  idempotently at start, so any replica may run it.
- `publish` sets ``Nats-Msg-Id``: JetStream drops a second message with the same id inside
  the stream's duplicate window (the outbox relies on it for exactly-once events).
- `consume` runs a durable pull consumer with explicit acks: a message is acked only after
  the handler succeeded. A dependency that is away (`patience.is_away`: the database, a service, NATS)
  is waited out: the message is held and retried with backoff for as long as it takes, the consumer's
  waiting gauge and health say so, and no delivery is spent. Any other handler failure is either
  retryable (nak with a growing delay, at most `max_deliver` deliveries) or permanent
  (`PermanentEventError`: no retry). A
  permanent failure, or the last delivery failing, publishes the message with its subject, headers
  and error to the dead-letter stream (`gamehall.v1.deadletter.<stream>.<consumer>`), counts it in
  `gamehall_events_dead_lettered_total` (alert `GamehallEventsDeadLettered`) and terms it, so one
  poison event never loops. A message whose deliveries ran out without an answer (the consumer
  crashed or hung each time) is dead-lettered from the server's max-deliveries advisory.
- `close` drains: pending publishes are flushed and subscriptions finish their messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc
import nats
import structlog
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout
from nats.js import JetStreamContext, api
from nats.js.errors import APIError, NotFoundError, ServiceUnavailableError
from tenacity import (
    AsyncRetrying,
    retry_if_exception,
    retry_if_exception_type,
    stop_after_delay,
    wait_exponential,
)

from gamehall.runtime import metrics, patience, tls
from gamehall.runtime.errors import ClientError

log = structlog.get_logger("gamehall.bus")

SUBJECT_ROOT = "gamehall.v1"


def match_subject(match_id: str, event: str) -> str:
    return f"{SUBJECT_ROOT}.match.{match_id}.{event}"


def turn_subject(game: str) -> str:
    return f"{SUBJECT_ROOT}.turn.{game}"


def deadletter_subject(stream: str, durable: str) -> str:
    return f"{SUBJECT_ROOT}.deadletter.{stream}.{durable}"


DEADLETTER_STREAM = "GAMEHALL_DEADLETTER"
REPLAYS_STREAM = "GAMEHALL_REPLAYS"
LOG_REPLAY_SUBJECT = f"{SUBJECT_ROOT}.replay.matchlog"
"""A request (JSON `{"sequence": n}`) to project the match log entry at stream sequence n again."""
DEFAULT_MAX_DELIVER = 10
"""Deliveries of one message before it is dead-lettered (bounded: a poison event cannot loop). A dependency
that is away spends none of them: the message is held and retried until it is back (`gamehall.runtime.patience`).
What counts is a failure that names no outage (a bug, a race) or a consumer that died holding the message:
with `RETRY_DELAYS`, about two minutes of tries before the dead letter, from which it can be replayed."""
DEFAULT_ACK_WAIT = 30.0
RETRY_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
"""Nak delay after the 1st, 2nd, ... failed delivery (the last value repeats)."""
MAX_ERROR_CHARS = 1024
DEAD_HEADER = "Gamehall-Dead-"


class PermanentEventError(Exception):
    """An event that can never be handled (malformed, or contradicting the rules): dead-letter it at once.

    Any other exception a handler raises is retryable: the message comes back after a delay, at most
    `max_deliver` times in all, and is dead-lettered if the last delivery fails too.
    """


REJECTED_CODES = frozenset(
    {
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.OUT_OF_RANGE,
        grpc.StatusCode.UNIMPLEMENTED,
    }
)
"""Statuses that say the request itself is wrong: asking again cannot help."""


def classify_rpc_error(exc: grpc.aio.AioRpcError | ClientError, what: str) -> Exception:
    """A failed internal call seen by an event handler (raw, or translated to a `ClientError`): permanent
    when the callee rejected the request, retryable (the error itself) when it was away, overloaded or
    racing (UNAVAILABLE, ABORTED...)."""
    code, details = (exc.code, exc.message) if isinstance(exc, ClientError) else (exc.code(), exc.details() or "")
    if code in REJECTED_CODES:
        return PermanentEventError(f"{what}: {code.name}: {details[:200]}")
    failure: Exception = exc
    return failure


def retry_delay(delivered: int, delays: tuple[float, ...] = RETRY_DELAYS) -> float:
    """The nak delay after the `delivered`-th failed delivery (1-based): exponential-ish, capped."""
    return delays[min(max(delivered, 1), len(delays)) - 1]


def view_subject(match_id: str, seat: int | None) -> str:
    """Core NATS (no stream): the views a match's owner pushes to one audience after each step."""
    return f"{SUBJECT_ROOT}.view.{match_id}.{'spectator' if seat is None else f'seat-{seat}'}"


def members_subject(game: str) -> str:
    """Core NATS: the leases the replicas of `game`'s rules service renew while they run (JSON `{"address":
    ..., "leaving": bool}`): who owns which match's timers (gamehall/matches/members.py)."""
    return f"{SUBJECT_ROOT}.members.rules.{game}"


def watching_subject(game: str) -> str:
    """Core NATS: the gateways' leases on the audiences of `game`'s matches that someone watches (JSON
    `[[match_id, seat or null], ...]`, renewed while the streams are open); owners push views only to these."""
    return f"{SUBJECT_ROOT}.watching.{game}"


@dataclass(frozen=True)
class StreamSpec:
    name: str
    subjects: tuple[str, ...]
    retention: api.RetentionPolicy = api.RetentionPolicy.LIMITS
    max_age_seconds: float = 7 * 24 * 3600
    duplicate_window_seconds: float = 300.0
    description: str = ""
    allow_direct: bool = False
    """Direct gets (any replica answers a read by subject): the match log's tail reads."""

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
            allow_direct=self.allow_direct,
        )


STREAMS: tuple[StreamSpec, ...] = (
    StreamSpec("GAMEHALL_MATCHES", (f"{SUBJECT_ROOT}.match.>",), description="Match lifecycle and action events."),
    StreamSpec(
        "GAMEHALL_MATCHLOG",
        (f"{SUBJECT_ROOT}.log.>",),
        max_age_seconds=0,  # no age limit: an entry stays until persistence has projected it, however long that takes
        duplicate_window_seconds=120.0,
        allow_direct=True,
        description="The match log: one entry per step of a running match (the truth; see gamehall.runtime.matchlog). "
        "Persistence purges a match's entries once they are projected and covered by a snapshot; nothing else removes "
        "them (no age limit), so an outage of the database never ages an acknowledged move out.",
    ),
    StreamSpec(
        "GAMEHALL_TURNS",
        (f"{SUBJECT_ROOT}.turn.>",),
        retention=api.RetentionPolicy.WORK_QUEUE,
        max_age_seconds=24 * 3600,
        description="Turns waiting for a bot: a work queue per game, one consumer group per game.",
    ),
    StreamSpec("GAMEHALL_MATCHMAKING", (f"{SUBJECT_ROOT}.matchmaking.>",), description="Queue and ticket events."),
    StreamSpec("GAMEHALL_TOURNAMENTS", (f"{SUBJECT_ROOT}.tournament.>",), description="Tournament events."),
    StreamSpec(
        REPLAYS_STREAM,
        (f"{SUBJECT_ROOT}.replay.>",),
        retention=api.RetentionPolicy.WORK_QUEUE,
        max_age_seconds=0,
        description="Operators' requests to project a dead-lettered match log entry again (`gamehall deadletter "
        "replay`): persistence, the one SQL writer, takes them.",
    ),
    StreamSpec(
        DEADLETTER_STREAM,
        (f"{SUBJECT_ROOT}.deadletter.>",),
        max_age_seconds=30 * 24 * 3600,
        description="Events a consumer gave up on (permanent error or deliveries exhausted), with the error.",
    ),
)

Handler = Callable[[Msg], Awaitable[None]]


CLUSTER_FORMING_CODES = frozenset({10005, 10008})
"""JetStream's "no suitable peers for placement" and "cluster temporarily unavailable": a cluster whose
nodes are all up may still be electing its meta leader or learning its peers (seen right after a start
on a busy machine), so stream and consumer creation is retried for `CLUSTER_FORMING_SECONDS`."""
CLUSTER_FORMING_SECONDS = 30.0


NOT_READY = (NatsTimeout, NoRespondersError, ServiceUnavailableError)
"""What a JetStream request meets while the server is away or its JetStream is not ready yet (after a start)."""


def _forming(exc: BaseException) -> bool:
    if isinstance(exc, NOT_READY):
        return True
    return isinstance(exc, APIError) and exc.err_code in CLUSTER_FORMING_CODES


async def _while_forming(work: Callable[[], Awaitable[object]]) -> None:
    """`work()`, again with backoff while JetStream is not ready yet or its cluster is still forming."""
    retrying = AsyncRetrying(
        retry=retry_if_exception(_forming),
        wait=wait_exponential(multiplier=0.1, max=2.0),
        stop=stop_after_delay(CLUSTER_FORMING_SECONDS),
        reraise=True,
    )
    async for attempt in retrying:
        with attempt:
            await work()


class Bus:
    """One NATS connection with its JetStream context."""

    def __init__(self, nc: Client, js: JetStreamContext) -> None:
        self.nc = nc
        self.js = js
        self._tasks: list[asyncio.Task[None]] = []
        self._subscriptions: list[JetStreamContext.PullSubscription] = []
        self._durables: dict[int, tuple[str, str, int]] = {}  # id(subscription) -> (stream, durable, max_deliver)
        self._advisories: dict[tuple[str, str], Any] = {}
        self._ack_waits: dict[tuple[str, str], float] = {}
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
            **(transport.nats_options() if (transport := tls.current()) is not None else {}),  # user, TLS
        )
        return cls(nc, nc.jetstream())

    async def ensure_streams(self, streams: tuple[StreamSpec, ...] = STREAMS, replicas: int = 1) -> None:
        """Create each stream, or update it to the declared config (idempotent); while a JetStream cluster is
        still forming, retried (`_while_forming`)."""
        for spec in streams:
            await _while_forming(functools.partial(self._create_or_update, spec.name, spec.config(replicas)))

    async def _create_or_update(self, name: str, config: api.StreamConfig) -> None:
        try:
            await self.js.stream_info(name)
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
            retry=retry_if_exception_type(NOT_READY),
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
        ack_wait: float = DEFAULT_ACK_WAIT,
        max_deliver: int = DEFAULT_MAX_DELIVER,
    ) -> JetStreamContext.PullSubscription:
        """A durable pull subscription with explicit acks; replicas sharing `durable` share the work.

        The consumer is created or updated to this config (an older consumer with unbounded
        redeliveries gets `max_deliver` on the next start), then bound.
        """
        if max_deliver < 1:
            raise ValueError("max_deliver must be at least 1: unbounded redelivery lets one poison event loop forever")
        config = api.ConsumerConfig(
            name=durable,
            durable_name=durable,
            ack_policy=api.AckPolicy.EXPLICIT,
            deliver_policy=api.DeliverPolicy.ALL,
            ack_wait=ack_wait,
            max_deliver=max_deliver,
            filter_subject=filter_subject,
        )
        await _while_forming(lambda: self.js.add_consumer(stream, config=config))
        sub = await self.bind(stream, durable)
        self._durables[id(sub)] = (stream, durable, max_deliver)
        self._ack_waits[(stream, durable)] = ack_wait
        return sub

    async def bind(self, stream: str, durable: str) -> JetStreamContext.PullSubscription:
        """A pull subscription to an existing durable consumer, closed by `close` (an open one would make the
        connection's drain wait out its whole timeout)."""
        sub = await self.js.pull_subscribe_bind(durable=durable, stream=stream)
        self._subscriptions.append(sub)
        return sub

    def consume(
        self,
        subscription: JetStreamContext.PullSubscription,
        handler: Handler,
        *,
        batch: int = 16,
        heartbeat: float | None = None,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
        in_flight: int = 1,
    ) -> asyncio.Task[None]:
        """Run `handler` on each message in the background: ack on success; on failure nak with
        `retry_delays` (retryable) or dead-letter and term (`PermanentEventError`, or the last delivery).

        `heartbeat` (seconds, below the consumer's ack_wait) keeps a long handler's message from
        being redelivered while the handler is alive. `in_flight` > 1 handles up to that many messages
        at once (each acked on its own), pulling only as many as there is room for, so independent slow
        handlers (a bot thinking) neither wait for each other nor sit unacknowledged in a batch.
        """
        stream, durable, max_deliver = self._durables.get(id(subscription), ("", "", DEFAULT_MAX_DELIVER))
        if stream and (stream, durable) not in self._advisories:
            self._advisories[(stream, durable)] = asyncio.create_task(self._watch_exhausted(stream, durable))
        consumer = (stream, durable, max_deliver)
        work = (
            self._consume(subscription, handler, batch, heartbeat, consumer, retry_delays)
            if in_flight <= 1
            else self._consume_concurrently(subscription, handler, in_flight, heartbeat, consumer, retry_delays)
        )
        task = asyncio.create_task(work)
        self._tasks.append(task)
        return task

    async def _fetch(self, sub: JetStreamContext.PullSubscription, count: int) -> list[Msg] | None:
        """Up to `count` messages ([] when none came within a second); None once the connection is closed."""
        try:
            messages: list[Msg] = await sub.fetch(count, timeout=1.0)
            note_pending(messages)
            return messages
        except TimeoutError:  # nats' own, or asyncio's when a lingering pull request's time ran out
            return []
        except (nats.errors.ConnectionClosedError, nats.errors.DrainTimeoutError):
            return None
        except Exception as exc:
            log.warning("fetch failed", error=str(exc) or type(exc).__name__)
            await asyncio.sleep(0.5)
            return []

    async def _settle(
        self,
        msg: Msg,
        handler: Handler,
        heartbeat: float | None,
        consumer: tuple[str, str, int],
        retry_delays: tuple[float, ...],
    ) -> None:
        """Handle one message: ack on success; while what it needs is away (`patience.is_away`), hold it and
        try again with backoff, beating in-progress acks, for as long as it takes (no delivery is spent);
        any other failure goes to `_failed` (retry later, or the dead letter)."""
        stream, durable, _ = consumer
        waiter = patience.Waiter(stream or "unknown", durable or "unknown", beat_every=self._beat_every(consumer))
        while True:
            try:
                await self._with_heartbeat(msg, handler, heartbeat)
            except Exception as exc:
                if patience.is_away(exc) and not self._closing.is_set():
                    await waiter.wait(exc, msg.in_progress)
                    continue
                await waiter.resumed()
                if patience.is_away(exc):  # stopping: another replica takes it at once
                    await _quietly(msg.nak())
                    return
                await self._failed(msg, exc, consumer, retry_delays)
                return
            await waiter.resumed()
            await _quietly(msg.ack())
            return

    def _beat_every(self, consumer: tuple[str, str, int]) -> float:
        """In-progress acks while a message waits: well inside its consumer's ack wait."""
        stream, durable, _ = consumer
        return max(0.5, self._ack_waits.get((stream, durable), DEFAULT_ACK_WAIT) / 3)

    async def _consume_concurrently(
        self,
        sub: JetStreamContext.PullSubscription,
        handler: Handler,
        in_flight: int,
        heartbeat: float | None,
        consumer: tuple[str, str, int],
        retry_delays: tuple[float, ...],
    ) -> None:
        room = asyncio.Semaphore(in_flight)
        running: set[asyncio.Task[None]] = set()

        async def one(msg: Msg) -> None:
            try:
                await self._settle(msg, handler, heartbeat, consumer, retry_delays)
            finally:
                room.release()

        try:
            while not self._closing.is_set():
                await room.acquire()
                free = 1
                while free < in_flight and not room.locked():  # take every free slot for one pull
                    await room.acquire()
                    free += 1
                messages = await self._fetch(sub, free)
                if messages is None:
                    return
                for _ in range(free - len(messages)):
                    room.release()
                for msg in messages:
                    task = asyncio.create_task(one(msg))
                    running.add(task)
                    task.add_done_callback(running.discard)
        finally:
            if running:
                await asyncio.gather(*running, return_exceptions=True)

    async def _consume(
        self,
        sub: JetStreamContext.PullSubscription,
        handler: Handler,
        batch: int,
        heartbeat: float | None,
        consumer: tuple[str, str, int],
        retry_delays: tuple[float, ...],
    ) -> None:
        while not self._closing.is_set():
            messages = await self._fetch(sub, batch)
            if messages is None:
                return
            for msg in messages:
                await self._settle(msg, handler, heartbeat, consumer, retry_delays)

    async def _failed(
        self, msg: Msg, exc: Exception, consumer: tuple[str, str, int], retry_delays: tuple[float, ...]
    ) -> None:
        """Retry later, or give up: dead-letter then term (nak instead if the dead letter cannot be written)."""
        stream, durable, max_deliver = consumer
        delivered = msg.metadata.num_delivered if msg.metadata else 1
        stream = stream or (msg.metadata.stream if msg.metadata else "") or "unknown"
        durable = durable or (msg.metadata.consumer if msg.metadata else "") or "unknown"
        error = f"{type(exc).__name__}: {exc}"[:MAX_ERROR_CHARS]
        permanent = isinstance(exc, PermanentEventError)
        if not permanent and delivered < max_deliver:
            delay = retry_delay(delivered, retry_delays)
            metrics.EVENTS_RETRIED.labels(stream, durable).inc()
            log.warning(
                "handler failed; retrying",
                subject=msg.subject,
                delivered=delivered,
                retry_in=delay,
                error=error,
                exc_info=exc if delivered == 1 else None,
            )
            await _quietly(msg.nak(delay=delay))
            return
        reason = "permanent" if permanent else "exhausted"
        log.error(
            "handler gave up; dead-lettering", subject=msg.subject, delivered=delivered, reason=reason, error=error
        )
        try:
            await self.dead_letter(
                stream,
                durable,
                msg.data,
                subject=msg.subject,
                headers=msg.headers,
                sequence=msg.metadata.sequence.stream if msg.metadata else 0,
                delivered=delivered,
                reason=reason,
                error=error,
            )
        except Exception as failure:  # keep the message: it is retried, never lost
            log.warning("dead letter not written; message kept", subject=msg.subject, error=str(failure))
            await _quietly(msg.nak(delay=retry_delay(len(retry_delays), retry_delays)))
            return
        await _quietly(msg.term())

    async def dead_letter(
        self,
        stream: str,
        durable: str,
        data: bytes,
        *,
        subject: str,
        headers: dict[str, str] | None,
        sequence: int,
        delivered: int,
        reason: str,
        error: str,
    ) -> bool:
        """Publish an event a consumer gave up on, with where it came from and why; False for a duplicate
        (its stream sequence makes the msg id, so two replicas or the advisory dead-letter it once)."""
        dead_headers = {f"Gamehall-Orig-{k}": v for k, v in (headers or {}).items() if not k.startswith("Nats-")}
        dead_headers.update(
            {
                f"{DEAD_HEADER}Subject": subject,
                f"{DEAD_HEADER}Stream": stream,
                f"{DEAD_HEADER}Consumer": durable,
                f"{DEAD_HEADER}Sequence": str(sequence),
                f"{DEAD_HEADER}Deliveries": str(delivered),
                f"{DEAD_HEADER}Reason": reason,
                f"{DEAD_HEADER}Error": " ".join(error.split())[:MAX_ERROR_CHARS],
                "Nats-Msg-Id": f"dead:{stream}:{durable}:{sequence}",
            }
        )
        ack = await self.js.publish(
            deadletter_subject(stream, durable), data, timeout=2.0, stream=DEADLETTER_STREAM, headers=dead_headers
        )
        if ack.duplicate:
            return False
        metrics.EVENTS_DEAD_LETTERED.labels(stream, durable, reason).inc()
        return True

    async def _watch_exhausted(self, stream: str, durable: str) -> None:
        """Dead-letter messages whose deliveries ran out without any answer (the server's advisory)."""
        subject = f"$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.{stream}.{durable}"

        async def on_advisory(advisory: Msg) -> None:
            try:
                body = json.loads(advisory.data)
                sequence = int(body["stream_seq"])
                stored = await self.js.get_msg(stream, sequence)
                await self.dead_letter(
                    stream,
                    durable,
                    stored.data or b"",
                    subject=stored.subject or "",
                    headers=stored.headers,
                    sequence=sequence,
                    delivered=int(body.get("deliveries", 0)),
                    reason="exhausted",
                    error="no answer within ack_wait on every delivery (consumer crashed or hung)",
                )
                if _retention(stream) == api.RetentionPolicy.WORK_QUEUE:  # nobody else will take it off the queue
                    await self.js.delete_msg(stream, sequence)
            except Exception as exc:
                log.warning("max-deliveries advisory not dead-lettered", error=str(exc) or type(exc).__name__)

        try:
            self._advisories[(stream, durable)] = await self.nc.subscribe(subject, cb=on_advisory)
        except Exception as exc:
            log.warning("no max-deliveries advisory subscription", stream=stream, consumer=durable, error=str(exc))

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
        for held in self._advisories.values():
            if isinstance(held, asyncio.Task):
                held.cancel()
            else:
                with contextlib.suppress(Exception):
                    await held.unsubscribe()
        if not self.nc.is_closed:
            try:
                await self.nc.drain()
            except Exception:
                await self.nc.close()


def note_pending(messages: list[Msg]) -> None:
    """Set `gamehall_jetstream_consumer_pending` from a fetched batch: the last message's metadata says how many
    messages the consumer has not received yet (JetStream counts it for free; no consumer_info call). Nothing is
    set on an empty fetch, so a consumer stalled at its ack limit keeps its last figure rather than reading 0."""
    last = messages[-1].metadata if messages else None
    if last is not None and last.stream and last.consumer:
        metrics.JETSTREAM_PENDING.labels(last.stream, last.consumer).set(last.num_pending)


def _retention(stream: str) -> api.RetentionPolicy | None:
    return next((spec.retention for spec in STREAMS if spec.name == stream), None)


async def _quietly(coro: Awaitable[Any]) -> None:
    try:
        await coro
    except Exception as exc:
        log.warning("ack/nak failed", error=str(exc))
