"""Same seed and budget, same decision: bots and matches replay exactly."""

from __future__ import annotations

import random

import pytest

from gamehall.ai import ISMCTSBot, ismcts, make_bot, play_match
from tests.fixtures.dice_nim import GAME as DICE_NIM
from tests.fixtures.high_card import GAME as HIGH_CARD


@pytest.mark.parametrize("game", [HIGH_CARD, DICE_NIM], ids=lambda g: g.id)
def test_ismcts_is_deterministic_for_a_seed_and_budget(game) -> None:  # type: ignore[no-untyped-def]
    state = game.new_match(game.configure(), seed=21)
    seat = min(game.to_act(state))
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    first = ismcts(game, view, seat, legal, random.Random(4), iterations=150)
    again = ismcts(game, view, seat, legal, random.Random(4), iterations=150)
    other = ismcts(game, view, seat, legal, random.Random(5), iterations=150)
    assert first == again
    assert first.iterations == 150 and sum(v for v, _ in first.root.values()) == 150
    assert other.root != first.root, "a different seed should explore differently"


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_matches_replay_for_a_seed(level: str) -> None:
    config = DICE_NIM.configure()
    runs = [play_match(DICE_NIM, config, [make_bot(level), make_bot("random")], seed=8) for _ in range(2)]
    assert runs[0] == runs[1]
    assert runs[0].steps == len(runs[0].actions) > 0


def test_time_budget_reads_only_the_given_clock() -> None:
    ticks = iter(range(10_000))

    def fake_clock() -> float:
        return next(ticks) / 1000.0  # each reading advances one millisecond

    bot = ISMCTSBot(iterations=None, time_ms=20, clock=fake_clock)
    state = DICE_NIM.new_match(DICE_NIM.configure(), seed=2)
    result = bot.search(DICE_NIM, DICE_NIM.view(state, 0), 0, DICE_NIM.legal_actions(state, 0), random.Random(1))
    assert result.iterations == 20  # one reading to set the deadline, one per iteration after the first


def test_levels_keep_their_iteration_budget_under_a_time_cap() -> None:
    bot = make_bot("hard", time_ms=250)
    assert isinstance(bot, ISMCTSBot) and bot.iterations == 300 and bot.time_ms == 250
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster")
