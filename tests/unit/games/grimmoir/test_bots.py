"""The heuristic evaluator, the simple bots and the balance script."""

from __future__ import annotations

import random

import pytest

from gamehall.games.grimmoir import GAME
from gamehall.games.grimmoir.balance import main, play_match
from gamehall.games.grimmoir.bots import GreedyBot, RandomBot
from gamehall.games.grimmoir.heuristic import evaluate
from gamehall.games.grimmoir.state import DRAW, Phase


def test_evaluate_stays_in_range_and_is_complementary() -> None:
    rng = random.Random(4)
    state = GAME.new_match(GAME.configure(), seed=4)
    while GAME.to_act(state):
        for seat in (0, 1):
            value = evaluate(state, seat)
            assert 0.0 <= value <= 1.0
        assert evaluate(state, 0) + evaluate(state, 1) == pytest.approx(1.0)
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, _ = GAME.apply(state, seat, rng.choice(list(GAME.legal_actions(state, seat))))
    assert state.phase == Phase.OVER
    if state.winner != DRAW:
        assert evaluate(state, state.winner) == 1.0 and evaluate(state, 1 - state.winner) == 0.0


def test_greedy_beats_random() -> None:
    greedy, rand = GreedyBot(), RandomBot()
    wins = 0.0
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_match(GAME.configure(), seed)
        greedy_seat = seed % 2
        while GAME.to_act(state):
            seat = rng.choice(sorted(GAME.to_act(state)))
            bot = greedy if seat == greedy_seat else rand
            state, _ = GAME.apply(state, seat, bot.choose(state, seat, GAME.legal_actions(state, seat), rng))
        wins += 0.5 if state.winner == DRAW else float(state.winner == greedy_seat)
    assert wins >= 9


def test_play_match_and_balance_report(capsys: pytest.CaptureFixture[str]) -> None:
    score, rounds = play_match(RandomBot(), (1, 1), seed=3)  # a mirror needs faction_exclusivity=none
    assert score in (0.0, 0.5, 1.0) and rounds >= 1
    assert main(["--games", "1", "--bots", "random", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "random vs random: 15 games" in out
    for faction in ("humilitat", "animo", "avarum", "diligit", "ingenium"):
        assert faction in out
