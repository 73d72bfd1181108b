"""A match step by step from its seed and log, as one caller may see it (GetReplay), computed in
process by the engine: a finished match shows every seat's view and every action; a running one
only the caller's seat view and the caller's own actions (others' are hidden until the end).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
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


@dataclass(frozen=True)
class ReplayPage:
    """One page of a replay: the initial view (JSON text, on the page that starts at version 1 only, else ""),
    its steps each with its view's JSON text, and the version the next page starts at (0: this is the last)."""

    initial_view_json: str
    steps: list[tuple[ReplayStep, str]]
    next_version: int


def replay_page(
    game: Game[Any],
    facts: MatchFacts,
    actions: Sequence[LoggedAction],
    seat: int | None,
    complete: bool,
    first: int,
    page_size: int,
    max_bytes: int,
    encode: Callable[[Any], str],
) -> ReplayPage:
    """The page of the replay from version `first`: at most `page_size` steps (0: no count limit) and, past its
    first step, at most `max_bytes` of views as `encode` writes them. A full page stops before building the next
    step's views (the costly part); joined in order, the pages are exactly `replay`'s steps."""
    initial = encode(initial_view(game, facts, seat, complete)) if first == 1 else ""
    steps: list[tuple[ReplayStep, str]] = []
    used = len(initial)
    last = actions[-1].version if actions else 0
    for step in steps_from(game, facts, actions, seat, complete, first):
        view_json = encode(step.view)
        if steps and used + len(view_json) > max_bytes:
            return ReplayPage(initial, steps, step.version)
        used += len(view_json)
        steps.append((step, view_json))
        if page_size and len(steps) >= page_size:
            return ReplayPage(initial, steps, step.version + 1 if step.version < last else 0)
    return ReplayPage(initial, steps, 0)


__all__ = ["HIDDEN", "ReplayPage", "ReplayStep", "initial_view", "replay", "replay_page", "steps_from", "views_at"]
