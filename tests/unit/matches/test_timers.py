"""The owner's match timers on a fake clock: one wake-up per match at its next deadline, re-armed from what the
firing answers, kept across a failing firing (retried with backoff), dropped when the match needs no timer."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from gamehall.matches.timers import RETRY_FIRST_SECONDS, MatchTimers


@dataclass
class _Wake:
    at_ms: int
    callback: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class FakeClock:
    """Unix ms that only moves when the test says, and a scheduler on it."""

    now: int = 1_000_000
    wakes: list[_Wake] = field(default_factory=list)

    def now_ms(self) -> int:
        return self.now

    def call_later(self, delay: float, callback: Callable[[], None]) -> _Wake:
        wake = _Wake(self.now + round(delay * 1000), callback)
        self.wakes.append(wake)
        return wake

    def pending(self) -> list[int]:
        return sorted(w.at_ms for w in self.wakes if not w.cancelled)

    async def advance(self, ms: int) -> None:
        """Move the clock, running each wake-up that comes due (and the firings it starts) in order."""
        target = self.now + ms
        while True:
            due = [w for w in self.wakes if not w.cancelled and w.at_ms <= target]
            if not due:
                break
            wake = min(due, key=lambda w: w.at_ms)
            self.wakes.remove(wake)
            self.now = max(self.now, wake.at_ms)
            wake.callback()
            for _ in range(5):
                await asyncio.sleep(0)
        self.now = target


@dataclass
class Matches:
    """A fake owner: each match's next deadline, and the firings it saw (match id, clock at the firing)."""

    clock: FakeClock
    next_ms: dict[str, int] = field(default_factory=dict)
    fired: list[tuple[str, int]] = field(default_factory=list)
    failing: int = 0

    async def fire(self, match_id: str) -> int:
        self.fired.append((match_id, self.clock.now))
        if self.failing:
            self.failing -= 1
            raise RuntimeError("the log is away")
        return self.next_ms.get(match_id, 0)


def _timers() -> tuple[FakeClock, Matches, MatchTimers]:
    clock = FakeClock()
    matches = Matches(clock)
    return clock, matches, MatchTimers(matches.fire, clock.now_ms, clock.call_later)


async def test_a_timer_fires_at_its_deadline_and_is_armed_again_at_the_next() -> None:
    clock, matches, timers = _timers()
    timers.arm("m1", clock.now + 3000)
    matches.next_ms["m1"] = clock.now + 5000
    await clock.advance(2999)
    assert matches.fired == []
    await clock.advance(1)
    assert matches.fired == [("m1", 1_003_000)]
    assert timers.deadline("m1") == 1_005_000
    matches.next_ms["m1"] = 0  # the match closed
    await clock.advance(2000)
    assert [at for _, at in matches.fired] == [1_003_000, 1_005_000]
    assert "m1" not in timers and clock.pending() == []


async def test_arming_again_moves_the_one_wake_up_and_zero_drops_it() -> None:
    clock, matches, timers = _timers()
    timers.arm("m1", clock.now + 3000)
    timers.arm("m1", clock.now + 3000)  # the same deadline: nothing changes
    timers.arm("m1", clock.now + 4000)  # a step moved it
    assert clock.pending() == [1_004_000] and len(timers) == 1
    await clock.advance(3500)
    assert matches.fired == []
    timers.arm("m1", 0)
    await clock.advance(10_000)
    assert matches.fired == [] and len(timers) == 0


async def test_a_past_deadline_fires_at_once() -> None:
    clock, matches, timers = _timers()
    timers.arm("late", clock.now - 60_000)  # armed by a replica that took the match over after its deadline
    await clock.advance(0)
    assert matches.fired == [("late", 1_000_000)]


async def test_each_match_fires_on_its_own_deadline() -> None:
    clock, matches, timers = _timers()
    for n in range(200):
        timers.arm(f"m{n}", clock.now + 1000 + 7 * n)
    await clock.advance(2400)
    assert [(m, at - 1_000_000) for m, at in matches.fired] == [(f"m{n}", 1000 + 7 * n) for n in range(200)]


async def test_a_failing_firing_is_tried_again_with_a_growing_pause() -> None:
    clock, matches, timers = _timers()
    matches.failing = 3
    timers.arm("m1", clock.now + 1000)
    await clock.advance(1000 + 100 + 200 + 400)
    first = int(RETRY_FIRST_SECONDS * 1000)
    assert [at - 1_001_000 for _, at in matches.fired] == [0, first, 3 * first, 7 * first]
    assert "m1" not in timers  # the fourth try went through and the match needs no timer any more


async def test_a_step_during_a_firing_keeps_its_newer_deadline() -> None:
    clock = FakeClock()
    release = asyncio.Event()
    timers: MatchTimers

    async def fire(match_id: str) -> int:
        timers.arm(match_id, clock.now + 9000)  # a player's move landed while the timeout was judged
        await release.wait()
        return clock.now + 2000

    timers = MatchTimers(fire, clock.now_ms, clock.call_later)
    timers.arm("m1", clock.now + 1000)
    await clock.advance(1000)
    release.set()
    for _ in range(5):
        await asyncio.sleep(0)
    assert timers.deadline("m1") == 1_010_000


async def test_a_cancelled_match_does_not_fire_and_close_drops_everything() -> None:
    clock, matches, timers = _timers()
    timers.arm("m1", clock.now + 1000)
    timers.arm("m2", clock.now + 1000)
    timers.cancel("m1")
    await clock.advance(1000)
    assert matches.fired == [("m2", 1_001_000)]
    timers.arm("m3", clock.now + 1000)
    timers.close()
    await clock.advance(5000)
    assert len(timers) == 0 and matches.fired == [("m2", 1_001_000)]


async def test_a_wake_up_before_the_wall_clock_reaches_the_deadline_waits_the_rest() -> None:
    clock, matches, timers = _timers()
    timers.arm("m1", clock.now + 1000)
    wake = clock.wakes[-1]
    clock.wakes.remove(wake)
    clock.now += 990  # the loop's clock ran 10 ms ahead of the wall clock
    wake.callback()
    assert matches.fired == [] and clock.pending() == [1_001_000]
    await clock.advance(10)
    assert matches.fired == [("m1", 1_001_000)]


async def test_firings_run_a_bounded_number_at_once() -> None:
    clock = FakeClock()
    running, most = 0, 0
    release = asyncio.Event()

    async def fire(match_id: str) -> int:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await release.wait()
        running -= 1
        return 0

    timers = MatchTimers(fire, clock.now_ms, clock.call_later, at_once=3)
    for n in range(10):
        timers.arm(f"m{n}", clock.now - 1000)  # all overdue: a replica starting after an outage
    await clock.advance(0)
    assert most == 3
    release.set()
    for _ in range(50):
        await asyncio.sleep(0)
    assert most == 3 and len(timers) == 0
