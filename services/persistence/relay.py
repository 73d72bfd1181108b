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

log = structlog.get_logger("gamehall.outbox")

STREAM, CONSUMER = "outbox", "outbox-relay"
"""How the relay names itself in `gamehall_consumer_waiting` and health (`gamehall.consumer.outbox-relay`)."""
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

    def poke(self) -> None:
        """Something was committed with events: publish soon."""
        self._wake.set()

    async def drain(self) -> int:
        """Publish every pending row (in commit order, a batch at a time); returns how many."""
        total = 0
        while True:
            rows = await self.store.pending_outbox(self.batch)
            metrics.OUTBOX_PENDING.set(len(rows))
            if not rows:
                return total
            # One connection keeps the send order, so JetStream sequences events in commit order.
            await asyncio.gather(*(self.bus.publish(r.subject, r.payload, r.msg_id) for r in rows))
            await self.store.mark_published([r.id for r in rows])
            total += len(rows)
            self.published += len(rows)

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
