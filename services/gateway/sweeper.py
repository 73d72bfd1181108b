"""The clock sweeper: a background task that plays the default action (or forfeits) for seats
whose time ran out. Clock state lives in persistence, so a restarted gateway picks up where it
left off; several replicas may sweep at once, since every timeout is a compare-and-swap on the
version it was seen at (and its request id `clock:<version>:<seat>` is idempotent).
"""

from __future__ import annotations

import asyncio

import structlog

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.runtime.background import BackgroundLoop
from gamehall_services.gateway import clocks
from gamehall_services.gateway.play import Player
from gamehall_services.gateway.records import loads, now_ms
from gamehall_services.gateway.upstream import Upstream, call

log = structlog.get_logger("gamehall.gateway.clocks")


class ClockSweeper(BackgroundLoop):
    def __init__(self, upstream: Upstream, player: Player, interval_seconds: float = 0.25) -> None:
        self.upstream = upstream
        self.player = player
        self.interval = interval_seconds

    async def sweep(self) -> int:
        """One pass over running clocked matches; returns how many timeouts were handled."""
        handled = 0
        cursor = ""
        while True:
            page = await call(
                self.upstream.persistence.ListMatches(
                    ppb.ListMatchesRequest(statuses=["running"], clocked_only=True, limit=500, cursor=cursor)
                )
            )
            now = now_ms()
            for match in page.matches:
                spec = clocks.ClockSpec.from_json(loads(match.clock_json))
                for seat in clocks.expired(spec, loads(match.clock_state_json), now):
                    try:
                        await self.player.time_out(match, seat)
                        handled += 1
                    except Exception as exc:  # another replica won the race, or the match moved on
                        log.info("timeout not applied", match_id=match.id, seat=seat, error=str(exc))
                    break  # the match changed: look again next pass
            if not page.next_cursor:
                return handled
            cursor = page.next_cursor

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception as exc:
                log.warning("clock sweep failed", error=str(exc))
            await asyncio.sleep(self.interval)
