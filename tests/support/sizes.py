"""How many random matches (or campaigns) a simulation test plays.

`make test` plays a quick sample that still covers every configuration a test cycles through; `make simulate`
(GAMEHALL_FULL_SIMULATIONS=1, the tests marked `slow`) plays the full counts the tests were written with. The
suite stays fast (the brief: thousands of matches per run belong outside it) and the long runs stay one command
away, on the same code.
"""

from __future__ import annotations

import os

FULL = os.environ.get("GAMEHALL_FULL_SIMULATIONS", "") == "1"


def simulations(full: int, quick: int) -> int:
    """`full` under `make simulate`, else `quick` (never more than `full`)."""
    return full if FULL else min(quick, full)
