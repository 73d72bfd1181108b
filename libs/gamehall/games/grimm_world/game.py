"""The Grimm World engine on the gamehall protocol: the skirmish mode (one conflict on the tactical grid)."""

from __future__ import annotations

import random

from gamehall.engine import Action, Event, JsonDict, MatchConfig, Mode, Option, Outcome, StructGame
from gamehall.games.grimm_world import campaign, views
from gamehall.games.grimm_world.actions import ACTION_TYPES, Decline, EndPhase, Stop
from gamehall.games.grimm_world.catalog import ALLIES, CONFLICTS
from gamehall.games.grimm_world.choices import apply_character, apply_prompt, legal
from gamehall.games.grimm_world.combat import run
from gamehall.games.grimm_world.context import Ctx
from gamehall.games.grimm_world.labels import describe
from gamehall.games.grimm_world.score import score
from gamehall.games.grimm_world.setup import new_state
from gamehall.games.grimm_world.state import State
from gamehall.games.grimm_world.view_types import GrimmWorldView

_PREFERRED_DEFAULTS = (Decline(), Stop(), EndPhase())


class GrimmWorld(StructGame[State]):
    id = "grimm-world"
    name = "Grimm World"
    description = ("Solo fairy-tale adventure: Martha explores regions, trades, quests and fights on a tactical grid "
                   "of Terrain Cards (campaign and skirmish modes).")
    state_version = 1
    modes = (Mode("skirmish", "Skirmish", (1,), "One Conflict Card: Martha against its enemies, automated by their "
                  "Action Lines and the Decision Compass."),
             Mode("campaign", "Campaign", (1,), "The solo story: exploration rounds, quests, trading and chapters "
                  "until Hedda is cured or time runs out; fights use the skirmish combat."))
    options = (
        Option("conflict", "Y701", "the Conflict Card to fight", choices=tuple(sorted(CONFLICTS)), modes=("skirmish",)),
        Option("chapter", 1, "chapter modifier 1-14: picks the placement table and Martha's loadout (the difficulty)",
               choices=tuple(range(1, 15)), modes=("skirmish",)),
        Option("ally", "", "an ally fighting beside Martha ('' none; the ally's rules are designed, W-CO-06)",
               choices=("", *sorted(ALLIES)), modes=("skirmish",)),
    )
    flags = (
        Option("round_limit", 0, "not the book's rule: a fight still on after this many combat rounds is lost (0: no "
               "limit; a fight ends only by its Conflict Card's win and loss conditions, W-CB-07)", minimum=0,
               maximum=99),
    )
    action_types = ACTION_TYPES
    state_type = State
    view_type = GrimmWorldView
    max_steps = 20000

    def new_match(self, config: MatchConfig, seed: int) -> State:
        config = self.validate_config(config)
        limit = int(config.flags["round_limit"])  # type: ignore[arg-type]
        if config.mode == "campaign":
            return campaign.new_campaign(seed, limit)
        options = config.options
        return new_state(str(options["conflict"]), int(options["chapter"]), seed, limit,  # type: ignore[arg-type]
                         str(options["ally"]))

    def config_of(self, state: State) -> MatchConfig:
        flags = {"round_limit": state.round_limit}
        if state.journey is not None:
            return self.configure("campaign", 1, {}, flags)
        options = {"conflict": state.conflict, "chapter": state.chapter, "ally": state.sheet.ally}
        return self.configure(state.mode, 1, options, flags)

    def to_act(self, state: State) -> frozenset[int]:
        if state.journey is not None:
            return frozenset((0,)) if campaign.legal_actions(state) else frozenset()
        if state.fight is None or state.fight.result:
            return frozenset()
        return frozenset((0,))

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.journey is not None:
            return campaign.legal_actions(state) if seat == 0 else []
        if seat != 0 or state.fight is None or state.fight.result:
            return []
        return legal(Ctx(state))

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        s = self.copy(state)
        if s.journey is not None:
            events = campaign.apply(s, action)
            s.steps += 1
            return s, events
        ctx = Ctx(s)
        if ctx.f.prompt:
            apply_prompt(ctx, action)
        else:
            apply_character(ctx, action)
        run(ctx)
        s.steps += 1
        return s, ctx.close()

    def outcome(self, state: State) -> Outcome | None:
        if state.journey is not None:
            if not state.journey.result:
                return None
            rank = 1 if state.journey.result == "victory" else 2
            return Outcome((rank,), (score(state),), state.journey.result)
        if state.fight is None or not state.fight.result:
            return None
        f = state.fight
        if f.result == "victory":
            return Outcome((1,), (1.0,), "victory")
        from gamehall.games.grimm_world.catalog import ENEMIES

        total = sum(ENEMIES[foe.number].constitution for foe in f.foes)
        dealt = sum(ENEMIES[foe.number].constitution - foe.hp for foe in f.foes)
        return Outcome((2,), (round(0.5 * dealt / total, 4),), "defeat")

    def default_action(self, state: State, seat: int) -> Action | None:
        legal_now = self.legal_actions(state, seat)
        for preferred in _PREFERRED_DEFAULTS:
            if preferred in legal_now:
                return preferred
        return legal_now[0] if legal_now else None

    def describe(self, state: State, action: Action) -> str:
        """A label for clients: card names and enemy names instead of bare ids."""
        return describe(state, action)

    def view(self, state: State, seat: int | None) -> JsonDict:
        return views.to_json_builtins(views.view(state, seat, sorted(self.to_act(state))))

    def determinize(self, view: JsonDict, seat: int, rng: random.Random) -> State:
        return views.determinize(view, rng)

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        return views.resample_hidden(state, self.copy(state), rng)


GAME = GrimmWorld()
