"""Difficulty levels: each name maps to an algorithm and a budget (`make_bot`).

- ``random``: uniform over legal actions (a baseline, not offered to players as a level).
- ``easy``: greedy on one determinization with one-rollout values, and a random move 35% of the time.
- ``normal``: greedy over 4 determinizations, each action valued by the game heuristic or 4 rollouts.
- ``hard``: ISMCTS, 300 iterations, random rollouts to the end.
- ``expert``: ISMCTS, 1000 iterations, rollouts cut after 6 actions and valued by the game's
  heuristic when it ships one (else random rollouts to the end).

Iteration budgets keep a level deterministic for a seed; a service adds a time cap
(`time_ms`) so a slow game (tens of iterations per second) cannot stall a table.
"""

from __future__ import annotations

from gamehall.ai.bot import Bot, RandomBot
from gamehall.ai.greedy import GreedyBot
from gamehall.ai.ismcts import ISMCTSBot

LEVELS: tuple[str, ...] = ("random", "easy", "normal", "hard", "expert")
"""Every level name, weakest first."""

HARD_ITERATIONS = 300
EXPERT_ITERATIONS = 1000
EXPERT_HEURISTIC_DEPTH = 6


def make_bot(level: str, *, iterations: int | None = None, time_ms: float | None = None) -> Bot:
    """A fresh bot for `level`.

    For hard/expert, `iterations` replaces the level's iteration budget and `time_ms` adds a
    thinking-time cap (whichever ends first; a capped search is no longer reproducible).
    """
    if level == "random":
        return RandomBot()
    if level == "easy":
        return GreedyBot(determinizations=1, rollouts=1, noise=0.35, name="easy")
    if level == "normal":
        return GreedyBot(determinizations=4, rollouts=4, name="normal")
    if level in ("hard", "expert"):
        budget = iterations if iterations is not None else (HARD_ITERATIONS if level == "hard" else EXPERT_ITERATIONS)
        depth = EXPERT_HEURISTIC_DEPTH if level == "expert" else None
        return ISMCTSBot(iterations=budget, time_ms=time_ms, heuristic_depth=depth, name=level)
    raise ValueError(f"unknown bot level {level!r}; levels: {list(LEVELS)}")
