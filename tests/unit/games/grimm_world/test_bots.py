"""Bots play Grimm World on views: 500 random-bot skirmishes finish with no error, a search bot plays legally,
and the heuristic is bounded and rewards progress."""

from __future__ import annotations

import random
import time

from gamehall.ai.arena import play_match
from gamehall.ai.bot import RandomBot
from gamehall.ai.levels import make_bot
from gamehall.games.grimm_world import GAME
from gamehall.games.grimm_world.catalog import CONFLICTS
from gamehall.games.grimm_world.heuristic import evaluate

CONFIGS = [GAME.configure("skirmish", 1, {"conflict": c, "chapter": ch})
           for c in sorted(CONFLICTS) for ch in range(1, 15)]


def test_500_random_bot_skirmishes_finish_without_errors() -> None:
    started = time.perf_counter()
    outcomes = {"victory": 0, "defeat": 0}
    for seed in range(500):
        result = play_match(GAME, CONFIGS[seed % len(CONFIGS)], [RandomBot()], seed)
        outcomes[result.outcome.reason] += 1
    assert sum(outcomes.values()) == 500 and outcomes["victory"] > 0
    assert time.perf_counter() - started < 60


def test_search_bot_plays_legally_on_views() -> None:
    config = GAME.configure("skirmish", 1, {"conflict": "Y702", "chapter": 12})
    result = play_match(GAME, config, [make_bot("easy", iterations=6)], 3)
    assert result.outcome.ranks[0] in (1, 2) and result.steps > 0


def test_heuristic_is_bounded_and_rewards_progress() -> None:
    rng = random.Random(2)
    s = GAME.new_match(CONFIGS[5], 9)
    while GAME.outcome(s) is None:
        assert 0.0 <= evaluate(s, 0) <= 1.0
        s, _ = GAME.apply(s, 0, rng.choice(GAME.legal_actions(s, 0)))
    assert evaluate(s, 0) in (0.0, 1.0)
    fresh = GAME.new_match(GAME.configure("skirmish", 1, {"conflict": "Y702", "chapter": 7}), 1)
    hurt = GAME.copy(fresh)
    hurt.fight.foes[0].hp -= 1
    assert evaluate(hurt, 0) > evaluate(fresh, 0)
    wounded = GAME.copy(fresh)
    wounded.sheet.damaged.append(wounded.sheet.hand.pop())
    assert evaluate(wounded, 0) < evaluate(fresh, 0)
