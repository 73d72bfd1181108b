"""Bots play Grimm World on views: random-bot skirmishes finish with no error, a search bot plays legally,
and the heuristic is bounded and rewards progress."""

from __future__ import annotations

import random

import pytest

from gamehall.ai.arena import play_match
from gamehall.ai.bot import RandomBot
from gamehall.ai.levels import make_bot
from gamehall.games.grimm_world import GAME
from gamehall.games.grimm_world.catalog import CONFLICTS
from gamehall.games.grimm_world.heuristic import evaluate
from tests.support.sizes import simulations

CONFIGS = [
    GAME.configure("skirmish", 1, {"conflict": c, "chapter": ch}) for c in sorted(CONFLICTS) for ch in range(1, 15)
]


@pytest.mark.slow
def test_random_bot_skirmishes_finish_without_errors() -> None:
    """500 skirmishes under `make simulate`, 120 in `make test`. (Their speed is `make bench`'s, not a test's.)"""
    count = simulations(500, 120)
    outcomes = {"victory": 0, "defeat": 0}
    for seed in range(count):
        result = play_match(GAME, CONFIGS[seed % len(CONFIGS)], [RandomBot()], seed)
        outcomes[result.outcome.reason] += 1
    assert sum(outcomes.values()) == count and outcomes["victory"] > 0


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


def test_fight_value_counts_a_declared_attack_and_the_round_limit() -> None:
    """The damage race reads a played attack card with a target in reach as progress, and, under the `round_limit`
    rule flag, less time as less hope (without the flag a late round costs nothing by itself, W-CB-07)."""
    from gamehall.games.grimm_world.actions import Play
    from gamehall.games.grimm_world.fight_value import fight_value

    from .builders import board, enemy, state

    foe = enemy("T90", dodge=4, constitution=2)
    fresh = state(board(3, 3), (0, 0), [(foe, (1, 0))], equipped=["spear"], hand=["A04", "A09"], round_limit=10)
    played, _ = GAME.apply(fresh, 0, Play(("A04",)))
    assert fight_value(played) > fight_value(fresh)
    late = GAME.copy(fresh)
    late.fight.round = 10
    assert fight_value(late) < fight_value(fresh)
    unbounded_late, unbounded_fresh = GAME.copy(late), GAME.copy(fresh)
    unbounded_late.round_limit = unbounded_fresh.round_limit = 0
    assert fight_value(unbounded_late) == fight_value(unbounded_fresh)


def test_campaign_progress_never_drops_when_a_main_quest_flag_is_earned() -> None:
    """Ready at the place of a step reads below having done it (the stages are monotone for the search)."""
    s = GAME.new_match(GAME.configure("campaign", 1, {}), 5)
    s.journey.location = 13
    told = GAME.copy(s)
    told.journey.flags.append("told")
    assert evaluate(told, 0) > evaluate(s, 0)


def test_balance_campaign_table_smoke() -> None:
    """The balance command's table over two random-bot campaigns (the heavy runs live in the command itself)."""
    from gamehall.games.grimm_world.balance_campaign import HEADER, campaign, summary

    rows = [campaign("random", seed) for seed in range(2)]
    assert all(r.result in ("victory", "defeat") and r.steps > 0 for r in rows)
    line = summary("random", rows)
    assert line.startswith("| random | 2 |") and line.count("|") == HEADER.splitlines()[0].count("|")


def _campaign_fight(k: int, then: tuple = ()):  # type: ignore[type-arg]
    """A fresh campaign with the spiders' fight begun as the `fight` op begins it (its after_fight entry stacked)."""
    from gamehall.games.grimm_world.content.schema import Op
    from gamehall.games.grimm_world.setup import start_fight

    s = GAME.new_match(GAME.configure("campaign", 1, {}), 5)
    s.journey.flags.append("told")
    s.journey.stack.append(Op("after_fight", n=3, k=k, then=then))
    start_fight(s, "Y705", 1)
    return s


def test_a_campaign_fight_is_read_through_what_it_risks_and_earns() -> None:
    """A fight whose defeat costs a chapter reads below the same fight costing none; one whose victory earns the
    spring water reads above the same fight earning nothing (the search weighs a fight by its stakes)."""
    from gamehall.games.grimm_world.content.schema import Op

    assert evaluate(_campaign_fight(1), 0) < evaluate(_campaign_fight(0), 0)
    assert evaluate(_campaign_fight(1, (Op("flag", text="water"),)), 0) > evaluate(_campaign_fight(1), 0)


def test_campaign_time_is_read_to_the_card_and_a_fight_quest_costs() -> None:
    """Cards cycled past (the Farm's six) bring the chapter's end nearer and read as time spent; a side quest
    that is a fight (Vast Green's wolves) reads as a cost while it is taken."""
    from gamehall.games.grimm_world.progress import chapter_left

    s = GAME.new_match(GAME.configure("campaign", 1, {}), 5)
    cycled = GAME.copy(s)
    cycled.decks.encounter = cycled.decks.encounter[6:] + cycled.decks.encounter[:6]
    assert chapter_left(cycled) < chapter_left(s)
    assert evaluate(cycled, 0) < evaluate(s, 0)
    wolves = GAME.copy(s)
    wolves.journey.quests.append("Y523")
    assert evaluate(wolves, 0) < evaluate(s, 0)
