"""The clock sweeper: a background task that asks a match's owner to play the default action (or
forfeit) for seats whose time ran out. Clock state lives in persistence, so a restarted gateway picks up where it
left off; several replicas may sweep at once, since every timeout is a compare-and-swap on the
version it was seen at (and its request id `clock:<version>:<seat>` is idempotent). Due clocks come
from persistence's index of next deadlines, so an idle platform does not scan its running matches.
"""

from __future__ import annotations

import asyncio

import structlog

from gamehall.internal.v1 import live_pb2
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches import clocks
from gamehall.runtime.background import BackgroundLoop
from gamehall.wire.matches import loads, now_ms
from gamehall_services.gateway.upstream import Upstream, call

log = structlog.get_logger("gamehall.gateway.clocks")
DUE_PAGE = 500


class ClockSweeper(BackgroundLoop):
    def __init__(self, upstream: Upstream, interval_seconds: float = 0.25) -> None:
        self.upstream = upstream
        self.interval = interval_seconds

    async def sweep(self) -> int:
        """One pass over the clocks that are due (an indexed query: its cost does not grow with the
        number of running matches); returns how many timeouts were handled."""
        handled = 0
        while True:
            now = now_ms()
            due = await call(
                self.upstream.persistence.ListDueClocks(ppb.ListDueClocksRequest(now_unix_ms=now, limit=DUE_PAGE))
            )
            for match in due.matches:
                spec = clocks.ClockSpec.from_json(loads(match.clock_json))
                for seat in clocks.expired(spec, loads(match.clock_state_json), now):
                    try:
                        await self.upstream.replicas(match.game).on_owner(
                            match.id,
                            "TimeOut",
                            live_pb2.TimeOutRequest(match_id=match.id, seat=seat, version=match.version),
                        )
                        handled += 1
                    except Exception as exc:  # another replica won the race, or the match moved on
                        log.info("timeout not applied", match_id=match.id, seat=seat, error=str(exc))
                    break  # the match changed: look again next pass
            if len(due.matches) < DUE_PAGE:
                return handled

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception as exc:
                log.warning("clock sweep failed", error=str(exc))
            await asyncio.sleep(self.interval)
