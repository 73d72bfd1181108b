"""Simple bots for balance runs and tests: uniformly random, and one-ply greedy on `heuristic.evaluate`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from gamehall.engine import Action
from gamehall.games.grimmoir.game import GAME
from gamehall.games.grimmoir.heuristic import evaluate
from gamehall.games.grimmoir.state import Phase, State


class Bot(Protocol):
    name: str

    def choose(self, state: State, seat: int, legal: Sequence[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, state: State, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal))


class GreedyBot:
    """Tries every legal action and keeps the best `evaluate` of the result (ties broken at random).

    Team formation (factions, recruits) stays random so balance runs cover every character;
    from the display on it plays greedily.
    """

    name = "greedy"

    def choose(self, state: State, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        if state.phase < Phase.DISPLAY or len(legal) == 1:
            return rng.choice(list(legal))
        best: list[Action] = []
        best_value = -1.0
        for action in legal:
            after, _ = GAME.apply(state, seat, action, trusted=True)
            value = evaluate(after, seat)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value > best_value - 1e-9:
                best.append(action)
        return rng.choice(best)


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}
