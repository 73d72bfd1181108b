"""Bots decide from the view alone: hidden changes do not move them, and they never touch the true state."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from gamehall.ai import LEVELS, Bot, make_bot, play_match
from gamehall.ai.playout import random_playout
from gamehall.engine import Action, Game, JsonDict
from tests.fixtures.high_card import GAME as HIGH_CARD
from tests.fixtures.high_card import State as HighCardState

BUDGETS = {"hard": 120, "expert": 240}
"""Smaller search budgets than the levels' defaults: the property does not depend on them."""


def level_bot(level: str) -> Bot:
    return make_bot(level, iterations=BUDGETS.get(level))


def positions(count: int) -> list[tuple[HighCardState, int]]:
    """Mid-match High Card states with the seat to decide, reached by random play."""
    out = []
    rng = random.Random(11)
    config = HIGH_CARD.configure()
    for seed in range(count):
        state = HIGH_CARD.new_match(config, seed)
        while True:
            state, _ = random_playout(HIGH_CARD, state, rng, max_steps=rng.randrange(0, 6))
            if HIGH_CARD.outcome(state) is None:
                break
            state = HIGH_CARD.new_match(config, seed + 1000)
        out.append((state, min(HIGH_CARD.to_act(state))))
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_decision_ignores_what_the_seat_cannot_see(level: str) -> None:
    redrawn = 0
    for index, (state, seat) in enumerate(positions(4)):
        legal = list(HIGH_CARD.legal_actions(state, seat))
        decisions = set()
        for variant in range(3):
            other = HIGH_CARD.resample_hidden(state, seat, random.Random(100 * index + variant))
            redrawn += HIGH_CARD.encode(other) != HIGH_CARD.encode(state)
            assert HIGH_CARD.view(other, seat) == HIGH_CARD.view(state, seat)
            view = HIGH_CARD.view(other, seat)
            decisions.add(level_bot(level).choose(HIGH_CARD, view, seat, legal, random.Random(5)))
        assert len(decisions) == 1, f"{level} changed its mind on hidden information: {decisions}"
    assert redrawn >= 10, "the hidden parts were not actually redrawn"


class SpyGame:
    """The arena's game: records every true state it creates, so bots can be checked against them."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.true_states: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.game, name)
        if name not in ("new_match", "apply"):
            return attr

        def recorded(*args: Any, **kwargs: Any) -> Any:
            result = attr(*args, **kwargs)
            self.true_states.append(result if name == "new_match" else result[0])
            return result

        return recorded


class GuardedGame:
    """What a bot gets instead of the game: every call fails if it is handed a true state."""

    def __init__(self, game: Game[Any], spy: SpyGame, calls: list[str]) -> None:
        self.game, self.spy, self.calls = game, spy, calls

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.game, name)
        if not callable(attr):
            return attr

        def guarded(*args: Any, **kwargs: Any) -> Any:
            for arg in (*args, *kwargs.values()):
                if isinstance(arg, HighCardState):
                    assert all(arg is not true for true in self.spy.true_states), f"bot passed the true state to {name}"
                    assert all(arg.rng != true.rng for true in self.spy.true_states), "bot knows the match RNG"
            self.calls.append(name)
            return attr(*args, **kwargs)

        return guarded


class GuardedBot:
    """Wraps a bot: checks what the harness hands it and gives it only the guarded game."""

    def __init__(self, inner: Bot, spy: SpyGame, calls: list[str]) -> None:
        self.inner, self.spy, self.calls = inner, spy, calls
        self.name = f"guarded-{inner.name}"
        self.decisions = 0

    def choose(self, game: Any, view: JsonDict, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        assert type(view) is dict and json.loads(json.dumps(view)) == view, "the view must be plain JSON data"
        assert not any(isinstance(v, HighCardState) for v in (game, view, seat, legal, rng))
        assert all(isinstance(a, Action) for a in legal)
        assert "hands" not in view and "deck" not in view and "rng" not in view
        self.decisions += 1
        return self.inner.choose(GuardedGame(self.spy.game, self.spy, self.calls), view, seat, legal, rng)


@pytest.mark.parametrize("level", ["random", "normal", "hard"])
def test_bots_never_receive_a_state(level: str) -> None:
    spy = SpyGame(HIGH_CARD)
    calls: list[str] = []
    config = HIGH_CARD.configure()
    bots = [GuardedBot(level_bot(level), spy, calls), GuardedBot(level_bot("random"), spy, calls)]
    for seed in range(3):
        result = play_match(spy, config, bots, seed)  # type: ignore[arg-type]
        assert result.outcome is not None
    assert bots[0].decisions > 0 and len(spy.true_states) > 3
    if level != "random":
        assert "determinize" in calls and "apply" in calls, "the search ran on determinized states only"


def test_a_bot_mutating_its_view_cannot_touch_the_match() -> None:
    class Vandal:
        name = "vandal"

        def choose(self, game: Any, view: JsonDict, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
            view["hand"].clear()
            view["scores"][seat] = 99
            return legal[0]

    config = HIGH_CARD.configure()
    vandal: Callable[[], Bot] = Vandal
    result = play_match(HIGH_CARD, config, [vandal(), vandal()], seed=3)
    assert result.outcome.scores is not None and max(result.outcome.scores) <= 5
