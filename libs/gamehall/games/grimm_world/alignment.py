"""Alignment: +4..+1, -1..-4 with no 0, queries and capped changes (W-AL-01..04, AMB-1)."""

from __future__ import annotations

from gamehall.engine import IllegalAction

SCALE = (-4, -3, -2, -1, 1, 2, 3, 4)


def check(alignment: int) -> int:
    if alignment not in SCALE:
        raise IllegalAction(f"alignment {alignment} does not exist (0 is not a value)")
    return alignment


def query(alignment: int, k: int) -> bool:
    """A green +k query passes when alignment >= +k; a red -k query when alignment <= -k (W-AL-02)."""
    check(alignment)
    return alignment >= k if k > 0 else alignment <= k


def change(alignment: int, steps: int, cap: int | None = None) -> int:
    """Move `steps` along the scale (positive: good), skipping 0; stop at `cap`, never pulling back an
    alignment already beyond it (AMB-1)."""
    index = SCALE.index(check(alignment))
    target = SCALE[max(0, min(len(SCALE) - 1, index + steps))]
    if cap is not None:
        check(cap)
        if steps > 0 and target > cap:
            target = max(alignment, cap)
        elif steps < 0 and target < cap:
            target = min(alignment, cap)
    return target
