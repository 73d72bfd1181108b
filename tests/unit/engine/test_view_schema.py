"""View schemas derived from engines: views from unseen matches validate against them."""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import jsonschema
import pytest

from gamehall.engine import Game, all_games
from gamehall.engine.conformance import default_configs
from gamehall.engine.schema import _merge, _node, infer_view_schema
from tests.fixtures.high_card import GAME as HIGH_CARD

GAMES = [HIGH_CARD, *all_games()]
HEAVY = {"grimslingers", "tiny-epic-quest"}
"""Games whose sampled views take seconds to derive and check: `make test` only, not `make test-fast`."""


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


def _shape(value: Any) -> Hashable:
    """What a view schema can tell apart: JSON types, keys, and the set of distinct item shapes of each list.

    The derived schemas use only `type`, `properties`, `required` and `items`, and `items` judges each
    item alone, so two views of one shape pass or fail together: validating one per shape is exact.
    """
    if isinstance(value, dict):
        return ("object", tuple(sorted((k, _shape(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return ("array", frozenset(_shape(v) for v in value))
    if isinstance(value, float) and value.is_integer():
        return "integral float"  # JSON Schema counts 2.0 as an integer, 2.5 not
    return type(value).__name__


@pytest.mark.parametrize(
    "game", [pytest.param(g, id=g.id, marks=[pytest.mark.slow] if g.id in HEAVY else []) for g in GAMES]
)
def test_views_of_other_matches_validate(game: Game) -> None:  # type: ignore[type-arg]
    schema = infer_view_schema(game)
    validator = jsonschema.Draft202012Validator(schema)
    validator.check_schema(schema)
    one_per_shape = {_shape(view): view for view in _views(game, seed=4242)}
    for view in one_per_shape.values():
        validator.validate(view)


def test_views_of_one_shape_validate_alike() -> None:
    """The shortcut above is exact: values never matter, types and keys do, down to 2.0 against 2.5."""
    assert _shape({"a": [1, 2], "b": "x"}) == _shape({"b": "y", "a": [3]})
    assert _shape({"a": [1, "x"]}) != _shape({"a": [1]})
    assert _shape(2.0) != _shape(2.5) and _shape(True) != _shape(1)


def test_schema_says_what_a_seat_sees() -> None:
    schema = infer_view_schema(HIGH_CARD)
    assert "hand" in schema["properties"] and "hand" not in schema["required"]  # a spectator has none
    assert schema["properties"]["scores"] == {"type": "array", "items": {"type": "integer"}}


def test_merge_widens_types_and_keeps_common_keys() -> None:
    merged = _merge(_node({"a": 1, "b": None}), _node({"a": 2.5, "b": "x", "c": [1]}))
    assert merged["properties"]["a"]["type"] == "number"
    assert merged["properties"]["b"]["type"] == ["null", "string"]
    assert merged["required"] == ["a", "b"]
