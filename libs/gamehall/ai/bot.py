"""The bot protocol: a seat's policy that decides from its view alone, never from the state.

A bot is handed `(game, view, seat, legal, rng)`: the game object (to run its own searches
on determinized states), what `seat` may see, the seat's legal actions (public knowledge to
that seat) and a seeded `random.Random` that is the bot's only source of chance.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from gamehall.engine import Action, Game, JsonDict


@runtime_checkable
class Bot(Protocol):
    """Anything that picks one of `legal` for `seat` given only its `view`."""

    name: str

    def choose(self, game: Game[Any], view: JsonDict, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        """One action of `legal`; deterministic for a fixed `rng` state."""
        ...


class RandomBot:
    """Uniform over the legal actions: the baseline every level must beat."""

    name = "random"

    def choose(self, game: Game[Any], view: JsonDict, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError(f"seat {seat} has no legal action to choose from")
        return legal[rng.randrange(len(legal))]
