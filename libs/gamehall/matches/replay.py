"""A match step by step from its seed and log, as one caller may see it (GetReplay), computed in
process by the engine: a finished match shows every seat's view and every action; a running one
only the caller's seat view and the caller's own actions (others' are hidden until the end).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
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


def _initial_state(game: Game[Any], facts: MatchFacts) -> Any:
    return game.new_match(game.validate_config(MatchConfig.from_json(facts.config)), facts.seed)


def initial_view(game: Game[Any], facts: MatchFacts, seat: int | None, complete: bool) -> dict[str, Any]:
    """The view before any action, for a caller seated at `seat` (None: not seated)."""
    return views_at(game, _initial_state(game, facts), len(facts.seats), seat, complete)


def steps_from(
    game: Game[Any],
    facts: MatchFacts,
    actions: Sequence[LoggedAction],
    seat: int | None,
    complete: bool,
    from_version: int = 1,
) -> Iterator[ReplayStep]:
    """The steps from `from_version` on, lazily: earlier actions are applied without building views (the costly
    part), so a page of a long replay costs its own views plus one pass of the engine over the log."""
    state = _initial_state(game, facts)
    seats = len(facts.seats)
    for entry in actions:
        state, _ = game.apply(state, entry.seat, action_from_json(game, entry.action))
        if entry.version < from_version:
            continue
        shown = complete or (seat is not None and entry.seat == seat)
        view = views_at(game, state, seats, seat, complete)
        yield ReplayStep(entry.version, entry.seat, entry if shown else None, view)


def replay(
    game: Game[Any], facts: MatchFacts, actions: Sequence[LoggedAction], seat: int | None, complete: bool
) -> tuple[dict[str, Any], list[ReplayStep]]:
    """(the initial view, every step) of the match for a caller seated at `seat` (None: not seated)."""
    return initial_view(game, facts, seat, complete), list(steps_from(game, facts, actions, seat, complete))


__all__ = ["HIDDEN", "ReplayStep", "initial_view", "replay", "steps_from", "views_at"]
