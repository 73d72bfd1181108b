"""The campaign mode as a whole: conformance, random campaigns played to their end (the long-match check),
saving through the state codec, winnability and losability, the score, views and bots."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from gamehall.engine.conformance import assert_conforms
from gamehall.games.grimm_world import GAME
from gamehall.games.grimm_world.actions import Pick
from gamehall.games.grimm_world.atlas import LAST_CHAPTER
from gamehall.games.grimm_world.content.schema import Op
from gamehall.games.grimm_world.heuristic import evaluate
from gamehall.games.grimm_world.score import score

from .journeys import do, journey, pick, picks, stacked

CAMPAIGN = GAME.configure("campaign", 1, {})


def test_conformance_campaign() -> None:
    report = assert_conforms(GAME, matches=6, configs=[CAMPAIGN], seed=3, deep_every=4)
    assert report.matches == 6 and report.hidden_differs > 0
    assert set(report.outcomes) <= {"1", "2"}


def test_20_random_campaigns_end_without_errors(record_property: Callable[[str, object], None]) -> None:
    """The long-match check: every campaign reaches its Epilogue (or a declared end); step counts recorded."""
    started = time.process_time()  # CPU time: the bound is the engine's cost, not the shared machine's load
    steps = []
    for seed in range(20):
        rng = random.Random(seed)
        s = GAME.new_match(CAMPAIGN, seed)
        n = 0
        while GAME.outcome(s) is None:
            legal = GAME.legal_actions(s, 0)
            assert legal and n < GAME.max_steps
            s, _ = GAME.apply(s, 0, rng.choice(legal))
            n += 1
        assert GAME.decode(GAME.encode(s)) == s
        steps.append(n)
    record_property("campaign_steps", ",".join(map(str, steps)))
    print(f"random campaign steps: min {min(steps)} median {sorted(steps)[10]} max {max(steps)}")
    assert time.process_time() - started < 45  # about 5-10 s; the bound keeps it from growing unnoticed


def test_a_campaign_survives_the_codec_mid_story() -> None:
    rng = random.Random(5)
    s = GAME.new_match(CAMPAIGN, 5)
    for _ in range(60):
        s, _ = GAME.apply(s, 0, rng.choice(GAME.legal_actions(s, 0)))
    again = GAME.decode(GAME.encode(s))
    assert again == s and GAME.legal_actions(again, 0) == GAME.legal_actions(s, 0)


def test_the_story_is_winnable_and_losable() -> None:
    s = journey(11)
    s.journey.flags = ["told", "water", "curse"]
    s.journey.quests = ["Y507"]
    do(s, Op("quests"))
    won = GAME.outcome(s)
    assert won is not None and won.ranks == (1,) and won.reason == "victory"
    s = journey(11, chapter=LAST_CHAPTER)  # the 14th (issue 40, item 18)
    do(s, Op("chapter", text="next"))
    lost = GAME.outcome(s)
    assert lost is not None and lost.ranks == (2,) and lost.reason == "defeat"
    assert won.scores is not None and lost.scores is not None and won.scores[0] > lost.scores[0]


def test_score_rewards_the_cure_time_alignment_and_wealth() -> None:
    base = journey(11)
    richer = journey(11, thalers=25)
    kinder = journey(11, alignment=3)
    further = journey(11)
    further.journey.flags = ["told", "water"]
    assert score(richer) > score(base) and score(kinder) > score(base) and score(further) > score(base)


def test_views_hide_deck_order_and_bots_read_the_campaign() -> None:
    s = GAME.new_match(CAMPAIGN, 8)
    view = GAME.view(s, 0)
    assert isinstance(view["decks"]["encounter"], int) and "rng" not in view
    assert view["deck"]["cards"] == sorted(c for c in s.decks.encounter if c.startswith(("B", "X")))
    assert view["journey"]["menu"] and view["here"]["name"] == "Tronda"
    assert 0.0 < evaluate(s, 0) < 1.0
    further = GAME.copy(s)
    further.journey.flags.append("told")
    assert evaluate(further, 0) > evaluate(s, 0)
    labels = [GAME.describe(s, a) for a in GAME.legal_actions(s, 0)]
    assert all(label and "=" not in label for label in labels)
    assert GAME.describe(s, Pick(0)) == s.journey.menu[0].label


def _win_fight(s: object) -> None:
    """Settle the fight in progress as a victory (the combat itself is part 1's and tested there)."""
    fight = s.fight  # type: ignore[attr-defined]
    assert fight is not None and not fight.result
    fight.result = "victory"
    do(s)  # type: ignore[arg-type]


def test_the_main_quest_chain_leads_from_triha_to_victory() -> None:
    """Griet's quest at Triha, the raft at Stillwater Lake with 4 wood, the spiders, the witch, home: each quest
    opens the next one and the last declares the win."""
    s = GAME.new_match(CAMPAIGN, 4)
    while s.journey.title != "Travel":  # the Book Cover's re-equip menus: keep the items in storage
        s, _ = GAME.apply(s, 0, Pick(0))
    j = s.journey
    j.stack, j.menu = [], []
    assert j.quests == ["Y501"] and s.sheet.stored == ["spear", "shield"]
    j.location = 13
    do(s, Op("quests"))
    assert "told" in j.flags and j.quests == ["Y505"]
    j.regions["3"] = "311"
    j.location = 36
    do(s, Op("goods", good="wood", n=4), Op("quests"))
    s, _ = pick(s, "Fight them")
    j = s.journey
    _win_fight(s)
    assert "water" in j.flags and j.quests == ["Y506"] and not [g for g in j.goods if g.kind == "wood"]
    j.regions["2"] = "211"
    j.location = 23
    do(s, Op("quests"))
    s, _ = pick(s, "Fight her")
    j = s.journey
    _win_fight(s)
    assert "curse" in j.flags and j.quests == ["Y507"] and j.regions["2"] == "241"
    j.location = 11
    do(s, Op("quests"))
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.reason == "victory" and outcome.scores is not None
    assert outcome.scores[0] >= 200


def test_the_spring_and_the_curse_can_be_won_without_fighting() -> None:
    """Spirit-light scatters the spiders (2 essence); the charm breaks the curse (2 essence, Knowledge 9+ since the
    14-chapter balance: Knowledge 2 + a card's +1 + Fate 6)."""
    s = journey(36, goods=[(k, "essence") for k in stacked()[:4]])
    s.journey.quests = ["Y505"]
    s.journey.flags = ["told"]
    do(s, Op("resolve", card="Y512"))
    s, _ = pick(s, "Scatter them")
    assert "water" in s.journey.flags and s.journey.quests == ["Y506"] and s.fight is None
    s.journey.location = 23
    s.decks.encounter = stacked(fates=(6,))
    do(s, Op("quests"))
    s, _ = picks(s, "Pour the spring water", "Play Advance and Strike (A02)", "roll")
    assert "curse" in s.journey.flags and s.journey.quests == ["Y507"] and not s.journey.goods
