"""The outbox relay: publish committed events to JetStream, then mark them published.

Runs in the persistence service. Poked after every write that queued events, and polling as a
safety net; on start it drains whatever a crash left pending. While NATS or the database is away it
waits with backoff, its health (`gamehall.consumer.outbox-relay`) NOT_SERVING, the rows still pending.
A crash between publish and mark republishes; JetStream drops the copy by its msg id
(match:version:kind), so every event lands once.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta

import structlog

from gamehall.runtime import metrics, patience
from gamehall.runtime.background import BackgroundLoop
from gamehall.runtime.bus import Bus
from gamehall.store import Store
from gamehall.store.core import utc_now
from gamehall.store.records import OutboxRow

log = structlog.get_logger("gamehall.outbox")

STREAM, CONSUMER = "outbox", "outbox-relay"
"""How the relay names itself in `gamehall_consumer_waiting` and health (`gamehall.consumer.outbox-relay`)."""
POISON_ATTEMPTS = 3
DEAD_PAYLOAD_BYTES = 64 * 1024
"""A dead-lettered event larger than this keeps only its head (it may be larger than NATS takes at all)."""
PURGE_AFTER = timedelta(hours=1)
PURGE_EVERY_SECONDS = 60.0


class OutboxRelay(BackgroundLoop):
    def __init__(self, store: Store, bus: Bus, *, batch: int = 256, poll_seconds: float = 1.0) -> None:
        self.store = store
        self.bus = bus
        self.batch = batch
        self.poll_seconds = poll_seconds
        self._wake = asyncio.Event()
        self.published = 0
        self._waiter = patience.Waiter(STREAM, CONSUMER)
        self._refused: dict[int, int] = {}
        """Outbox row id -> rounds in which its publish was refused (not for an outage)."""

    def poke(self) -> None:
        """Something was committed with events: publish soon."""
        self._wake.set()

    async def drain(self) -> int:
        """Publish every pending row (in commit order, a batch at a time); returns how many.

        A publish that fails because NATS is away fails the round (waited out by `_run`; the rows stay pending).
        A row that can never be published (JetStream or the client refuses it for what it is, e.g. too large) is
        dead-lettered after `POISON_ATTEMPTS` rounds, so it cannot hold back every event committed after it."""
        total = 0
        while True:
            rows = await self.store.pending_outbox(self.batch)
            metrics.OUTBOX_PENDING.set(len(rows))
            if not rows:
                return total
            # One connection keeps the send order, so JetStream sequences events in commit order.
            results = await asyncio.gather(
                *(self.bus.publish(r.subject, r.payload, r.msg_id) for r in rows), return_exceptions=True
            )
            done = [r.id for r, result in zip(rows, results, strict=True) if not isinstance(result, BaseException)]
            failed = [(r, e) for r, e in zip(rows, results, strict=True) if isinstance(e, BaseException)]
            away = next((e for _, e in failed if patience.is_away(e)), None)
            if away is None:
                done += [row.id for row, error in failed if await self._given_up(row, error)]
            if done:
                await self.store.mark_published(done)
            total += len(done)
            self.published += len(done)
            if away is not None:
                raise away
            if failed and len(done) < len(rows):
                raise failed[0][1]

    async def _given_up(self, row: OutboxRow, error: BaseException) -> bool:
        """Count one more refusal of `row`; at `POISON_ATTEMPTS`, dead-letter it (True: it may be marked)."""
        attempts = self._refused.get(row.id, 0) + 1
        self._refused[row.id] = attempts
        if attempts < POISON_ATTEMPTS:
            return False
        reason = f"{type(error).__name__}: {error}"
        log.error("outbox event can never be published; dead-lettering", subject=row.subject, error=reason[:300])
        headers = {"Nats-Msg-Id": row.msg_id}
        payload = row.payload
        if len(payload) > DEAD_PAYLOAD_BYTES:  # too large for NATS at all: keep its head, and say so
            headers["Truncated-From-Bytes"] = str(len(payload))
            payload = payload[:DEAD_PAYLOAD_BYTES]
        await self.bus.dead_letter(
            STREAM,
            CONSUMER,
            payload,
            subject=row.subject,
            headers=headers,
            sequence=row.id,
            delivered=attempts,
            reason="permanent",
            error=reason,
        )
        del self._refused[row.id]
        return True

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        next_purge = loop.time() + PURGE_EVERY_SECONDS
        await patience.declare(CONSUMER)
        while True:
            self._wake.clear()
            try:
                await self.drain()
            except Exception as exc:  # NATS away, database busy: waited out, nothing is marked published
                if not patience.is_away(exc):
                    log.error("outbox relay round failed; trying again", error=repr(exc)[:300])
                await self._waiter.wait(exc)
                continue
            await self._waiter.resumed()
            if loop.time() >= next_purge:
                next_purge = loop.time() + PURGE_EVERY_SECONDS
                with contextlib.suppress(Exception):
                    await self.store.purge_published(utc_now() - PURGE_AFTER)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)
