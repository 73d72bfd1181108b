"""This gateway's watch leases: which audiences of which matches its WatchMatch streams follow.

A match's owner pushes an audience's views only while someone holds a lease on it (services/rules/
watched.py). Streams hold leases here, counted per (game, match, audience); a new one is announced at
once, and every `RENEW_SECONDS` all held ones are renewed in one message per game, so the cost is per
watched audience, not per stream or per move.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable

import msgspec
import structlog

from gamehall.runtime.bus import watching_subject

log = structlog.get_logger("gamehall.gateway.interest")

RENEW_SECONDS = 10.0
"""Well inside the owners' lease (gamehall.matches.watched.LEASE_SECONDS = 30 s): two renewals may be lost."""
PER_MESSAGE = 2_000
"""Leases per renewal message (a few dozen bytes each)."""

Key = tuple[str, str, int | None]
Publish = Callable[[str, bytes], Awaitable[None]]


class Interest:
    """Counts the streams following each (game, match, audience) and keeps the owners told."""

    def __init__(self, publish: Publish) -> None:
        self._publish = publish
        self._held: Counter[Key] = Counter()

    @contextlib.asynccontextmanager
    async def hold(self, game: str, match_id: str, seat: int | None) -> AsyncIterator[None]:
        """A lease for the duration of a watch stream."""
        key = (game, match_id, seat)
        self._held[key] += 1
        if self._held[key] == 1:
            await self._announce(game, [(match_id, seat)])
        try:
            yield
        finally:
            self._held[key] -= 1
            if self._held[key] <= 0:
                del self._held[key]

    async def renew_forever(self) -> None:
        """Renew every held lease every `RENEW_SECONDS` (runs for the gateway's life)."""
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            by_game: dict[str, list[tuple[str, int | None]]] = {}
            for game, match_id, seat in list(self._held):
                by_game.setdefault(game, []).append((match_id, seat))
            for game, leases in by_game.items():
                await self._announce(game, leases)

    async def _announce(self, game: str, leases: Iterable[tuple[str, int | None]]) -> None:
        leases = list(leases)
        for first in range(0, len(leases), PER_MESSAGE):
            try:
                await self._publish(watching_subject(game), msgspec.json.encode(leases[first : first + PER_MESSAGE]))
            except Exception as exc:  # the stream still works: it asks the owner when no push comes
                log.warning("watch lease not announced", game=game, error=str(exc) or type(exc).__name__)
                return

    def __len__(self) -> int:
        return len(self._held)


__all__ = ["RENEW_SECONDS", "Interest"]
