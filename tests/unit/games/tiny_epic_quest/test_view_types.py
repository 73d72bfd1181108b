"""The typed view (view_types.TinyEpicQuestView) is exactly what `view` returns, in every mode, for every observer."""

from __future__ import annotations

import random
import typing

import msgspec

from gamehall.games.tiny_epic_quest import GAME
from gamehall.games.tiny_epic_quest.state import FLAG_DOCS, Rules, State
from gamehall.games.tiny_epic_quest.view_types import TeqRules, TinyEpicQuestView

CONFIGS = [
    GAME.configure("standard", 2),
    GAME.configure("gloomfall", 3, flags={"night_quest_limit": True, "legendary_strict_order": False}),
    GAME.configure("solo", 1, options={"difficulty": "knight"}),
]


def test_views_of_random_matches_convert_strictly_to_the_view_type() -> None:
    """Every observer's view along seeded random matches of each mode converts back strictly and round-trips."""
    assert GAME.view_type is TinyEpicQuestView
    phases = set()
    for i, config in enumerate(CONFIGS):
        rng = random.Random(i)
        state = GAME.new_match(config, seed=i)
        for step in range(3000):
            if step % 4 == 0 or GAME.outcome(state) is not None:
                for observer in (None, *range(config.seats)):
                    view = GAME.view(state, observer)
                    typed = msgspec.convert(view, TinyEpicQuestView, strict=True)
                    assert msgspec.to_builtins(typed) == view
                    phases.add(typed.phase)
            if GAME.outcome(state) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(state)))
            state, _ = GAME.apply(state, seat, rng.choice(list(GAME.legal_actions(state, seat))), trusted=True)
    assert phases == {0, 1, 2}


def test_the_view_names_every_state_field_but_the_secrets() -> None:
    """A new state field must reach the typed view (or be declared secret here); every flag is documented."""
    state_fields = set(State.__struct_fields__) - {"rng"}
    assert state_fields <= set(TinyEpicQuestView.__struct_fields__)
    assert set(TeqRules.__struct_fields__) == set(Rules.__struct_fields__) == set(FLAG_DOCS)
    hints = typing.get_type_hints(TinyEpicQuestView, include_extras=True)
    assert typing.get_args(hints["quest_deck"])[0] is int and typing.get_args(hints["solo_deck"])[0] is int


def test_view_schema_is_generated_from_the_type() -> None:
    schema = msgspec.json.schema(TinyEpicQuestView)
    view = schema["$defs"]["TinyEpicQuestView"]
    assert view["additionalProperties"] is False
    assert view["properties"]["mode"]["enum"] == ["gloomfall", "solo", "standard"]
    assert schema["$defs"]["TeqRules"]["properties"]["foot_diagonal"]["description"] == FLAG_DOCS["foot_diagonal"]
