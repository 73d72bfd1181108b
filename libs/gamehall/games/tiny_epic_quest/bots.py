"""Simple bots for balance runs: uniform random, and a one-ply greedy bot over `heuristic.evaluate`.

The greedy bot never peeks at the dice: it scores each action on a copy whose hidden parts (RNG, decks)
were redrawn with `resample_hidden`, as an information-set bot must.
"""

from __future__ import annotations

import random

from gamehall.engine import Action
from gamehall.games.tiny_epic_quest.game import GAME
from gamehall.games.tiny_epic_quest.heuristic import evaluate
from gamehall.games.tiny_epic_quest.state import State


class RandomBot:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: State, seat: int) -> Action:
        return self.rng.choice(GAME.legal_actions(state, seat))


class GreedyBot:
    """Picks the action whose resulting position evaluates best (averaged over `samples` redraws)."""

    def __init__(self, rng: random.Random, samples: int = 2) -> None:
        self.rng = rng
        self.samples = samples

    def choose(self, state: State, seat: int) -> Action:
        legal = GAME.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        worlds = [GAME.resample_hidden(state, seat, self.rng) for _ in range(self.samples)]
        best: list[Action] = []
        best_value = -1.0
        for action in legal:
            value = 0.0
            for world in worlds:
                after, _ = GAME.apply(world, seat, action, trusted=True)
                value += evaluate(after, seat)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return self.rng.choice(best)
