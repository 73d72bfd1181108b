"""View schemas derived from engines: views from unseen matches validate against them."""

from __future__ import annotations

import random

import jsonschema
import pytest

from gamehall.engine import Game, all_games
from gamehall.engine.conformance import default_configs
from gamehall.engine.schema import _merge, _node, infer_view_schema
from tests.fixtures.high_card import GAME as HIGH_CARD

GAMES = [HIGH_CARD, *all_games()]


def _views(game: Game, seed: int, steps: int = 200):  # type: ignore[no-untyped-def, type-arg]
    rng = random.Random(seed)
    for config in default_configs(game):
        state = game.new_match(config, seed)
        for _ in range(steps):
            for observer in [None, *range(config.seats)]:
                yield game.view(state, observer)
            acting = game.to_act(state)
            if not acting:
                break
            seat = rng.choice(sorted(acting))
            state, _ = game.apply(state, seat, rng.choice(list(game.legal_actions(state, seat))), trusted=True)


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_views_of_other_matches_validate(game: Game) -> None:  # type: ignore[type-arg]
    schema = infer_view_schema(game)
    validator = jsonschema.Draft202012Validator(schema)
    validator.check_schema(schema)
    for view in _views(game, seed=4242):
        validator.validate(view)


def test_schema_says_what_a_seat_sees() -> None:
    schema = infer_view_schema(HIGH_CARD)
    assert "hand" in schema["properties"] and "hand" not in schema["required"]  # a spectator has none
    assert schema["properties"]["scores"] == {"type": "array", "items": {"type": "integer"}}


def test_merge_widens_types_and_keeps_common_keys() -> None:
    merged = _merge(_node({"a": 1, "b": None}), _node({"a": 2.5, "b": "x", "c": [1]}))
    assert merged["properties"]["a"]["type"] == "number"
    assert merged["properties"]["b"]["type"] == ["null", "string"]
    assert merged["required"] == ["a", "b"]
