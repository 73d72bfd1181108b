"""Difficulty levels: each name maps to an algorithm and a budget (`make_bot`).

Every playing level is information-set MCTS with a growing iteration budget, so strength
rises with the level on every game, whatever the quality of its heuristic (a one-ply
greedy bot over a weak heuristic lost to random play in Grimslingers):

- ``random``: uniform over legal actions (a baseline, not offered to players as a level).
- ``easy``: ISMCTS, 20 iterations.
- ``normal``: ISMCTS, 80 iterations.
- ``hard``: ISMCTS, 300 iterations.
- ``expert``: ISMCTS, 1200 iterations.

Rollouts run to the end unless the game's heuristic declares the depth it can be trusted at
(`ROLLOUT_DEPTH` in its heuristic module): then every level cuts them there.

Iteration budgets keep a level deterministic for a seed; a service may add a time cap
(`time_ms`), which bounds the thinking time whatever the game's speed. `GreedyBot` and
heuristic-cut rollouts (`ISMCTSBot(heuristic_depth=...)`) stay available for tuning.
"""

from __future__ import annotations

from gamehall.ai.bot import Bot, RandomBot
from gamehall.ai.ismcts import ISMCTSBot

LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard", "expert")
"""Every level name, weakest first."""

BUDGETS: dict[str, int] = {"easy": 20, "normal": 80, "hard": 300, "expert": 1200}
"""ISMCTS iterations per level."""


def make_bot(level: str, *, iterations: int | None = None, time_ms: float | None = None) -> Bot:
    """A fresh bot for `level`.

    `iterations` replaces the level's iteration budget and `time_ms` adds a
    thinking-time cap (whichever ends first; a capped search is no longer reproducible).
    """
    if level == "random":
        return RandomBot()
    if level in BUDGETS:
        budget = iterations if iterations is not None else BUDGETS[level]
        return ISMCTSBot(iterations=budget, time_ms=time_ms, name=level)
    raise ValueError(f"unknown bot level {level!r}; levels: {list(LEVELS)}")
