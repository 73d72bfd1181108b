"""The inactivity limit (issue 20, finding 8): a running match with no step for the platform's `idle_ms` is
abandoned, clock or no clock, and its row's next deadline says when, so a replica that takes it over arms its
timer from one indexed read."""

from __future__ import annotations

from gamehall.matches import clocks
from gamehall.matches.clocks import ClockSpec
from gamehall.store.deadlines import next_deadline_ms

HOUR = 3_600_000


def test_an_unclocked_match_is_abandoned_after_the_limit_since_its_last_step() -> None:
    spec = ClockSpec.checked(0, 0, 0, idle_ms=HOUR)
    assert not spec.active and spec.stored
    state = clocks.initial(spec, 2, [0], now_ms=1_000)
    assert clocks.abandon_at_ms(spec, state) == 1_000 + HOUR
    assert not clocks.abandoned(spec, state, 1_000 + HOUR - 1) and clocks.abandoned(spec, state, 1_000 + HOUR)
    assert clocks.expired(spec, state, 10 * HOUR) == []  # no turn clock: nobody times out, the match is abandoned
    moved = clocks.advance(spec, state, 2, 0, [1], now_ms=5_000)
    assert clocks.abandon_at_ms(spec, moved) == 5_000 + HOUR  # each step restarts the count
    assert next_deadline_ms(spec.to_json(), moved) == 5_000 + HOUR


def test_a_turn_clock_fires_first_and_no_limit_means_never() -> None:
    clocked = ClockSpec.checked(60_000, 0, 0, idle_ms=HOUR)
    state = clocks.initial(clocked, 2, [1], now_ms=0)
    assert next_deadline_ms(clocked.to_json(), state) == 60_000
    assert ClockSpec.from_json(clocked.to_json()) == clocked
    plain = ClockSpec.checked(0, 0, 0)
    assert not plain.stored and plain.to_json() == {"per_move_ms": 0, "bank_ms": 0, "increment_ms": 0}
    assert next_deadline_ms(plain.to_json(), clocks.initial(plain, 2, [0], now_ms=0)) is None
    assert not clocks.abandoned(plain, clocks.initial(plain, 2, [0], now_ms=0), 10**15)
    assert clocks.abandon_at_ms(ClockSpec(idle_ms=HOUR), {"to_act": [0]}) == 0  # a state from before the limit
