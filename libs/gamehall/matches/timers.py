"""A match's clock is its owner's timer (ARCHITECTURE rules 6 and 7): one timer per match, at its next deadline.

The owner arms a match's timer at the earliest of its seats' turn deadlines and its inactivity limit
(`clocks.next_deadline_ms`) after every step it applies or loads, and whenever it (re)gains the match; the timer
outlives the cached copy, so a match evicted from the owner's memory still fires, and is loaded again to do so.
When a timer fires, `fire(match_id)` acts (a timeout, an abandonment) and answers the match's next deadline,
at which the timer is armed again (0: none, the timer is dropped). A firing that fails (the log or the store
away) is tried again with a backoff doubling to `RETRY_MAX_SECONDS`, for as long as it takes.

The timers know nothing of gRPC, NATS or the engine: the clock (`now_ms`) and the scheduler (`call_later`, the
event loop's by default) are injected, so tests drive them with a fake clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

import structlog

log = structlog.get_logger("gamehall.matches.timers")

RETRY_FIRST_SECONDS, RETRY_MAX_SECONDS = 0.1, 2.0
FIRING_AT_ONCE = 64
"""Firings under way at once: a replica that starts (or takes over) after many deadlines passed loads those
matches a bounded number at a time instead of all together."""


class Handle(Protocol):
    def cancel(self) -> None: ...


Schedule = Callable[[float, Callable[[], None]], Handle]
"""`call_later(delay_seconds, callback)` -> a handle that cancels it."""
Fire = Callable[[str], Awaitable[int]]
"""Act on a match whose deadline came; answers its next deadline (unix ms; 0: none)."""


def _loop_call_later(delay: float, callback: Callable[[], None]) -> Handle:
    return asyncio.get_running_loop().call_later(delay, callback)


@dataclass
class _Timer:
    at_ms: int
    handle: Handle | None
    failures: int = 0


class MatchTimers:
    """The armed deadlines of the matches one replica owns: match id -> one scheduled wake-up."""

    def __init__(
        self,
        fire: Fire,
        now_ms: Callable[[], int],
        call_later: Schedule = _loop_call_later,
        at_once: int = FIRING_AT_ONCE,
    ) -> None:
        self._fire = fire
        self._at_once = asyncio.Semaphore(at_once)
        self._now_ms = now_ms
        self._call_later = call_later
        self._timers: dict[str, _Timer] = {}
        self._firing: dict[str, asyncio.Task[None]] = {}

    def __len__(self) -> int:
        return len(self._timers)

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._timers

    def deadline(self, match_id: str) -> int:
        """The unix ms the match's timer is armed at (0: none)."""
        timer = self._timers.get(match_id)
        return timer.at_ms if timer is not None else 0

    def armed(self) -> list[str]:
        """The matches with an armed timer."""
        return list(self._timers)

    def arm(self, match_id: str, at_ms: int) -> None:
        """Fire for `match_id` at `at_ms` (unix ms; a past time fires at once); 0 or less drops its timer. Arming
        the deadline already armed changes nothing (and keeps a pending retry's backoff)."""
        if at_ms <= 0:
            self.cancel(match_id)
            return
        timer = self._timers.get(match_id)
        if timer is not None and timer.at_ms == at_ms:
            return
        self._schedule(match_id, _Timer(at_ms, None), at_ms)

    def cancel(self, match_id: str) -> None:
        """Drop the match's timer (closed, or owned elsewhere). A firing under way finishes."""
        timer = self._timers.pop(match_id, None)
        if timer is not None and timer.handle is not None:
            timer.handle.cancel()

    def close(self) -> None:
        """Drop every timer and cancel the firings under way (the replica stops)."""
        for match_id in list(self._timers):
            self.cancel(match_id)
        for task in list(self._firing.values()):
            task.cancel()
        self._firing.clear()

    def _schedule(self, match_id: str, timer: _Timer, wake_ms: int) -> None:
        old = self._timers.get(match_id)
        if old is not None and old.handle is not None:
            old.handle.cancel()
        delay = max(0.0, (wake_ms - self._now_ms()) / 1000)
        timer.handle = self._call_later(delay, lambda: self._woken(match_id, timer))
        self._timers[match_id] = timer

    def _woken(self, match_id: str, timer: _Timer) -> None:
        if self._timers.get(match_id) is not timer:
            return  # re-armed or dropped since
        if self._now_ms() < timer.at_ms:  # the loop's clock ran ahead of the wall clock: wait the rest
            self._schedule(match_id, timer, timer.at_ms)
            return
        timer.handle = None
        if match_id in self._firing:
            return  # the firing under way arms the timer again when it ends
        self._firing[match_id] = asyncio.ensure_future(self._run(match_id, timer))

    async def _run(self, match_id: str, timer: _Timer) -> None:
        try:
            try:
                async with self._at_once:
                    next_ms = await self._fire(match_id)
            finally:
                self._firing.pop(match_id, None)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            current = self._timers.get(match_id)
            if current is None or (current is not timer and current.handle is not None):
                return  # dropped, or a step armed a newer deadline meanwhile
            pause = min(RETRY_MAX_SECONDS, RETRY_FIRST_SECONDS * 2**timer.failures)
            current.failures = timer.failures + 1
            log.warning("match timer failed; trying again", match_id=match_id, retry_in=pause, error=repr(exc)[:300])
            self._schedule(match_id, current, self._now_ms() + int(pause * 1000))
            return
        current = self._timers.get(match_id)
        if current is None or (current is not timer and current.handle is not None):
            return  # dropped (closed, owned elsewhere), or a step armed a newer deadline meanwhile
        if next_ms <= 0:
            self.cancel(match_id)
        else:
            self._schedule(match_id, _Timer(next_ms, None), next_ms)


__all__ = ["FIRING_AT_ONCE", "RETRY_FIRST_SECONDS", "RETRY_MAX_SECONDS", "Fire", "Handle", "MatchTimers", "Schedule"]
