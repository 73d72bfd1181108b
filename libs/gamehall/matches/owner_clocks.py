"""The clocks of the matches this replica owns, as its timers (ARCHITECTURE rules 6 and 7; issue 37).

Every copy the replica loads, starts or advances arms its match's timer at the match's next deadline
(`gamehall.matches.timers`). When a timer fires, the owner itself plays the seat's default action or forfeits it
(`MatchOwner.time_out`, request id `clock:<version>:<seat>`), or closes the match as abandoned
(`MatchOwner.abandon`): entries it appends to the match's log with the log's compare-and-swap, so a timeout
fires as soon as its deadline comes, whatever the projection's lag.

When the replica starts, and whenever its peers change (`gamehall.matches.members`), it reads the game's running
matches with a deadline once (an indexed read of the projection) and arms the timers of those it owns under
rendezvous hashing over the live replicas; those it no longer owns are dropped. So a killed owner's timers fire
on its successor. Two replicas that briefly disagree on who owns a match may both fire its timer: that is
harmless, as both judge the timeout against the log (the second loses the compare-and-swap, or finds the same
request id already logged), and an abandonment or forfeit is guarded by the version it was judged at.

The timers are a port (`gamehall.matches.ports.Timers`): `MatchTimers` on the event loop in a service, a fake
clock in tests.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import structlog

from gamehall.matches import clocks
from gamehall.matches.errors import BadRequest, NoSuchMatch
from gamehall.matches.live import LiveMatch
from gamehall.matches.owner import MatchOwner
from gamehall.matches.ports import Fire, Timers
from gamehall.matches.timers import MatchTimers

log = structlog.get_logger("gamehall.matches.clocks")

PAGE = 500


class Unmoved(RuntimeError):
    """A due timer acted and the match did not move: tried again with backoff rather than at once."""


class OwnerClocks:
    """The timers of one replica's matches, fed by its `MatchOwner` and fired back into it."""

    def __init__(
        self,
        matches: MatchOwner,
        owns: Callable[[str], bool] = lambda _: True,
        timers: Callable[[Fire], Timers] | None = None,
    ) -> None:
        self.matches = matches
        self.owns = owns
        """Whether this replica owns a match under rendezvous hashing over the live replicas (`Members.owns`)."""
        self.timers = timers(self._fire) if timers is not None else MatchTimers(self._fire, matches.now_ms)
        matches.stepped = self.note

    def note(self, live: LiveMatch) -> None:
        """A copy this replica holds changed: its timer goes to the match's next deadline (none once closed)."""
        if live.facts.status != "running":
            self.timers.cancel(live.facts.id)
            return
        self.timers.arm(live.facts.id, _next_deadline(live))

    async def fire(self, match_id: str) -> int:
        """Act on the match's deadline now (what its timer does when it fires); answers its next deadline."""
        return await self._fire(match_id)

    async def _fire(self, match_id: str) -> int:
        """The match's deadline came: act on it, and answer its next deadline (0: drop its timer)."""
        cached = self.matches.cached(match_id)
        try:
            held = await self.matches.held(match_id)  # checked against the log unless advanced here just now
        except (NoSuchMatch, BadRequest) as exc:
            log.warning("a timer's match cannot be loaded; timer dropped", match_id=match_id, error=str(exc))
            return 0  # gone from the store, or another game's: nothing will ever make it load
        live = held.live
        if live.facts.status != "running":
            return 0
        if cached is not None and cached is not held and not self.owns(match_id):
            return 0  # another replica moved it (the gateways route it there): the timer is that replica's
        now = self.matches.now_ms()
        spec, state = live.facts.clock, _plain(live)
        version, expired = live.version, clocks.expired(spec, state, now)
        if expired:
            result = await self.matches.time_out(match_id, expired[0], version)
            log.info("clock ran out", match_id=match_id, seat=expired[0], version=version, result=result)
        elif clocks.abandoned(spec, state, now):
            await self.matches.abandon(match_id, version, spec.idle_ms)
        else:
            return _next_deadline(live)  # woken early, or a step moved the deadline meanwhile
        after = await self.matches.held(match_id)
        if after.live.facts.status != "running":
            return 0
        next_ms = _next_deadline(after.live)
        if after.live.version == version and 0 < next_ms <= now:
            raise Unmoved(f"match {match_id}: its deadline passed and the match stayed at version {version}")
        return next_ms

    async def rearm(self) -> int:
        """Arm the timers of the game's clocked running matches this replica owns (one indexed read of the
        projection, paged) and drop those of matches it no longer owns; returns how many it owns. A timer
        already armed keeps its deadline: it came from the log, fresher than the projection."""
        owned: set[str] = set()
        after: tuple[int, str] = (0, "")
        while True:
            page = await self.matches.store.clocked(self.matches.game.id, after, PAGE)
            for match_id, deadline_ms in page:
                if self.owns(match_id):
                    owned.add(match_id)
                    if match_id not in self.timers:
                        self.timers.arm(match_id, deadline_ms)
                after = (deadline_ms, match_id)
            if len(page) < PAGE:
                break
        for match_id in self.timers.armed():
            if match_id not in owned and not self.owns(match_id):
                self.timers.cancel(match_id)
        log.info("match timers armed", game=self.matches.game.id, owned=len(owned), armed=len(self.timers))
        return len(owned)

    def close(self) -> None:
        self.timers.close()


def _plain(live: LiveMatch) -> dict[str, Any] | None:
    return dict(live.facts.clock_state) if live.facts.clock_state is not None else None


def _next_deadline(live: LiveMatch) -> int:
    try:
        return clocks.next_deadline_ms(live.facts.clock, _plain(live))
    except (TypeError, ValueError, IndexError, AttributeError) as exc:  # the store refuses such a state
        log.warning("unreadable clock state; no timer", match_id=live.facts.id, error=str(exc))
        return 0


__all__ = ["OwnerClocks"]
