"""Typed views (issue 17): the view Structs match the engine's names, and views convert back strictly."""

from __future__ import annotations

import random
from enum import IntEnum
from typing import Any, get_args

import msgspec
import pytest

from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers import view_types as vt
from gamehall.games.grimslingers.rules import FLAGS, MODES, OPTIONS
from gamehall.games.grimslingers.state import (
    COMMIT_NAMES,
    PHASE_NAMES,
    PICK_NAMES,
    PROMPT_NAMES,
    Flags,
)
from gamehall.games.grimslingers.tale_state import Activity, DecisionKind, DuelKind, Step


def _names(enum: type[IntEnum]) -> tuple[str, ...]:
    return tuple(m.name.lower() for m in enum)


@pytest.mark.parametrize(
    ("literal", "names"),
    [
        (vt.PhaseName, PHASE_NAMES),
        (vt.CommitName, tuple(COMMIT_NAMES.values())),
        (vt.PromptName, PROMPT_NAMES),
        (vt.PickName, PICK_NAMES),
        (vt.StepName, _names(Step)),
        (vt.ActivityName, _names(Activity)),
        (vt.DecisionName, _names(DecisionKind)),
        (vt.DuelName, _names(DuelKind)),
    ],
)
def test_literal_names_are_the_engine_names(literal: Any, names: tuple[str, ...]) -> None:
    assert get_args(literal) == names


def test_every_mode_has_its_view_and_every_option_and_flag_a_field() -> None:
    assert set(vt.BY_MODE) == {m.id for m in MODES}
    assert vt.FlagsView.__struct_fields__ == Flags.__struct_fields__ == tuple(f.name for f in FLAGS)
    assert set(vt.OptionsView.__struct_fields__) == {o.name for o in OPTIONS}


@pytest.mark.parametrize("mode", [m.id for m in MODES])
def test_views_convert_back_to_their_mode_struct(mode: str) -> None:
    """Every observer's view of a seeded random match is its mode's Struct, strictly (no stray key)."""
    seats = min(GAME.mode(mode).seats)
    rng = random.Random(5)
    state = GAME.new_match(GAME.configure(mode, seats), 5)
    for _ in range(60):
        for observer in [None, *range(seats)]:
            view = GAME.view(state, observer)
            typed = msgspec.convert(view, GAME.view_type)
            assert type(typed) is vt.BY_MODE[mode]
            assert msgspec.to_builtins(typed) == view
            assert ("hand" in view) == (observer is not None)
        acting = GAME.to_act(state)
        if not acting:
            break
        seat = rng.choice(sorted(acting))
        state, _ = GAME.apply(state, seat, rng.choice(list(GAME.legal_actions(state, seat))), trusted=True)


def test_a_view_with_an_undeclared_key_or_a_foreign_mode_is_refused() -> None:
    view = GAME.view(GAME.new_match(GAME.configure("versus-1v1", 2), 1), 0)
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        msgspec.convert({**view, "peek": 1}, GAME.view_type)
    with pytest.raises(msgspec.ValidationError, match="tale"):
        msgspec.convert({**view, "tale": None}, GAME.view_type)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({**view, "mode": "poker"}, GAME.view_type)
