"""Checks the protocol makes once for every game: malformed actions, seats that do not exist, unknown fields."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from gamehall.engine import Action, Game, MalformedAction, UnknownSeat, all_games
from gamehall.engine.conformance import default_configs
from gamehall.games.grimmoir import GAME as GRIMMOIR
from gamehall.games.grimmoir.actions import Move
from tests.fixtures.dice_nim import GAME as DICE_NIM
from tests.fixtures.high_card import GAME as HIGH_CARD

GAMES = [HIGH_CARD, DICE_NIM, *all_games()]
IDS = [g.id for g in GAMES]


def _walk(game: Game[Any], seed: int = 3, steps: int = 60) -> Any:
    """States of one random match of each config (first config only), for sampling actions."""
    rng = random.Random(seed)
    config = default_configs(game)[0]
    state = game.new_match(config, seed)
    for _ in range(steps):
        yield state
        acting = sorted(game.to_act(state))
        if not acting:
            return
        seat = acting[0]
        state, _ = game.apply(state, seat, rng.choice(list(game.legal_actions(state, seat))), trusted=True)


def _mistyped(action: Action) -> Action | None:
    """The action with its first int or str field given the other type (Python builds it unchecked)."""
    for name in action.__struct_fields__:
        value = getattr(action, name)
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            return msgspec.structs.replace(action, **{name: str(value)})
        if isinstance(value, str):
            return msgspec.structs.replace(action, **{name: 7})
    return None


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_view_refuses_a_seat_the_match_does_not_have(game: Game[Any]) -> None:
    for config in default_configs(game):
        state = game.new_match(config, 1)
        for seat in (-1, config.seats, config.seats + 5):
            with pytest.raises(UnknownSeat):
                game.view(state, seat)
        game.view(state, None)  # the spectator is no seat, and welcome
        for seat in range(config.seats):
            game.view(state, seat)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_apply_refuses_an_action_with_fields_of_the_wrong_type(game: Game[Any]) -> None:
    tried = 0
    for state in _walk(game):
        for seat in sorted(game.to_act(state)):
            for action in game.legal_actions(state, seat):
                bad = _mistyped(action)
                if bad is None:
                    continue
                before = game.encode(state)
                with pytest.raises(MalformedAction):
                    game.apply(state, seat, bad)
                assert game.encode(state) == before
                tried += 1
        if tried >= 20:
            break
    assert tried, f"{game.id}: no action with a typed field was found to corrupt"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_parse_action_refuses_unknown_fields(game: Game[Any]) -> None:
    state = game.new_match(default_configs(game)[0], 2)
    seat = min(game.to_act(state))
    action = game.legal_actions(state, seat)[0]
    data = game.action_to_json(action)
    assert game.parse_action(data) == action
    with pytest.raises(MalformedAction, match="unknown field"):
        game.parse_action({**data, "bogus": 1})


def test_an_action_of_another_game_is_malformed() -> None:
    state = HIGH_CARD.new_match(HIGH_CARD.configure(), 1)
    foreign = DICE_NIM.legal_actions(DICE_NIM.new_match(DICE_NIM.configure(), 1), 0)[0]
    with pytest.raises(MalformedAction, match="not an action of high-card"):
        HIGH_CARD.apply(state, 0, foreign)


def test_grimmoir_move_with_a_text_row_is_malformed_not_a_type_error() -> None:
    """The audit's case: `Move(row="1")` reached the engine's arithmetic and raised TypeError."""
    state = GRIMMOIR.new_match(GRIMMOIR.configure(), 1)
    seat = min(GRIMMOIR.to_act(state))
    with pytest.raises(MalformedAction, match="row"):
        GRIMMOIR.apply(state, seat, Move(character="x", row="1", column=1))  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_item_19_apply_checks_its_seat_as_view_does(game: Game[Any]) -> None:
    """Issue 40, item 19: `apply` refuses a seat the match does not have, for every registered game.

    A bool seat used to play as the seat it equals (True as seat 1) and a float seat raised TypeError
    in GrimmoiR and Grimslingers; now the protocol's `check_seat` refuses both before any rule runs,
    as it refuses negative and out-of-range seats, in `apply` as in `view`.
    """
    for config in default_configs(game):
        state = game.new_match(config, 1)
        acting = sorted(game.to_act(state))
        assert acting, f"{game.id} {config.mode}: nobody acts at the start"
        seat = acting[0]
        action = game.legal_actions(state, seat)[0]
        before = game.encode(state)
        bad: list[Any] = [-1, -seat - 1, config.seats, config.seats + 5, float(seat), seat + 0.5, True, False, "0"]
        for wrong in bad:
            with pytest.raises(UnknownSeat):
                game.apply(state, wrong, action)
            with pytest.raises(UnknownSeat):
                game.view(state, wrong)
        assert game.encode(state) == before
        game.apply(state, seat, action)  # the real seat still plays


def test_item_19_a_game_that_overrides_apply_still_checks_the_seat() -> None:
    """Issue 40, item 19: the check is the protocol's, so a game whose own `apply` forgets it is checked too."""

    class Careless(type(HIGH_CARD)):  # type: ignore[misc]
        id = "careless-high-card"

        def apply(self, state: Any, seat: int, action: Action, *, trusted: bool = False) -> Any:
            return self._apply(state, int(seat), action)  # no check at all

    game = Careless()
    state = game.new_match(game.configure(), 1)
    seat = min(game.to_act(state))
    action = game.legal_actions(state, seat)[0]
    for wrong in (True, False, float(seat), -1, game.configure().seats):
        with pytest.raises(UnknownSeat):
            game.apply(state, wrong, action)
    game.apply(state, seat, action)
    game.apply(state, seat, action, trusted=True)
