"""Retention: drop matchmaking tickets closed longer ago than the configured history (rows would grow forever),
and compact or archive closed matches past their age (`GAMEHALL_MATCH_RETENTION`)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta

import structlog

from gamehall.runtime.background import BackgroundLoop
from gamehall.store import Store
from gamehall.store.core import utc_now
from gamehall.store.retention import RetentionPolicy

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


class MatchRetention(BackgroundLoop):
    """The configured policy for closed matches older than `age`: keep, compact or archive, `batch` at a time.

    A round takes the oldest due matches through the partial index `matches_retention_due` (its cost follows
    the batch, not the live or kept matches) and handles them in one transaction; it repeats while batches
    come back full, up to `max_batches`, then sleeps. Each round that changed something leaves an audit event
    (actor `system:retention`).
    """

    def __init__(
        self,
        store: Store,
        policy: RetentionPolicy,
        age: timedelta,
        *,
        batch: int = 200,
        max_batches: int = 50,
        every_seconds: float = EVERY_SECONDS,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.store = store
        self.policy = policy
        self.age = age
        self.batch = batch
        self.max_batches = max_batches
        self.every_seconds = every_seconds
        self.clock = clock

    async def run_once(self) -> int:
        """One round; returns how many matches were compacted or archived."""
        if self.policy == "keep":
            return 0
        handled = 0
        for _ in range(self.max_batches):
            due = await self.store.retention_due(self.clock() - self.age, self.batch)
            if not due:
                break
            if self.policy == "compact":
                await self.store.compact_matches(due)
            else:
                await self.store.archive_matches(due)
            handled += len(due)
            if len(due) < self.batch:
                break
        if handled:
            log.info("match retention", policy=self.policy, matches=handled, older_than_days=self.age.days)
            await self.store.record_audit_event(
                f"retention-{uuid.uuid4().hex}",
                outcome="OK",
                actor="system:retention",
                actor_name="retention",
                role="system",
                action=f"retention.{self.policy}",
                detail={"matches": handled, "older_than_days": self.age.total_seconds() / 86400},
            )
        return handled

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception as exc:  # the database busy or away: next round
                log.warning("match retention round failed", error=str(exc))
            await asyncio.sleep(self.every_seconds)
