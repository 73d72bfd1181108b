"""Finding an action a client named, by its legal-action id or its JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamehall.engine.errors import IllegalAction, NotYourTurn
from gamehall.engine.protocol import Action, Game, action_id


def legal_by_id(game: Game[Any], state: Any, seat: int, wanted: str) -> Action:
    """The legal action of `seat` whose id is `wanted`; IllegalAction naming the id if none."""
    if seat not in game.to_act(state):
        raise NotYourTurn(f"seat {seat} is not to act now")
    for action in game.legal_actions(state, seat):
        if action_id(action) == wanted:
            return action
    raise IllegalAction(f"no legal action with id {wanted!r} for seat {seat} now")


def action_from_json(game: Game[Any], data: Mapping[str, Any]) -> Action:
    """Parse an action's JSON form (MalformedAction if it matches no action type of the game)."""
    return game.parse_action(data)
