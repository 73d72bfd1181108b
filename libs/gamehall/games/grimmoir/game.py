"""GrimmoiR on the gamehall engine protocol: phases dispatched to formation, display and battle."""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgspec

from gamehall.engine import (
    Action,
    Event,
    IllegalAction,
    JsonDict,
    MatchConfig,
    Mode,
    Outcome,
    Rng,
    StructGame,
    action_id,
)
from gamehall.games.grimmoir import battle, display, formation
from gamehall.games.grimmoir.actions import (
    ACTION_TYPES,
    Arrange,
    Attack,
    DeclineSupport,
    Move,
    Pass,
    PickFaction,
    Place,
    Recruit,
    Special,
    Swap,
)
from gamehall.games.grimmoir.catalog import CARDS
from gamehall.games.grimmoir.flags import FLAGS, OPTIONS, flags_of, options_of, rules_from
from gamehall.games.grimmoir.state import DRAW, NOBODY, PHASE_NAMES, Phase, State, new_board
from gamehall.games.grimmoir.view_types import GrimmoirView
from gamehall.games.grimmoir.views import build_view, from_view, redraw_seat


class Grimmoir(StructGame[State]):
    id = "grimmoir"
    name = "GrimmoiR"
    description = (
        "Two commanders draft factions on the Alliance Wheel, recruit six characters each and "
        "fight on a 4x3 battlefield, spending five coins a round on attacks, specials and moves."
    )
    state_version = 1
    modes = (Mode("duel", "Duel", (2,), "The two-player game of the rulebook."),)
    options = OPTIONS
    flags = FLAGS
    action_types = ACTION_TYPES
    state_type = State
    view_type = GrimmoirView
    max_steps = 20_000

    # ------------------------------------------------------------------ setup
    def new_match(self, config: MatchConfig, seed: int) -> State:
        config = self.validate_config(config)
        rng = Rng(seed)
        first = rng.below(2)  # G-SU-02: the starting player is determined at random
        return State(
            rules=rules_from(config.flags, config.options),
            rng=rng.state,
            phase=Phase.DRAFT,
            first=first,
            initiative=first,
            step=0,
            mains=[-1, -1],
            supports=[-1, -1],
            teams=[[], []],
            hands=[[], []],
            arranged=[[], []],
            board=new_board(),
            fallen=[[], []],
            coins=[0, 0],
            turn=first,
            passed=[False, False],
            round=0,
            pending_shift=-1,
            round_ending=False,
        )

    def config_of(self, state: State) -> MatchConfig:
        return self.configure("duel", 2, options_of(state.rules), flags_of(state.rules))

    # ------------------------------------------------------------------ turn structure
    def to_act(self, state: State) -> frozenset[int]:
        phase = state.phase
        if phase == Phase.BATTLE:
            return frozenset((state.pending_shift if state.pending_shift >= 0 else state.turn,))
        if phase == Phase.DRAFT:
            return frozenset((formation.drafter(state),))
        if phase == Phase.RECRUIT:
            return frozenset(s for s in (0, 1) if len(state.teams[s]) < 6)
        if phase == Phase.DISPLAY:
            return frozenset((display.placer(state),))
        if phase == Phase.ARRANGE:
            return frozenset(s for s in (0, 1) if not state.arranged[s])
        return frozenset()

    def legal_actions(self, state: State, seat: int) -> Sequence[Action]:
        phase = state.phase
        if phase == Phase.BATTLE:
            return battle.battle_actions(state, seat)
        if phase == Phase.DRAFT:
            return formation.draft_actions(state, seat)
        if phase == Phase.RECRUIT:
            return formation.recruit_actions(state, seat)
        if phase == Phase.DISPLAY:
            return display.display_actions(state, seat)
        if phase == Phase.ARRANGE:
            return display.arrange_actions(state, seat)
        return []

    def validate_action(self, state: State, seat: int, action: Action) -> None:
        phase = state.phase
        if phase == Phase.BATTLE:
            battle.check_battle_action(state, seat, action)
            return
        if phase == Phase.RECRUIT and isinstance(action, Recruit):
            formation.check_recruit(state, seat, action)
            return
        if phase == Phase.DISPLAY and isinstance(action, Place):
            display.check_place(state, seat, action)
            return
        if phase == Phase.ARRANGE and isinstance(action, Arrange):
            display.check_arrange(state, seat, action)
            return
        if phase == Phase.DRAFT and isinstance(action, (PickFaction, DeclineSupport)):
            if action not in self.legal_actions(state, seat):
                what = "main" if state.step < 2 else "supporting"
                raise IllegalAction(f"{action_id(action)} is not an open {what} faction choice")
            return
        raise IllegalAction(
            f"{action_id(action)} does not belong to the {PHASE_NAMES[phase]} phase"
        )

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        s = self.copy(state)
        events: list[Event] = []
        phase = s.phase
        if phase == Phase.BATTLE:
            battle.apply_battle(s, seat, action, events)
        elif phase == Phase.DRAFT:
            formation.apply_draft(s, seat, action, events)
        elif phase == Phase.RECRUIT:
            assert isinstance(action, Recruit)
            formation.apply_recruit(s, seat, action, events)
        elif phase == Phase.DISPLAY:
            assert isinstance(action, Place)
            display.apply_place(s, seat, action, events)
        elif phase == Phase.ARRANGE:
            assert isinstance(action, Arrange)
            display.apply_arrange(s, seat, action, events)
            if s.phase == Phase.BATTLE:
                battle.flow(s, 1 - s.initiative, events)  # the initiative holder takes the first turn
        return s, events

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != Phase.OVER:
            return None
        if state.winner == DRAW or state.winner == NOBODY:
            return Outcome((1, 1), reason=state.end_reason)
        return Outcome((1, 2) if state.winner == 0 else (2, 1), reason=state.end_reason)

    def default_action(self, state: State, seat: int) -> Action | None:
        """A turn clock's move: pass in battle, decline a supporting faction, else the first legal choice."""
        legal = self.legal_actions(state, seat)
        if not legal:
            return None
        for action in legal:
            if isinstance(action, (Pass, DeclineSupport)):
                return action
        return legal[0]

    # ------------------------------------------------------------------ information
    def view(self, state: State, seat: int | None) -> JsonDict:
        return msgspec.to_builtins(build_view(state, seat, sorted(self.to_act(state))))  # type: ignore[no-any-return]

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        s = self.copy(state)
        for other in (0, 1):
            if other != seat:
                redraw_seat(s, other, rng)
        s.rng = rng.getrandbits(64)
        return s

    def determinize(self, view: JsonDict, seat: int, rng: random.Random) -> State:
        return from_view(view, seat, rng)

    def describe(self, state: State, action: Action) -> str:
        """A label with character names, e.g. "Attack: Gravewarden Ost -> Pale Almoner"."""
        names = {c.id: c.name for c in CARDS}

        def name(card_id: str | None) -> str:
            return names.get(card_id or "", str(card_id))

        if isinstance(action, Attack):
            return f"Attack: {name(action.attacker)} -> {name(action.target)}"
        if isinstance(action, Special):
            aim = f" -> {name(action.target)}" if action.target else ""
            return f"Special: {name(action.character)}{aim}"
        if isinstance(action, Move):
            return f"Move {name(action.character)} to row {action.row}, column {action.column}"
        if isinstance(action, Swap):
            return f"Swap {name(action.first)} and {name(action.second)}"
        if isinstance(action, (Recruit, Place)):
            where = f" in column {action.column}" if isinstance(action, Place) else ""
            return f"{type(action).__name__} {name(action.character)}{where}"
        return action_id(action)


GAME = Grimmoir()
