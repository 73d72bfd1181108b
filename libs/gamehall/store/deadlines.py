"""`next_deadline_ms`: the earliest clock deadline of a match, kept in its row so that a rules replica that
starts or takes matches over arms its timers from one indexed read instead of scanning every running match
(ARCHITECTURE rule 7).

Derived from the `clock` spec and the `clock_state` with the pure functions of `gamehall.matches.clocks`;
None (SQL NULL) when there is no active clock, nobody is to act, or the match is closed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamehall.matches import clocks
from gamehall.matches.clocks import ClockSpec
from gamehall.store.errors import InvalidArgument
from gamehall.store.rows import load_optional_json


def clock_spec(clock: Mapping[str, Any] | str | None) -> ClockSpec:
    """The clock spec of a `clock` value (a dict, or the column's JSON text); InvalidArgument when malformed."""
    data = load_optional_json(clock) if isinstance(clock, str | bytes) else clock
    try:
        return ClockSpec.from_json(dict(data) if data is not None else None)
    except (TypeError, ValueError) as exc:
        raise InvalidArgument(f"the clock spec {data!r} is malformed: {exc}") from exc


def next_deadline_ms(clock: Mapping[str, Any] | str | None, clock_state: Mapping[str, Any] | str | None) -> int | None:
    """The smallest positive deadline (unix ms) over the seats to act and the inactivity limit, or None when
    neither runs.

    InvalidArgument when an active clock meets a clock state it cannot read (that clock could never fire).
    """
    spec = clock_spec(clock)
    state = load_optional_json(clock_state) if isinstance(clock_state, str | bytes) else clock_state
    if not spec.stored or not state:
        return None
    try:
        at = clocks.next_deadline_ms(spec, dict(state))
    except (TypeError, ValueError, IndexError, AttributeError) as exc:
        raise InvalidArgument(f"the clock state does not fit the clock {spec.to_json()}: {exc}") from exc
    return at or None
