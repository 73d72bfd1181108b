"""The heuristic stays in [0, 1] and prefers better positions; the bots play legal moves to the end."""

from __future__ import annotations

import random

from gamehall.games.tiny_epic_quest import GAME
from gamehall.games.tiny_epic_quest.balance import play, seat_win_rates
from gamehall.games.tiny_epic_quest.bots import GreedyBot
from gamehall.games.tiny_epic_quest.heuristic import evaluate

from .builders import copy, new


def test_evaluate_is_bounded_and_monotone() -> None:
    rng = random.Random(4)
    for mode, seats in (("standard", 4), ("gloomfall", 2), ("solo", 1)):
        s = GAME.new_match(GAME.configure(mode, seats), 8)
        while GAME.outcome(s) is None:
            seat = rng.choice(sorted(GAME.to_act(s)))
            for p in range(seats):
                assert 0.0 <= evaluate(s, p) <= 1.0
            s, _ = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)), trusted=True)
    s = new(seats=2)
    better = copy(s)
    better.goblins[0] = 2
    assert evaluate(better, 0) > evaluate(s, 0) and evaluate(better, 1) < evaluate(s, 1)


def test_greedy_bot_plays_only_legal_actions() -> None:
    bot = GreedyBot(random.Random(1))
    s = GAME.new_match(GAME.configure("standard", 3), 2)
    while GAME.outcome(s) is None:
        seat = min(GAME.to_act(s))
        action = bot.choose(s, seat)
        s, _ = GAME.apply(s, seat, action)  # validated


def test_balance_helpers_run() -> None:
    ranks, vps = play("standard", 4, 0, "random")
    assert len(ranks) == 4 and len(vps) == 4
    report = seat_win_rates(4, "random")
    assert abs(sum(report["win_rate"]) - 1.0) < 1e-9  # type: ignore[arg-type]
