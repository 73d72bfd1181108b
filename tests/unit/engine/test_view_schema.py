"""Every view of every registered game validates against the catalog's view schema (issue 17).

The schema is generated from each game's view types (`Game.view_schema`), so this is a check, not the
source: seeded random matches of every mode (at its fewest and its most seats), every seat's and the
spectator's view at every step, validated with `jsonschema` against the schema as the rules service
publishes it in DescribeGame. Pure-Python validation of a Grimslingers view takes milliseconds, so `SchemaCheck`
decides each distinct subtree of a view once (exact: see its docstring and the test proving it).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import jsonschema
import msgspec
import pytest

from gamehall.engine import Game, MatchConfig, all_games
from gamehall.engine.conformance import ConformanceError, assert_conforms
from gamehall.engine.errors import MissingViewType
from gamehall.internal.v1 import rules_pb2
from gamehall_services.rules.servicer import RulesServicer
from tests.fixtures.dice_nim import GAME as DICE_NIM
from tests.fixtures.high_card import GAME as HIGH_CARD
from tests.fixtures.high_card import HighCard, State

GAMES = [HIGH_CARD, DICE_NIM, *all_games()]
MAX_STEPS = 200
"""Steps of each match checked (most random matches end sooner; a Tall Tale is checked up to here)."""

_ANNOTATIONS = {"title", "description", "default", "examples", "discriminator", "$comment"}
"""Keywords that never change whether a value is valid (`discriminator` is OpenAPI's, unknown to 2020-12)."""


class SchemaCheck:
    """Decides like `jsonschema.Draft202012Validator(schema).is_valid`, but each distinct subtree once.

    Where a schema node is only an object's `type` / `properties` / `required` / `additionalProperties:
    bool`, an array's `type` / `items`, or an `anyOf` (with or without a `type`), validity is the
    conjunction (for anyOf: `type` and the disjunction) of the parts' validity, so those nodes are split
    and each part decided once per distinct JSON value (an object's own keywords once per key set); every
    other node goes to jsonschema whole. `test_schema_check_agrees_with_jsonschema`
    proves the two agree, on real views and on views broken on purpose.
    """

    def __init__(self, schema: dict[str, Any], *, check_schema: bool = True) -> None:
        if check_schema:  # the published schema is itself a valid draft 2020-12 schema
            jsonschema.Draft202012Validator.check_schema(schema)
        self.schema = schema
        self.defs = schema.get("$defs", {})
        self.full = jsonschema.Draft202012Validator(schema)
        self._memo: dict[tuple[int, bytes], bool] = {}
        self._shells: dict[tuple[int, tuple[str, ...]], bool] = {}
        self._types: dict[str, jsonschema.Draft202012Validator] = {}
        self._validators: dict[int, jsonschema.Draft202012Validator] = {}

    def is_valid(self, value: Any) -> bool:
        return self._check(self.schema, value)

    def _resolve(self, node: Any) -> Any:
        while isinstance(node, dict) and "$ref" in node and set(node) - _ANNOTATIONS == {"$ref"}:
            node = self.defs[node["$ref"].removeprefix("#/$defs/")]
        return node

    def _validator(self, node: dict[str, Any], shell: bool = False) -> jsonschema.Draft202012Validator:
        key = id(node) * 2 + shell
        if key not in self._validators:
            body = dict(node)
            if shell:  # the object's own keywords, its properties' values accepted as anything
                body["properties"] = dict.fromkeys(node.get("properties", {}), True)
            self._validators[key] = jsonschema.Draft202012Validator({**body, "$defs": self.defs})
        return self._validators[key]

    def _check(self, node: Any, value: Any) -> bool:
        node = self._resolve(node)
        if isinstance(node, bool):
            return node
        key = (id(node), msgspec.json.encode(value))
        known = self._memo.get(key)
        if known is None:
            known = self._memo[key] = self._decide(node, value)
        return known

    def _shell_valid(self, node: dict[str, Any], value: dict[str, Any]) -> bool:
        """The object's own keywords (type, required, additionalProperties) judge its keys alone."""
        key = (id(node), tuple(value))
        known = self._shells.get(key)
        if known is None:
            known = self._shells[key] = self._validator(node, shell=True).is_valid(value)
        return known

    def _type_valid(self, kind: Any, value: Any) -> bool:
        """Whether `value` is of JSON type `kind` (None: any), as jsonschema's `type` keyword judges it."""
        if kind is None:
            return True
        key = json.dumps(kind)
        if key not in self._types:
            self._types[key] = jsonschema.Draft202012Validator({"type": kind})
        return bool(self._types[key].is_valid(value))

    def _decide(self, node: dict[str, Any], value: Any) -> bool:
        keywords = set(node) - _ANNOTATIONS - {"$defs", "$schema"}
        extra = node.get("additionalProperties", False)
        if (
            node.get("type") == "object"
            and isinstance(value, dict)
            and isinstance(extra, bool)
            and keywords <= {"type", "properties", "required", "additionalProperties"}
        ):
            properties = node.get("properties", {})
            return self._shell_valid(node, value) and all(
                self._check(properties[k], v) for k, v in value.items() if k in properties
            )
        if node.get("type") == "array" and isinstance(value, list) and keywords <= {"type", "items"}:
            return all(self._check(node.get("items", True), item) for item in value)
        if "anyOf" in keywords and keywords <= {"anyOf", "type"}:
            return self._type_valid(node.get("type"), value) and any(self._check(b, value) for b in node["anyOf"])
        return self._validator(node).is_valid(value)


def catalog_schema(game: Game[Any]) -> dict[str, Any]:
    """The view schema exactly as the rules service publishes it in DescribeGame."""
    described = asyncio.run(RulesServicer(game).DescribeGame(rules_pb2.DescribeGameRequest(), None))
    schema: dict[str, Any] = json.loads(described.game.view_schema_json)
    return schema


def matches(game: Game[Any]) -> list[tuple[MatchConfig, int]]:
    """Every mode at its fewest seats (two seeded matches) and at its most seats (one, the costly one)."""
    out = []
    for mode in game.modes:
        out.append((game.configure(mode.id, min(mode.seats)), 0))
        out.append((game.configure(mode.id, min(mode.seats)), 1))
        if max(mode.seats) != min(mode.seats):
            out.append((game.configure(mode.id, max(mode.seats)), 0))
    return out


def views(game: Game[Any], seed: int = 0) -> Iterator[tuple[str, dict[str, Any]]]:
    """(where, view) for every observer at every step of seeded random matches of every mode."""
    for config, m in matches(game):
        rng = random.Random(seed * 1000 + m)
        state = game.new_match(config, seed * 1000 + m)
        for step in range(MAX_STEPS):
            for observer in [None, *range(config.seats)]:
                yield (
                    f"{config.mode}/{config.seats} match {m} step {step} observer {observer}",
                    game.view(state, observer),
                )
            acting = game.to_act(state)
            if not acting:
                break
            seat = rng.choice(sorted(acting))
            state, _ = game.apply(state, seat, rng.choice(list(game.legal_actions(state, seat))), trusted=True)


def assert_views_validate(game: Game[Any], check: SchemaCheck, seed: int = 0) -> int:
    count = 0
    for where, view in views(game, seed):
        if not check.is_valid(view):
            error = jsonschema.exceptions.best_match(check.full.iter_errors(view))
            pytest.fail(f"{game.id} {where}: the view strays from the catalog's schema: {error}")
        count += 1
    return count


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_view_of_random_matches_validates_against_the_catalog_schema(game: Game[Any]) -> None:
    schema = catalog_schema(game)
    assert schema == game.view_schema()  # what DescribeGame publishes is the generated schema, as plain JSON
    assert assert_views_validate(game, SchemaCheck(schema)) > 0


class StrayView(HighCard):
    """High Card whose view adds a key its view type does not declare."""

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        view = super().view(state, seat)
        view["peek"] = state.deck[:1]
        return view


def test_a_view_that_strays_from_its_type_fails_the_schema_check() -> None:
    stray = StrayView()
    check = SchemaCheck(catalog_schema(stray))
    with pytest.raises(pytest.fail.Exception, match="peek"):
        assert_views_validate(stray, check)
    with pytest.raises(ConformanceError, match="strays from high-card's view_type"):
        assert_conforms(stray, matches=1)


def test_a_game_without_view_type_has_no_schema_and_is_refused() -> None:
    class Untyped(HighCard):
        id = "untyped-high-card"
        view_type = None

    untyped = Untyped()
    with pytest.raises(MissingViewType):
        untyped.view_schema()
    with pytest.raises(ConformanceError, match="declares no view_type"):
        assert_conforms(untyped, matches=1)


def _broken(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """`view` with one thing changed that a schema may or may not allow: a key added, dropped or retyped."""
    out = json.loads(json.dumps(view))
    node = out
    while True:
        keys = list(node)
        key = rng.choice(keys)
        child = node[key]
        if isinstance(child, dict) and child and rng.random() < 0.6:
            node = child
            continue
        change = rng.randrange(3)
        if change == 0:
            node["unexpected"] = 1
        elif change == 1:
            del node[key]
        else:
            node[key] = rng.choice(["text", 7, 2.5, None, True, [1], {"x": 1}])
        return out


@pytest.mark.parametrize("game", [HIGH_CARD, *all_games()], ids=lambda g: g.id)
def test_schema_check_agrees_with_jsonschema(game: Game[Any]) -> None:
    """The subtree shortcut decides every view as plain jsonschema does, valid or broken on purpose."""
    schema = catalog_schema(game)
    full, check = jsonschema.Draft202012Validator(schema), SchemaCheck(schema, check_schema=False)
    rng = random.Random(7)
    sample = [view for i, (_, view) in enumerate(itertools.islice(views(game, seed=3), 1200)) if i % 97 == 0][:8]
    verdicts = set()
    for view in sample:
        for candidate in (view, _broken(view, rng), _broken(view, rng)):
            expected = full.is_valid(candidate)
            assert check.is_valid(candidate) == expected, candidate
            verdicts.add(expected)
    assert verdicts == {True, False}


def test_the_schema_is_generated_from_the_view_type() -> None:
    """No sampling: the published schema is msgspec's schema of the declared type."""
    schema = catalog_schema(HIGH_CARD)
    generated = msgspec.json.schema(HIGH_CARD.view_type)["$defs"]["HighCardView"]
    assert schema["properties"] == generated["properties"]
    assert schema["additionalProperties"] is False
    assert "hand" in schema["properties"] and "hand" not in schema["required"]  # a spectator has none
