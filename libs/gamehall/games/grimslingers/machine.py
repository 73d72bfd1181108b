"""The phase machine: who acts now, what they may do, and how an action moves the match on.

`step` applies one action to a (copied) state, then `advance` runs every automatic part of the
turn (Standoff start, reveal, resolution, end of turn) until some seat must answer again.
"""

from __future__ import annotations

from gamehall.engine.errors import IllegalAction
from gamehall.engine.protocol import Action, Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import aftermath, creatures, draw, setup, standoff, tale, tale_camp
from gamehall.games.grimslingers.actions import (
    Aim,
    Cheat,
    Choose,
    Keep,
    Pick,
    PickArchetype,
    Stash,
    StopPicking,
    TradeIn,
)
from gamehall.games.grimslingers.items import finish_instant
from gamehall.games.grimslingers.piles import prune_shown
from gamehall.games.grimslingers.revival import SECRET, secret_options
from gamehall.games.grimslingers.revival import answer as answer_revival
from gamehall.games.grimslingers.state import Phase, PickKind, PromptKind, State
from gamehall.games.grimslingers.table import draw_in_order, player_order
from gamehall.games.grimslingers.tale_effects import over_limit

_TALE_PICKS = (PickKind.ORGANIZE, PickKind.TRADE)
_CHOICES = (
    PromptKind.REDIRECT,
    PromptKind.EQUILIBRIUM,
    PromptKind.TRANSMUTE,
    PromptKind.TRUE_GRIT,
    PromptKind.SKILL_OPTION,
)


def to_act(s: State) -> frozenset[int]:
    if s.phase == Phase.OVER:
        return frozenset()
    if s.prompts:
        return frozenset((s.prompts[0].seat,))
    if s.picking is not None:
        return frozenset((s.picking.seat,))
    over = over_limit(s)
    if over >= 0:
        return frozenset((over,))  # the excess goes to the stash before anything else
    if s.phase == Phase.ADVENTURE:
        return tale.to_act(s)
    if s.phase == Phase.STANDOFF:
        return standoff.waiting(s)
    if s.phase == Phase.ARCHETYPE:
        return frozenset((s.current,)) if s.current >= 0 else frozenset()
    if s.phase == Phase.DRAFT:
        return frozenset(i for i in range(s.players) if s.seats[i].acted == 0)
    if s.phase == Phase.AIM:
        return frozenset(i for i, x in enumerate(s.seats) if x.alive and x.aim < 0)
    if s.phase == Phase.FIRE:
        if s.creature >= 0 and s.seats[s.creature].commit is None:
            return frozenset()  # only between an action and `advance`: the creature plays first
        waiting = [i for i in player_order(s) if s.seats[i].commit is None]
        if draw_in_order(s):
            return frozenset(waiting[:1])
        return frozenset(waiting)
    return frozenset()


def legal(s: State, seat: int) -> list[Action]:
    if seat not in to_act(s):
        return []
    out = _legal(s, seat)
    if tale_camp.may_trade_in(s, seat):
        out += [a for a in tale_camp.trade_ins(s, seat) if a not in out]
    return out


def _legal(s: State, seat: int) -> list[Action]:
    if s.prompts:
        prompt = s.prompts[0]
        if prompt.kind == PromptKind.DIRTY_CHEAT:
            return draw.cheat_legal(s, seat)
        if prompt.kind in SECRET:
            return [Choose(o) for o in secret_options(s, prompt)]
        if prompt.kind == PromptKind.SKILL_OPTION:
            return [Choose(o) for o in aftermath.skill_options(s, prompt)]
        return [Choose(o) for o in prompt.options]
    if s.picking is not None:
        if s.picking.kind in _TALE_PICKS:
            return tale_camp.picking_legal(s)
        return standoff.legal_picks(s)
    if over_limit(s) == seat:
        return tale_camp.overflow_legal(s, seat)
    if s.phase == Phase.ADVENTURE:
        return tale.legal(s, seat)
    if s.phase == Phase.STANDOFF:
        return standoff.legal(s, seat)
    if s.phase == Phase.FIRE:
        return draw.fire_legal(s, seat)
    if s.phase == Phase.AIM:
        return draw.aim_legal(s, seat)
    if s.phase == Phase.DRAFT:
        return setup.keep_options(s, seat)
    if s.phase == Phase.ARCHETYPE:
        return setup.archetype_legal(s, seat)
    return []


def step(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """Apply `action` of `seat` to `s` in place (the caller passes a copy), then advance."""
    rng = Rng(s.rng)
    if s.prompts:
        prompt = s.prompts.pop(0)
        if prompt.kind == PromptKind.DIRTY_CHEAT:
            if isinstance(action, Cheat):
                draw.apply_cheat(s, seat, action, events, rng)
        elif not isinstance(action, Choose):
            raise IllegalAction("answer the prompt with a choose action")
        elif prompt.kind in _CHOICES:
            aftermath.answer_choice(s, prompt, action.option)
            if prompt.kind == PromptKind.TRUE_GRIT and s.instant and not s.prompts:
                finish_instant(s, rng)  # True Grit against DMG outside the Aftermath
        else:
            answer_revival(s, prompt, action.option, end_check=s.phase == Phase.AFTERMATH and s.current_play < -1)
            events.append(
                Event(
                    "revival" if prompt.kind != PromptKind.SPECTER else "specter",
                    {"seat": seat, "option": action.option},
                )
            )
    elif isinstance(action, TradeIn) and tale_camp.may_trade_in(s, seat):
        tale_camp.apply_trade_in(s, seat, action, events, rng)  # S-26: at any time, a free action
    elif s.picking is not None and s.picking.kind in _TALE_PICKS:
        tale_camp.apply_picking(s, action, events)
    elif s.picking is not None:
        if not isinstance(action, (Pick, StopPicking)):
            raise IllegalAction("finish picking first")
        standoff.apply_pick(s, action, events)
    elif over_limit(s) == seat:
        if not isinstance(action, Stash):
            raise IllegalAction("your hand is over its limit: stash cards first (R-063)")
        tale_camp.apply_organize(s, seat, action, events)
    elif s.phase == Phase.ADVENTURE:
        tale.apply_action(s, seat, action, events, rng)
    elif s.phase == Phase.STANDOFF:
        standoff.apply(s, seat, action, events, rng)
    elif s.phase == Phase.FIRE:
        draw.apply_fire(s, seat, action, events)
    elif s.phase == Phase.AIM:
        assert isinstance(action, Aim)
        draw.apply_aim(s, seat, action, events)
    elif s.phase == Phase.DRAFT:
        assert isinstance(action, Keep)
        setup.apply_keep(s, seat, action, events, rng)
    elif s.phase == Phase.ARCHETYPE:
        assert isinstance(action, PickArchetype)
        setup.apply_archetype(s, seat, action, events, rng)
    advance(s, events, rng)
    prune_shown(s)
    s.rng = rng.state


def advance(s: State, events: list[Event], rng: Rng) -> None:
    while True:
        standoff.close_stuck_picking(s)
        if s.prompts or s.picking is not None or s.phase == Phase.OVER or over_limit(s) >= 0:
            return
        if s.phase == Phase.STANDOFF and not s.standoff_open:
            standoff.open_standoff(s, events, rng)
        elif s.phase == Phase.FIRE and s.creature >= 0 and s.seats[s.creature].commit is None:
            creatures.draw(s, events, rng)  # the creature's top card goes face down first
        elif s.phase == Phase.CHEAT:
            draw.run_reveal(s, events, rng)
            if s.phase == Phase.CHEAT:
                return
        elif s.phase == Phase.AFTERMATH:
            aftermath.run(s, events, rng)
            if s.phase == Phase.AFTERMATH:
                return
        elif s.phase == Phase.ADVENTURE:
            tale.advance(s, events, rng)
            if s.phase in (Phase.ADVENTURE, Phase.OVER):
                return
        else:
            return
