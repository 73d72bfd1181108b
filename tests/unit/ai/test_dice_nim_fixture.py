"""The Dice Nim fixture honours the engine protocol, and its heuristic is found by the bots."""

from __future__ import annotations

import pytest

from gamehall.ai import find_heuristic
from gamehall.engine import IllegalAction
from gamehall.engine.conformance import assert_conforms
from tests.fixtures.dice_nim import GAME, State, Take
from tests.fixtures.dice_nim import heuristic as dice_nim_heuristic


def test_dice_nim_conforms() -> None:
    report = assert_conforms(GAME, matches=200)
    assert report.matches == 200
    assert set(report.outcomes) == {"1,2", "2,1"}


def test_taking_the_last_stone_wins() -> None:
    state = State(rng=1, piles=[0, 0, 2], to_move=1, regrowths=1)
    after, _ = GAME.apply(state, 1, Take(2, 2))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners() == (1,)


def test_illegal_takes_are_named() -> None:
    state = State(rng=1, piles=[1, 0, 5], to_move=0, regrowths=1)
    with pytest.raises(IllegalAction, match="only 1 stones"):
        GAME.apply(state, 0, Take(0, 2))
    with pytest.raises(IllegalAction, match="between 1 and 3"):
        GAME.apply(state, 0, Take(2, 4))


def test_the_shipped_heuristic_is_discovered() -> None:
    assert find_heuristic(GAME) is dice_nim_heuristic.evaluate
    endgame = State(rng=1, piles=[0, 5, 0], to_move=0, regrowths=0)
    assert dice_nim_heuristic.evaluate(endgame, 0) > 0.5 > dice_nim_heuristic.evaluate(endgame, 1)
