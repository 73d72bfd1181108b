"""GreedyBot: one-ply lookahead, averaged over a few determinizations of what the seat sees."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gamehall.ai.heuristic import Evaluator
from gamehall.engine import Action, Game, JsonDict


class GreedyBot:
    """Tries every legal action on `determinizations` sampled states and keeps the best average value.

    `noise` is the chance of playing a uniformly random action instead (the `easy` level).
    The evaluator defaults to the game's heuristic, else `rollouts` random rollouts.
    """

    def __init__(
        self,
        *,
        determinizations: int = 4,
        noise: float = 0.0,
        rollouts: int = 4,
        evaluator: Evaluator | None = None,
        name: str = "greedy",
    ) -> None:
        if determinizations < 1:
            raise ValueError("determinizations must be at least 1")
        if not 0.0 <= noise <= 1.0:
            raise ValueError("noise is a probability in [0, 1]")
        self.determinizations = determinizations
        self.noise = noise
        self.rollouts = rollouts
        self.evaluator = evaluator
        self.name = name

    def choose(self, game: Game[Any], view: JsonDict, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError(f"seat {seat} has no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        if self.noise and rng.random() < self.noise:
            return legal[rng.randrange(len(legal))]
        evaluator = self.evaluator or Evaluator.for_game(game, rollouts=self.rollouts)
        totals = [0.0] * len(legal)
        for _ in range(self.determinizations):
            state = game.determinize(view, seat, rng)
            for i, action in enumerate(legal):
                after, _ = game.apply(state, seat, action, trusted=True)
                outcome = game.outcome(after)
                totals[i] += outcome.returns()[seat] if outcome is not None else evaluator.value(after, seat)
        best = max(totals)
        candidates = [i for i, total in enumerate(totals) if total >= best - 1e-9]
        return legal[candidates[rng.randrange(len(candidates))]]
