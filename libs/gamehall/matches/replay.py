"""A match step by step from its seed and log, as one caller may see it (GetReplay), computed in
process by the engine: a finished match shows every seat's view and every action; a running one
only the caller's seat view and the caller's own actions (others' are hidden until the end).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamehall.engine import Game, MatchConfig
from gamehall.engine.lookup import action_from_json
from gamehall.matches.live import LoggedAction, MatchFacts

HIDDEN = "hidden until the match ends"


@dataclass(frozen=True)
class ReplayStep:
    version: int
    seat: int
    action: LoggedAction | None
    """None when the caller may not see it yet."""
    view: dict[str, Any]


def views_at(game: Game[Any], state: Any, seats: int, seat: int | None, complete: bool) -> dict[str, Any]:
    """The caller's view; for a finished match every seat's and the spectators'."""
    if complete:
        return {"seats": [game.view(state, s) for s in range(seats)], "spectator": game.view(state, None)}
    return game.view(state, seat)


def replay(
    game: Game[Any], facts: MatchFacts, actions: Sequence[LoggedAction], seat: int | None, complete: bool
) -> tuple[dict[str, Any], list[ReplayStep]]:
    """(the initial view, every step) of the match for a caller seated at `seat` (None: not seated)."""
    config = game.validate_config(MatchConfig.from_json(facts.config))
    state = game.new_match(config, facts.seed)
    seats = len(facts.seats)
    initial = views_at(game, state, seats, seat, complete)
    steps = []
    for entry in actions:
        state, _ = game.apply(state, entry.seat, action_from_json(game, entry.action))
        shown = complete or (seat is not None and entry.seat == seat)
        view = views_at(game, state, seats, seat, complete)
        steps.append(ReplayStep(entry.version, entry.seat, entry if shown else None, view))
    return initial, steps


__all__ = ["HIDDEN", "ReplayStep", "replay", "views_at"]
