"""The conformance kit over the skirmish mode (every conflict, three chapter tiers) and protocol details."""

from __future__ import annotations

import pytest

from gamehall.engine import ConfigError, IllegalAction
from gamehall.engine.conformance import assert_conforms
from gamehall.games.grimm_world import GAME
from gamehall.games.grimm_world.actions import Attack, Wound
from gamehall.games.grimm_world.catalog import CONFLICTS


def test_conformance_skirmish() -> None:
    configs = [GAME.configure("skirmish", 1, {"conflict": c, "chapter": ch})
               for c in sorted(CONFLICTS) for ch in (2, 7, 12)]
    report = assert_conforms(GAME, matches=2 * len(configs), configs=configs, seed=1, deep_every=4)
    assert report.matches == 2 * len(configs) and report.hidden_differs > 0
    assert set(report.outcomes) <= {"1", "2"}


def test_config_and_illegal_actions_are_named() -> None:
    with pytest.raises(ConfigError):
        GAME.configure("skirmish", 1, {"conflict": "Y999"})
    with pytest.raises(ConfigError):
        GAME.configure("skirmish", 1, {"chapter": 15})
    s = GAME.new_match(GAME.configure("skirmish", 1, {"conflict": "Y702"}), 1)
    with pytest.raises(IllegalAction, match="not legal"):
        GAME.apply(s, 0, Attack(0, "fists"))
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, Wound("A01"))
    assert GAME.config_of(s).options == {"conflict": "Y702", "chapter": 1, "ally": ""}  # the ally option: item 17


def test_views_hide_deck_order_only() -> None:
    s = GAME.new_match(GAME.configure("skirmish", 1, {"conflict": "Y703", "chapter": 7}), 4)
    for seat in (0, None):
        view = GAME.view(s, seat)
        assert view["decks"]["encounter"] == len(s.decks.encounter) and view["decks"]["action"] == len(s.decks.action)
        assert "rng" not in view
        assert view["sheet"]["hand"] == s.sheet.hand and len(view["enemies"]) == len(s.fight.foes)
        assert len(view["board"]["terrain"]) == view["board"]["width"] * view["board"]["height"]


def test_every_legal_action_has_a_label() -> None:
    import random

    rng = random.Random(3)
    s = GAME.new_match(GAME.configure("skirmish", 1, {"conflict": "Y707", "chapter": 9}), 3)
    seen = set()
    while GAME.outcome(s) is None:
        legal = GAME.legal_actions(s, 0)
        for action in legal:
            label = GAME.describe(s, action)
            assert label and "=" not in label  # names, not raw field ids
            seen.add(type(action).__name__)
        s, _ = GAME.apply(s, 0, rng.choice(legal))
    assert {"Play", "Step", "EndPhase"} <= seen
