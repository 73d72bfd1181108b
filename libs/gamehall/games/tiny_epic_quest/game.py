"""The Tiny Epic Quest engine on the gamehall protocol: modes, flags, dispatch, views and determinization."""

from __future__ import annotations

import random

import msgspec

from gamehall.engine import Action, Event, JsonDict, MatchConfig, Mode, Option, Outcome, StructGame
from gamehall.games.tiny_epic_quest import day, night
from gamehall.games.tiny_epic_quest.actions import (
    ACTION_TYPES,
    Advance,
    Adventure,
    Defend,
    Done,
    Equip,
    Exchange,
    Gain,
    Idle,
    Learn,
    Move,
    Provoke,
    Rest,
    Select,
    SkipGrotto,
    StopLearning,
    Strike,
    TakeHit,
    TakeQuest,
)
from gamehall.games.tiny_epic_quest.flow import apply_gain, pending_actions, pump
from gamehall.games.tiny_epic_quest.progress import take_quest
from gamehall.games.tiny_epic_quest.scoring import final_outcome
from gamehall.games.tiny_epic_quest.setup import new_state
from gamehall.games.tiny_epic_quest.state import (
    AGGRESSIVE,
    FLAG_DOCS,
    HEROES,
    DecisionKind,
    NightStage,
    Phase,
    Rules,
    State,
)
from gamehall.games.tiny_epic_quest.tables import DIFFICULTY_GOALS, N_QUESTS
from gamehall.games.tiny_epic_quest.view_types import TinyEpicQuestView
from gamehall.games.tiny_epic_quest.views import build_view

_DEFAULT_RULES = Rules()
_PREFERRED_DEFAULTS = (Idle, Rest, Done, TakeHit, SkipGrotto, StopLearning)


class TinyEpicQuest(StructGame[State]):
    id = "tiny-epic-quest"
    name = "Tiny Epic Quest"
    description = "Heroes quest by Day and press their luck with the Adventure dice by Night (2-4 players, solo)."
    state_version = 1
    modes = (
        Mode("standard", "Standard", (2, 3, 4), "The Bright side of the land: 5 rounds of Day and Night."),
        Mode("gloomfall", "GloomFall", (2, 3, 4), "Gloom sides: aggressive new goblins, harder temples, new grottos."),
        Mode("solo", "The Legend of the Chosen One", (1,), "Solo: reach the difficulty's VP goal in 5 rounds."),
    )
    options = (
        Option("difficulty", "peasant", "solo VP goal: peasant 40, page 45, squire 50, knight 55, hero-of-legend 60",
               choices=tuple(DIFFICULTY_GOALS), modes=("solo",)),
    )
    flags = tuple(Option(name, getattr(_DEFAULT_RULES, name), doc) for name, doc in FLAG_DOCS.items())
    action_types = ACTION_TYPES
    state_type = State
    view_type = TinyEpicQuestView
    max_steps = 20_000

    # ----------------------------------------------------------------- state API
    def new_match(self, config: MatchConfig, seed: int) -> State:
        config = self.validate_config(config)
        s = new_state(config, seed)
        pump(s, [])
        return s

    def config_of(self, state: State) -> MatchConfig:
        options = {"difficulty": state.difficulty} if state.mode == "solo" else {}
        return self.configure(state.mode, state.seats, options, msgspec.to_builtins(state.rules))

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase == Phase.OVER:
            return frozenset()
        if state.pending:
            return frozenset((state.pending[0].seat,))
        if state.phase == Phase.DAY:
            return frozenset((day.selector(state) if state.card < 0 else state.actor,))
        if state.stage == NightStage.USE:
            return frozenset(p for p in range(state.seats) if state.using[p])
        return frozenset((state.holder,))

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.pending:
            return pending_actions(state, state.pending[0])
        if state.phase == Phase.DAY:
            return day.day_actions(state, seat)
        if state.stage == NightStage.USE:
            return night.use_actions(state, seat)
        return night.choose_actions(state, seat)

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        s = self.copy(state)
        events: list[Event] = []
        if s.pending:
            self._apply_pending(s, seat, action, events)
        elif isinstance(action, Select):
            events += day.apply_select(s, action)
        elif isinstance(action, Move):
            events += day.apply_move(s, seat, action)
        elif isinstance(action, Idle):
            events += day.apply_idle(s, seat)
        elif isinstance(action, Equip):
            events += day.apply_equip(s, seat, action)
        elif isinstance(action, Exchange):
            events += day.apply_exchange(s, seat, action)
        elif isinstance(action, Adventure):
            events += night.apply_adventure(s, seat)
        elif isinstance(action, Rest):
            events += night.apply_rest(s, seat)
        elif isinstance(action, Advance):
            events += night.apply_advance(s, seat, action)
        elif isinstance(action, Strike):
            events += night.apply_strike(s, seat, action)
        elif isinstance(action, Done):
            s.using[seat] = False
        pump(s, events)
        return s, events

    @staticmethod
    def _apply_pending(s: State, seat: int, action: Action, events: list[Event]) -> None:
        head = s.pending[0]
        kind, value = head.kind, head.value
        rest = s.pending[1:]
        s.pending = []
        keep = False
        if kind == DecisionKind.GAIN and isinstance(action, Gain):
            events.append(apply_gain(s, seat, action.health, value))
        elif kind == DecisionKind.GROTTO:
            events += day.apply_grotto(s, seat, value, action)
        elif kind == DecisionKind.QUEST and isinstance(action, TakeQuest):
            take_quest(s, seat, action.quest, day=True)
            events.append(Event("quest_completed", {"seat": seat, "quest": action.quest}))
        elif kind == DecisionKind.EQUIP and isinstance(action, Equip):
            s.hero_items[HEROES * seat + action.hero].append(action.item)
        elif kind == DecisionKind.LEARN:
            if isinstance(action, Learn):
                events += night.apply_learn(s, seat, action)
                keep = not s.rules.single_learn_per_rest
            if not keep:
                night.finish_learning(s, seat)
        elif kind == DecisionKind.DEFEND:
            night.apply_defend(s, seat, isinstance(action, Defend), value, events)
        elif kind == DecisionKind.PROVOKE and isinstance(action, Provoke):
            s.goblin[action.slot] = AGGRESSIVE
            head = msgspec.structs.replace(head, value=head.value - 1)
            keep = head.value > 0
        s.pending = ([head] if keep else []) + s.pending + rest
        if kind == DecisionKind.DEFEND:
            # An exhausted seat drops its own pending entries (none are queued behind a defend decision).
            s.pending = [p for p in s.pending if p.seat != seat or s.status[seat] != 2]

    def outcome(self, state: State) -> Outcome | None:
        return final_outcome(state) if state.phase == Phase.OVER else None

    def default_action(self, state: State, seat: int) -> Action | None:
        legal = self.legal_actions(state, seat)
        if not legal:
            return None
        for kind in _PREFERRED_DEFAULTS:
            for action in legal:
                if type(action) is kind:
                    return action
        return legal[0]

    # ----------------------------------------------------------------- views and hidden information
    def view(self, state: State, seat: int | None) -> JsonDict:
        """Builds the typed view (the list fields are the state's own, copied by `to_builtins`)."""
        return msgspec.to_builtins(build_view(state, seat, sorted(self.to_act(state))))  # type: ignore[no-any-return]

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        s = self.copy(state)
        rng.shuffle(s.quest_deck)
        rng.shuffle(s.solo_deck)
        s.rng = rng.getrandbits(64)
        return s

    def determinize(self, view: JsonDict, seat: int, rng: random.Random) -> State:
        data = {k: v for k, v in view.items()
                if k not in ("seat", "to_act", "victory_points", "max_health", "max_power")}
        seen = set(data["row"]) | set(data["discard"]) | {q for done in data["quests_done"] for q in done}
        deck = [q for q in range(N_QUESTS) if q not in seen]
        rng.shuffle(deck)
        data["quest_deck"] = deck
        if data["mode"] == "solo":
            solo = [c for c in range(5) if not data["used"][c] and c not in data["options"]]
            rng.shuffle(solo)
            data["solo_deck"] = solo
        else:
            data["solo_deck"] = []
        data["rng"] = rng.getrandbits(64)
        return msgspec.convert(data, State)


GAME = TinyEpicQuest()
