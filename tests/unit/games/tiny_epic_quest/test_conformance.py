"""The conformance kit over random matches across every mode and seat count (500+ under `make simulate`), and
protocol details."""

from __future__ import annotations

import pytest

from gamehall.engine import ConfigError, IllegalAction, NotYourTurn
from gamehall.engine.conformance import assert_conforms, default_configs
from gamehall.games.tiny_epic_quest import GAME
from gamehall.games.tiny_epic_quest.actions import Adventure, Idle, Select
from tests.support.sizes import simulations


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(2))
def test_conformance_bulk(chunk: int) -> None:
    """2 x 252 matches under `make simulate` (36 of each mode and seat count, every flag flipped in some), 2 x 63
    in `make test`; deep checks every 40 steps."""
    configs = [
        *default_configs(GAME),
        GAME.configure("standard", 3, flags={o.name: not o.default for o in GAME.flags}),
        GAME.configure("solo", 1, {"difficulty": "hero-of-legend"}, {"conjure_damage_last_space": False}),
    ]
    matches = simulations(252, 63)
    report = assert_conforms(GAME, matches=matches, configs=configs, seed=chunk, deep_every=40)
    assert report.matches == matches and report.hidden_differs > 0
    assert set(report.by_config) == {
        "standard/2",
        "standard/3",
        "standard/4",
        "gloomfall/2",
        "gloomfall/3",
        "gloomfall/4",
        "solo/1",
    }


def test_conformance_deep() -> None:
    """A few matches with every check at every step."""
    assert_conforms(GAME, matches=21, seed=99, deep_every=1)


def test_config_errors_and_named_illegal_actions() -> None:
    with pytest.raises(ConfigError):
        GAME.configure("solo", 2)
    with pytest.raises(ConfigError):
        GAME.configure("solo", 1, {"difficulty": "emperor"})
    s = GAME.new_match(GAME.configure("standard", 2), 3)
    with pytest.raises(NotYourTurn):
        GAME.apply(s, 1, Select(0))
    with pytest.raises(IllegalAction, match="not legal"):
        GAME.apply(s, 0, Adventure())
    s, _ = GAME.apply(s, 0, Select(0))
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, Select(1))
    assert GAME.default_action(s, 0) == Idle()


def test_views_hide_only_the_deck_order_and_rng() -> None:
    s = GAME.new_match(GAME.configure("solo", 1), 5)
    view = GAME.view(s, 0)
    assert "rng" not in view and view["quest_deck"] == len(s.quest_deck) and view["solo_deck"] == len(s.solo_deck)
    assert view["row"] == s.row and view["options"] == s.options
    assert GAME.view(s, None)["row"] == s.row
