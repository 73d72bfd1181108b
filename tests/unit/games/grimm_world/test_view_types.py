"""The typed view (view_types.GrimmWorldView, tagged by mode) is exactly what `view` returns, in both modes."""

from __future__ import annotations

import random

import msgspec

from gamehall.games.grimm_world import GAME
from gamehall.games.grimm_world.catalog import CONFLICTS
from gamehall.games.grimm_world.state import Decks, State
from gamehall.games.grimm_world.view_types import CampaignView, DecksView, GrimmWorldView, SkirmishView

CONFIGS = [
    GAME.configure("skirmish", 1),
    GAME.configure("skirmish", 1, options={"conflict": sorted(CONFLICTS)[-1], "chapter": 9}),
    GAME.configure("campaign", 1),
    GAME.configure("campaign", 1),
]


def test_views_of_random_matches_convert_strictly_to_the_view_type() -> None:
    """Martha's and a spectator's views along seeded random matches convert back strictly and round-trip;
    the campaign is seen both outside and inside a fight."""
    assert GAME.view_type == GrimmWorldView
    kinds = set()
    for i, config in enumerate(CONFIGS):
        rng = random.Random(i)
        state = GAME.new_match(config, seed=i)
        for _ in range(700):
            for observer in (None, 0):
                view = GAME.view(state, observer)
                typed = msgspec.convert(view, GrimmWorldView, strict=True)
                assert msgspec.json.decode(msgspec.json.encode(typed)) == view
                kinds.add((type(typed).__name__, state.fight is not None))
            if GAME.outcome(state) is not None:
                break
            state, _ = GAME.apply(state, 0, rng.choice(list(GAME.legal_actions(state, 0))), trusted=True)
    assert kinds == {("SkirmishView", True), ("CampaignView", False), ("CampaignView", True)}


def test_fight_parts_are_absent_outside_a_fight() -> None:
    view = GAME.view(GAME.new_match(GAME.configure("campaign", 1), seed=3), None)
    assert view["mode"] == "campaign" and not {"board", "enemies", "martha"} & set(view)
    assert isinstance(msgspec.convert(view, GrimmWorldView), CampaignView)


def test_the_view_names_every_state_field_but_the_secrets() -> None:
    """A new state field must reach both typed views; the decks are counts (their order is secret)."""
    state_fields = set(State.__struct_fields__) - {"rng", "mode"}
    for kind in (SkirmishView, CampaignView):
        assert state_fields <= set(kind.__struct_fields__)
    assert DecksView.__struct_fields__ == Decks.__struct_fields__
    assert msgspec.json.schema(DecksView)["$defs"]["DecksView"]["properties"]["encounter"]["type"] == "integer"


def test_view_schema_is_generated_from_the_type() -> None:
    schema = msgspec.json.schema(GrimmWorldView)
    assert schema["anyOf"] and schema["discriminator"]["propertyName"] == "mode"
    assert schema["$defs"]["SkirmishView"]["additionalProperties"] is False
    assert "martha" not in schema["$defs"]["CampaignView"]["required"]
