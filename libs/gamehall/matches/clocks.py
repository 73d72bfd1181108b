"""Turn clocks as data: who is to act since when, and how much bank each seat has left.

The clock state travels in the match row (written with each action, so it survives any restart):
``{"to_act": [seats], "since_ms": {"seat": unix_ms}, "remaining_ms": [per seat] | null}``.
It is kept (with `to_act`) for every running match; the deadlines only when a clock was chosen.
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

    @property
    def active(self) -> bool:
        return self.per_move_ms > 0 or self.bank_ms > 0

    def to_json(self) -> dict[str, int]:
        return {"per_move_ms": self.per_move_ms, "bank_ms": self.bank_ms, "increment_ms": self.increment_ms}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> ClockSpec:
        data = data or {}
        return cls(int(data.get("per_move_ms", 0)), int(data.get("bank_ms", 0)), int(data.get("increment_ms", 0)))

    @classmethod
    def checked(cls, per_move_ms: int, bank_ms: int, increment_ms: int) -> ClockSpec:
        """A spec from a client's numbers; InvalidClock when out of bounds."""
        spec = cls(int(per_move_ms), int(bank_ms), int(increment_ms))
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
    return {"to_act": acting, "since_ms": new_since, "remaining_ms": remaining}


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


def remaining_now(spec: ClockSpec, state: dict[str, Any] | None, seat: int, now_ms: int) -> int:
    """Bank left for `seat` right now (0 without a bank)."""
    if not spec.bank_ms or not state or state.get("remaining_ms") is None:
        return 0
    left = int(state["remaining_ms"][seat])
    since = (state.get("since_ms") or {}).get(str(seat))
    return max(0, left - (now_ms - since)) if since is not None else left
