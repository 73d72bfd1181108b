"""The Grimslingers versus engine on the gamehall protocol (game id `grimslingers`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from gamehall.engine.protocol import Action, Event, JsonDict, MatchConfig, Outcome, StructGame, action_id
from gamehall.games.grimslingers import conservation, coop, machine, views
from gamehall.games.grimslingers.actions import ACTION_TYPES
from gamehall.games.grimslingers.bots import default_action
from gamehall.games.grimslingers.rules import FLAGS, MODES, OPTIONS, team_count
from gamehall.games.grimslingers.setup import new_state
from gamehall.games.grimslingers.state import State
from gamehall.games.grimslingers.view_types import GrimslingersView


class Grimslingers(StructGame[State]):
    id = "grimslingers"
    name = "Grimslingers"
    description = "Weird-west spell duels: Standoff, secret Draw, Aftermath in resolution-number order."
    state_version = 1
    modes = MODES
    options = OPTIONS
    flags = FLAGS
    action_types = ACTION_TYPES
    state_type = State
    max_steps = 20_000
    view_type = GrimslingersView

    def teams(self, config: MatchConfig) -> tuple[tuple[int, ...], ...]:
        """Seats by team, derived from the mode's declared `team_size` (teammates sit alternately)."""
        k = team_count(config.mode, config.seats)
        return tuple(tuple(range(t, config.seats, k)) for t in range(k))

    def new_match(self, config: MatchConfig, seed: int) -> State:
        return new_state(self.validate_config(config), seed)

    def config_of(self, state: State) -> MatchConfig:
        candidates: dict[str, object] = {
            "items": state.items,
            "archetypes": state.archetypes,
            "draft": state.draft,
            "light_and_dark": state.light_dark,
            "creature": state.config_creature,
            "modifiers": state.config_modifiers,
            "difficulty": state.difficulty,
        }
        options = {o.name: candidates[o.name] for o in OPTIONS if o.applies_to(state.mode)}
        flags = {f.name: getattr(state.flags, f.name) for f in FLAGS if f.applies_to(state.mode)}
        return self.configure(state.mode, state.players, options, flags)

    def seat_count(self, state: State) -> int:
        """Protocol seats: the players (a creature sits after them and never acts)."""
        return state.players

    def to_act(self, state: State) -> frozenset[int]:
        return machine.to_act(state)

    def legal_actions(self, state: State, seat: int) -> Sequence[Action]:
        return machine.legal(state, seat)

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        s = self.copy(state)
        events: list[Event] = []
        machine.step(s, seat, action, events)
        return s, events

    def outcome(self, state: State) -> Outcome | None:
        """Versus: ranks. Co-op modes: a shared `coop.TeamOutcome` whose returns are the team's score."""
        return coop.outcome(state)

    def default_action(self, state: State, seat: int) -> Action | None:
        return default_action(state, seat)

    def view(self, state: State, seat: int | None) -> JsonDict:
        return views.view(state, seat)

    def determinize(self, view: JsonDict, seat: int, rng: random.Random) -> State:
        return views.determinize(view, seat, rng)

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        return views.resample_hidden(self.copy(state), seat, rng)

    def invariants(self, state: State) -> list[str]:
        """Breaches of card conservation (every card in exactly one zone), for the conformance kit."""
        return conservation.violations(state)

    def describe(self, state: State, action: Action) -> str:
        return views.describe(state, action) or action_id(action)


GAME = Grimslingers()
