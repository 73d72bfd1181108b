"""The clock sweeper: a background task that asks a match's owner to play the default action (or
forfeit) for seats whose time ran out, and closes as aborted a match abandoned past the platform's
inactivity limit (issue 20, finding 8: players who walked away, clock or no clock). Clock state lives
in persistence, so a restarted gateway picks up where it left off; several replicas may sweep at once,
since every timeout is a compare-and-swap on the version it was seen at (and its request id
`clock:<version>:<seat>` is idempotent), and so is an abandonment's close. Due clocks come from
persistence's index of next deadlines, so an idle platform does not scan its running matches.
"""

from __future__ import annotations

import asyncio

import structlog

from gamehall.internal.v1 import live_pb2
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches import clocks
from gamehall.runtime.background import BackgroundLoop
from gamehall.wire.convert import dumps
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
                state = loads(match.clock_state_json)
                if not clocks.expired(spec, state, now) and clocks.abandoned(spec, state, now):
                    handled += await self._abandon(match, spec)
                    continue
                for seat in clocks.expired(spec, state, now):
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

    async def _abandon(self, match: ppb.MatchRecord, spec: clocks.ClockSpec) -> int:
        """Close an abandoned match as aborted, through its log and only at the version it was seen at."""
        why = f"abandoned: no move for {spec.idle_ms // 1000} s"
        try:
            await call(
                self.upstream.persistence.CloseMatch(
                    ppb.CloseMatchRequest(
                        match_id=match.id,
                        status="aborted",
                        outcome_json=dumps({"ranks": [], "scores": None, "reason": why}),
                        expected_version=match.version,
                    )
                )
            )
        except Exception as exc:  # a move came in between, or another sweeper closed it first
            log.info("abandoned match not closed", match_id=match.id, error=str(exc))
            return 0
        log.info("abandoned match closed", match_id=match.id, version=match.version, why=why)
        return 1

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception as exc:
                log.warning("clock sweep failed", error=str(exc))
            await asyncio.sleep(self.interval)
