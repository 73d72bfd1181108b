"""Random playouts: the cheapest way to finish a match from a (determinized) state."""

from __future__ import annotations

import random
from typing import Any

from gamehall.engine import Game


def random_playout(game: Game[Any], state: Any, rng: random.Random, max_steps: int | None = None) -> tuple[Any, int]:
    """Play uniformly random legal actions until the match ends or `max_steps` actions were made.

    When several seats act at once, one of them (uniformly) moves first; the others then
    choose from the resulting state, which for a secret commitment shows them nothing new.
    Returns the final state and the number of actions played.
    """
    limit = game.max_steps if max_steps is None else max_steps
    steps = 0
    to_act = game.to_act
    legal_actions = game.legal_actions
    apply = game.apply
    while steps < limit:
        acting = to_act(state)
        if not acting:
            break
        if len(acting) == 1:
            (seat,) = acting
        else:
            ordered = sorted(acting)
            seat = ordered[rng.randrange(len(ordered))]
        legal = legal_actions(state, seat)
        state, _ = apply(state, seat, legal[rng.randrange(len(legal))], trusted=True)
        steps += 1
    return state, steps
