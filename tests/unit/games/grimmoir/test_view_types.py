"""The typed view (view_types.GrimmoirView) is exactly what `view` returns, for every observer and rule set."""

from __future__ import annotations

import random
import typing

import msgspec

from gamehall.games.grimmoir import GAME
from gamehall.games.grimmoir.flags import FLAGS
from gamehall.games.grimmoir.view_types import GrimmoirFlags, GrimmoirView

CONFIGS = [
    GAME.configure(),
    GAME.configure(flags={"team_secrecy": "secret", "faction_exclusivity": "none"}),
]


def test_views_of_random_matches_convert_strictly_to_the_view_type() -> None:
    """Every observer's view along seeded random matches converts back strictly and round-trips unchanged."""
    assert GAME.view_type is GrimmoirView
    seen_phases = set()
    for i, config in enumerate(CONFIGS * 2):
        rng = random.Random(i)
        state = GAME.new_match(config, seed=i)
        for _ in range(600):
            for observer in (None, 0, 1):
                view = GAME.view(state, observer)
                typed = msgspec.convert(view, GrimmoirView, strict=True)
                assert msgspec.to_builtins(typed) == view
                seen_phases.add(typed.phase)
            if GAME.outcome(state) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(state)))
            state, _ = GAME.apply(state, seat, rng.choice(list(GAME.legal_actions(state, seat))), trusted=True)
    assert {"draft", "recruit", "display", "arrange", "battle"} <= seen_phases


def test_flag_literals_are_the_flag_choices() -> None:
    """The schema's enums for the rule flags are the catalog's choices (a new choice must reach the type)."""
    hints = typing.get_type_hints(GrimmoirFlags)
    for flag in FLAGS:
        if flag.choices is not None:
            assert set(typing.get_args(hints[flag.name])) == set(flag.choices), flag.name
    assert set(hints) == {f.name for f in FLAGS}


def test_view_schema_is_generated_from_the_type() -> None:
    schema = msgspec.json.schema(GrimmoirView)
    view = schema["$defs"]["GrimmoirView"]
    assert view["additionalProperties"] is False
    assert "team_secrecy" in schema["$defs"]["GrimmoirFlags"]["properties"]
    assert all(msgspec.json.schema(GAME.view_type)["$defs"][name].get("description") for name in schema["$defs"])
