"""Position evaluators: a game's own heuristic when it ships one, random rollouts otherwise.

A heuristic is `evaluate(state, seat) -> float` in [0, 1] (an estimate of `seat`'s return).
Bots only ever call it on states they built themselves with `game.determinize`, so a
heuristic may read the whole state without making a bot unfair. It is found, in order:

1. registered explicitly: `register_heuristic(game_id, fn)`;
2. shipped by the game: the function `evaluate` in `<game package>.heuristic`, where the
   package is the one holding `type(game)` (or the nearest base class that has one);
3. the generic fallback: the mean return of a few random rollouts to the end.

A shipped heuristic module may also declare ``ROLLOUT_DEPTH = n``: the game's statement
that its evaluator values a position well after `n` random actions. Search then cuts its
rollouts there (`find_rollout_depth`), which is what makes long games searchable.
"""

from __future__ import annotations

import hashlib
import importlib
import math
import random
from collections.abc import Callable
from typing import Any

from gamehall.ai.playout import random_playout
from gamehall.engine import Game, StructGame

HeuristicFn = Callable[[Any, int], float]

_registered: dict[str, HeuristicFn] = {}
_discovered: dict[type, tuple[HeuristicFn, int | None] | None] = {}
_BASES = frozenset({Game, StructGame, object})


def register_heuristic(game_id: str, fn: HeuristicFn) -> None:
    """Use `fn` as the evaluator of game `game_id`, ahead of anything the game ships."""
    _registered[game_id] = fn


def unregister_heuristic(game_id: str) -> None:
    _registered.pop(game_id, None)


def _package_of(module_name: str) -> str:
    module = importlib.import_module(module_name)
    if hasattr(module, "__path__"):
        return module_name
    return module.__package__ or module_name.rpartition(".")[0]


def _shipped(cls: type) -> tuple[HeuristicFn, int | None] | None:
    """`evaluate` (and `ROLLOUT_DEPTH`) from `<package of cls>.heuristic`, or None when it does not exist."""
    package = _package_of(cls.__module__)
    if not package:
        return None
    target = f"{package}.heuristic"
    if target == __name__:
        return None
    try:
        module = importlib.import_module(target)
    except ModuleNotFoundError as exc:
        if exc.name in (target, package):
            return None
        raise  # the heuristic exists but imports something missing: say so, do not hide it
    fn = getattr(module, "evaluate", None)
    if not callable(fn):
        raise TypeError(f"{target} must define a function evaluate(state, seat) -> float")
    depth = getattr(module, "ROLLOUT_DEPTH", None)
    if depth is not None and (not isinstance(depth, int) or depth < 1):
        raise TypeError(f"{target}.ROLLOUT_DEPTH must be a positive int")
    return fn, depth


def _discover(game: Game[Any]) -> tuple[HeuristicFn, int | None] | None:
    cls = type(game)
    if cls not in _discovered:
        found: tuple[HeuristicFn, int | None] | None = None
        for base in cls.__mro__:
            if base in _BASES or base.__module__ == "abc" or base.__module__ == "typing":
                continue
            found = _shipped(base)
            if found is not None:
                break
        _discovered[cls] = found
    return _discovered[cls]


def find_heuristic(game: Game[Any]) -> HeuristicFn | None:
    """The game's evaluator (registered, then shipped), or None if it has none."""
    if game.id in _registered:
        return _registered[game.id]
    found = _discover(game)
    return None if found is None else found[0]


def find_rollout_depth(game: Game[Any]) -> int | None:
    """The rollout length the game's shipped heuristic declares it can be trusted at, if any."""
    found = _discover(game)
    return None if found is None else found[1]


class Evaluator:
    """Values of a state for its seats in [0, 1], from a heuristic or from random rollouts.

    The rollout fallback seeds its generator from the state's bytes, so a value is a pure
    function of the state (bots stay deterministic for a fixed seed).
    """

    def __init__(self, game: Game[Any], fn: HeuristicFn | None = None, *, rollouts: int = 4) -> None:
        self.game = game
        self.fn = fn
        self.rollouts = rollouts
        self.source = "heuristic" if fn is not None else "rollouts"

    @classmethod
    def for_game(cls, game: Game[Any], *, rollouts: int = 4) -> Evaluator:
        """The game's heuristic if it has one, else `rollouts` random rollouts per value."""
        return cls(game, find_heuristic(game), rollouts=rollouts)

    def value(self, state: Any, seat: int) -> float:
        if self.fn is not None:
            return _checked(self.fn(state, seat), self.game.id)
        return self._rollout_values(state)[seat]

    def values(self, state: Any, seats: int) -> list[float]:
        """The value for every seat `0..seats-1`."""
        fn = self.fn
        if fn is not None:
            return [_checked(fn(state, seat), self.game.id) for seat in range(seats)]
        return self._rollout_values(state)

    def _rollout_values(self, state: Any) -> list[float]:
        game = self.game
        digest = hashlib.blake2b(game.encode(state), digest_size=8).digest()
        rng = random.Random(int.from_bytes(digest, "big"))
        totals: list[float] | None = None
        finished = 0
        for _ in range(self.rollouts):
            end, _steps = random_playout(game, state, rng)
            outcome = game.outcome(end)
            if outcome is None:
                continue  # ran past max_steps: counts as nothing learnt
            returns = outcome.returns()
            finished += 1
            totals = list(returns) if totals is None else [t + r for t, r in zip(totals, returns, strict=True)]
        if totals is None:
            seats = game.config_of(state).seats
            return [0.5] * seats
        return [t / finished for t in totals]


def _checked(value: float, game_id: str) -> float:
    value = float(value)
    if math.isnan(value):
        raise ValueError(f"the {game_id} heuristic returned NaN")
    return min(1.0, max(0.0, value))
