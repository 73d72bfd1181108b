"""Evaluator discovery and fallback, the arena's plain-data results and the Wilson interval."""

from __future__ import annotations

import json

import pytest

from gamehall.ai import (
    Evaluator,
    find_heuristic,
    ismcts_rate,
    playout_rate,
    register_heuristic,
    round_robin,
    unregister_heuristic,
    wilson_interval,
)
from tests.fixtures.dice_nim import GAME as DICE_NIM
from tests.fixtures.high_card import GAME as HIGH_CARD


def test_a_game_without_a_heuristic_falls_back_to_rollouts() -> None:
    assert find_heuristic(HIGH_CARD) is None
    evaluator = Evaluator.for_game(HIGH_CARD, rollouts=8)
    assert evaluator.source == "rollouts"
    state = HIGH_CARD.new_match(HIGH_CARD.configure(), seed=4)
    values = evaluator.values(state, 2)
    assert all(0.0 <= v <= 1.0 for v in values)
    assert sum(values) == pytest.approx(1.0)  # two seats: returns are complementary
    assert evaluator.values(state, 2) == values  # a pure function of the state
    assert evaluator.value(state, 1) == values[1]


def test_a_registered_heuristic_wins_and_is_clamped() -> None:
    register_heuristic(HIGH_CARD.id, lambda state, seat: 2.0 if seat == 0 else -1.0)
    try:
        evaluator = Evaluator.for_game(HIGH_CARD)
        assert evaluator.source == "heuristic"
        state = HIGH_CARD.new_match(HIGH_CARD.configure(), seed=4)
        assert evaluator.values(state, 2) == [1.0, 0.0]
    finally:
        unregister_heuristic(HIGH_CARD.id)
    assert find_heuristic(HIGH_CARD) is None


def test_round_robin_returns_plain_data() -> None:
    levels = ["random", "easy", "normal"]
    result = round_robin(DICE_NIM, DICE_NIM.configure(), levels, 6, seed=1)
    assert json.loads(json.dumps(result)) == result
    assert [(row["a"], row["b"]) for row in result["pairs"]] == [
        ("random", "easy"),
        ("random", "normal"),
        ("easy", "normal"),
    ]
    for row in result["pairs"]:
        assert row["low"] <= row["rate"] <= row["high"]
        mirror = result["table"][row["b"]][row["a"]]
        assert mirror["rate"] == pytest.approx(1 - row["rate"])


def test_wilson_interval_matches_the_textbook() -> None:
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson_interval(1, 10)
    assert (round(low, 4), round(high, 4)) == (0.0179, 0.4042)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0


def test_bench_functions_report_rates() -> None:
    config = DICE_NIM.configure()
    search = ismcts_rate(DICE_NIM, config, iterations=40, positions=2)
    playout = playout_rate(DICE_NIM, config, matches=10)
    assert search["iterations"] == 80 and search["iterations_per_s"] > 0
    assert playout["actions"] > 10 and playout["actions_per_s"] > 0
