"""Retention: drop matchmaking tickets closed longer ago than the configured history (rows would grow forever)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta

import structlog

from gamehall.runtime.background import BackgroundLoop
from gamehall.store import Store
from gamehall.store.core import utc_now

log = structlog.get_logger("gamehall.retention")
EVERY_SECONDS = 600.0


class TicketRetention(BackgroundLoop):
    def __init__(
        self,
        store: Store,
        history: timedelta,
        every_seconds: float = EVERY_SECONDS,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.store = store
        self.history = history
        self.every_seconds = every_seconds
        self.clock = clock

    async def purge_once(self) -> int:
        purged = await self.store.purge_closed_tickets(self.clock() - self.history)
        if purged:
            log.info("purged closed tickets", count=purged, older_than_days=self.history.days)
        return purged

    async def _run(self) -> None:
        while True:
            try:
                await self.purge_once()
            except Exception as exc:  # the database busy or away: next round
                log.warning("ticket retention round failed", error=str(exc))
            await asyncio.sleep(self.every_seconds)
