"""Turn clocks as data: who is to act since when, and how much bank each seat has left.

The clock state travels in the match row (written with each action, so it survives any restart):
``{"to_act": [seats], "since_ms": {"seat": unix_ms}, "remaining_ms": [per seat] | null, "moved_ms": unix_ms}``.
It is kept (with `to_act`) for every running match; the deadlines only when a clock was chosen. A spec's
`idle_ms` is the platform's inactivity policy (issue 20, finding 8): a running match with no step for that
long is abandoned (aborted), clock or no clock.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gamehall.matches.errors import InvalidClock

MAX_CLOCK_MS = 7 * 24 * 3600 * 1000


@dataclass(frozen=True)
class ClockSpec:
    per_move_ms: int = 0
    bank_ms: int = 0
    increment_ms: int = 0
    idle_ms: int = 0
    """The match is abandoned (aborted) after this long without a step; 0: never. Set by the platform."""

    @property
    def active(self) -> bool:
        """Whether a turn clock runs (the inactivity limit alone is not a turn clock)."""
        return self.per_move_ms > 0 or self.bank_ms > 0

    @property
    def stored(self) -> bool:
        """Whether the match keeps this spec (a turn clock or an inactivity limit)."""
        return self.active or self.idle_ms > 0

    def to_json(self) -> dict[str, int]:
        out = {"per_move_ms": self.per_move_ms, "bank_ms": self.bank_ms, "increment_ms": self.increment_ms}
        if self.idle_ms:
            out["idle_ms"] = self.idle_ms
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> ClockSpec:
        data = data or {}
        return cls(
            int(data.get("per_move_ms", 0)),
            int(data.get("bank_ms", 0)),
            int(data.get("increment_ms", 0)),
            int(data.get("idle_ms", 0)),
        )

    @classmethod
    def checked(cls, per_move_ms: int, bank_ms: int, increment_ms: int, idle_ms: int = 0) -> ClockSpec:
        """A spec from a client's numbers (and the platform's inactivity limit); InvalidClock when out of bounds."""
        spec = cls(int(per_move_ms), int(bank_ms), int(increment_ms), max(0, int(idle_ms)))
        if min(spec.per_move_ms, spec.bank_ms, spec.increment_ms) < 0:
            raise InvalidClock("clock times cannot be negative")
        if max(spec.per_move_ms, spec.bank_ms, spec.increment_ms) > MAX_CLOCK_MS:
            raise InvalidClock("clock times are limited to 7 days")
        if spec.increment_ms and not spec.bank_ms:
            raise InvalidClock("an increment needs a time bank (bank_ms)")
        return spec


def initial(spec: ClockSpec, seats: int, to_act: Iterable[int], now_ms: int) -> dict[str, Any]:
    """The clock state when a match starts running."""
    acting = sorted(to_act)
    return {
        "to_act": acting,
        "since_ms": {str(s): now_ms for s in acting} if spec.active else {},
        "remaining_ms": [spec.bank_ms] * seats if spec.bank_ms else None,
        "moved_ms": now_ms,
    }


def advance(
    spec: ClockSpec, state: dict[str, Any] | None, seats: int, actor: int, to_act: Iterable[int], now_ms: int
) -> dict[str, Any]:
    """The clock state after `actor` moved and the engine said `to_act` must act next."""
    state = state or initial(spec, seats, (), now_ms)
    since: dict[str, int] = dict(state.get("since_ms") or {})
    remaining = list(state["remaining_ms"]) if state.get("remaining_ms") is not None else None
    if remaining is not None and str(actor) in since:
        used = now_ms - since[str(actor)]
        remaining[actor] = max(0, remaining[actor] - used) + spec.increment_ms
    acting = sorted(to_act)
    new_since: dict[str, int] = {}
    if spec.active:
        for seat in acting:
            kept = since.get(str(seat))
            new_since[str(seat)] = now_ms if seat == actor or kept is None else kept
    return {"to_act": acting, "since_ms": new_since, "remaining_ms": remaining, "moved_ms": now_ms}


def deadline_ms(spec: ClockSpec, state: dict[str, Any] | None, seat: int) -> int:
    """Unix ms by which `seat` must act (0: no clock, or the seat is not to act)."""
    if not spec.active or not state:
        return 0
    since = (state.get("since_ms") or {}).get(str(seat))
    if since is None:
        return 0
    limits = []
    if spec.per_move_ms:
        limits.append(since + spec.per_move_ms)
    remaining = state.get("remaining_ms")
    if spec.bank_ms and remaining is not None:
        limits.append(since + remaining[seat])
    return min(limits) if limits else 0


def expired(spec: ClockSpec, state: dict[str, Any] | None, now_ms: int) -> list[int]:
    """Seats whose time ran out."""
    if not spec.active or not state:
        return []
    return [s for s in state.get("to_act", []) if 0 < deadline_ms(spec, state, s) <= now_ms]


def abandon_at_ms(spec: ClockSpec, state: dict[str, Any] | None) -> int:
    """Unix ms at which the match counts as abandoned (0: no inactivity limit, or no step time known)."""
    if not spec.idle_ms or not state or not state.get("moved_ms"):
        return 0
    return int(state["moved_ms"]) + spec.idle_ms


def abandoned(spec: ClockSpec, state: dict[str, Any] | None, now_ms: int) -> bool:
    """True when nothing happened in the match for the spec's inactivity limit."""
    at = abandon_at_ms(spec, state)
    return 0 < at <= now_ms


def next_deadline_ms(spec: ClockSpec, state: dict[str, Any] | None) -> int:
    """The match's next deadline (unix ms): the earliest of its seats' turn deadlines and its inactivity limit;
    0 when neither runs. What the owner's timer is armed at and what the store indexes the match by.

    Raises TypeError, ValueError, IndexError or AttributeError when the state does not fit the spec."""
    if not spec.stored or not state:
        return 0
    deadlines = [deadline_ms(spec, state, int(seat)) for seat in state.get("to_act") or ()]
    deadlines.append(abandon_at_ms(spec, state))
    positive = [int(d) for d in deadlines if d > 0]
    return min(positive) if positive else 0


def remaining_now(spec: ClockSpec, state: dict[str, Any] | None, seat: int, now_ms: int) -> int:
    """Bank left for `seat` right now (0 without a bank)."""
    if not spec.bank_ms or not state or state.get("remaining_ms") is None:
        return 0
    left = int(state["remaining_ms"][seat])
    since = (state.get("since_ms") or {}).get(str(seat))
    return max(0, left - (now_ms - since)) if since is not None else left
