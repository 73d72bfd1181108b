"""The automatic parts of the round: pending decisions that need no choice, turn and phase progression,
and the end-of-night Resolution. `pump` runs them until some seat must decide."""

from __future__ import annotations

import msgspec

from gamehall.engine import Action, Event, Rng
from gamehall.games.tiny_epic_quest import night
from gamehall.games.tiny_epic_quest.actions import Defend, Equip, Gain, Provoke, TakeHit, TakeQuest
from gamehall.games.tiny_epic_quest.day import grotto_options
from gamehall.games.tiny_epic_quest.progress import discard_rightmost, free_hands
from gamehall.games.tiny_epic_quest.state import (
    AGGRESSIVE,
    DAY_TURNS,
    HEROES,
    NO_GOBLIN,
    PASSIVE,
    ROUNDS,
    Decision,
    DecisionKind,
    NightStage,
    Phase,
    State,
    gain_health,
    gain_power,
    max_health,
    max_power,
    next_seat,
    portal_region,
)
from gamehall.games.tiny_epic_quest.tables import GLOOM


# ----------------------------------------------------------------------------- gains
def gain_splits(s: State, seat: int, k: int) -> list[int]:
    """How many of `k` gains may go to Health; only splits that waste nothing, one per distinct result."""
    room_h = max_health(s, seat) - s.health[seat]
    room_p = max_power(s, seat) - s.power[seat]
    lo, hi = max(0, k - room_p), min(k, room_h)
    if lo > hi:
        return [room_h]
    return list(range(lo, hi + 1))


def apply_gain(s: State, seat: int, to_health: int, k: int) -> Event:
    gain_health(s, seat, to_health)
    gain_power(s, seat, k - to_health)
    return Event("gained", {"seat": seat, "health": s.health[seat], "power": s.power[seat]})


def passive_portals(s: State) -> list[int]:
    return [slot for slot in range(len(s.cards)) if s.goblin[slot] == PASSIVE and portal_region(s, slot) >= 0]


# ----------------------------------------------------------------------------- pending decisions
def pending_actions(s: State, head: Decision) -> list[Action]:
    seat, kind, value = head.seat, head.kind, head.value
    if kind == DecisionKind.GAIN:
        return [Gain(i) for i in gain_splits(s, seat, value)]
    if kind == DecisionKind.GROTTO:
        return grotto_options(s, seat, value)
    if kind == DecisionKind.QUEST:
        return [TakeQuest(q) for q in s.choices]
    if kind == DecisionKind.EQUIP:
        return [Equip(value, i) for i in free_hands(s, seat)]
    if kind == DecisionKind.LEARN:
        return night.learn_actions(s, seat)
    if kind == DecisionKind.DEFEND:
        return [Defend(), TakeHit()] if s.power[seat] >= night.defend_cost(s, seat) else [TakeHit()]
    if kind == DecisionKind.PROVOKE:
        return [Provoke(slot) for slot in passive_portals(s)]
    raise AssertionError(f"unknown pending kind {kind}")


def _auto(s: State, head: Decision, events: list[Event]) -> bool:
    """Resolve the head pending decision when it leaves no real choice; True if it did."""
    seat, kind, value, extra = head.seat, head.kind, head.value, head.extra
    if kind == DecisionKind.GAIN:
        if extra:
            gain_power(s, seat, extra % 16)
            gain_health(s, seat, extra // 16)
            s.pending[0] = msgspec.structs.replace(head, extra=0)  # `head` is the first pending decision
        splits = gain_splits(s, seat, value)
        if len(splits) == 1:
            s.pending.pop(0)
            if value:
                events.append(apply_gain(s, seat, splits[0], value))
            return True
        return False
    if kind == DecisionKind.GROTTO:
        if not grotto_options(s, seat, value):
            s.pending.pop(0)
            return True
        return False
    if kind == DecisionKind.EQUIP:
        hands = free_hands(s, seat)
        if len(hands) <= 1:
            s.pending.pop(0)
            if hands:
                s.hero_items[HEROES * seat + hands[0]].append(value)
            else:
                s.kept[seat].append(value)
            return True
        return False
    if kind == DecisionKind.LEARN:
        free, paid = night.learn_options(s, seat)
        if not free and not paid:
            s.pending.pop(0)
            night.finish_learning(s, seat)
            return True
        if len(free) == 1 and not paid:
            events.extend(night.apply_learn(s, seat, free[0]))
            if s.rules.single_learn_per_rest:
                s.pending.pop(0)
                night.finish_learning(s, seat)
            return True
        return False
    if kind == DecisionKind.DEFEND:
        if s.power[seat] < night.defend_cost(s, seat):
            s.pending.pop(0)
            night.take_damage(s, seat, value, events)
            return True
        return False
    if kind == DecisionKind.PROVOKE:
        passive = passive_portals(s)
        if value <= 0 or len(passive) <= value:
            for slot in passive if value > 0 else []:
                s.goblin[slot] = AGGRESSIVE
            s.pending.pop(0)
            return True
        return False
    return False


# ----------------------------------------------------------------------------- phases
def start_day(s: State) -> None:
    s.phase = Phase.DAY
    s.turn = 0
    s.card = -1
    s.acted = 0
    s.moved = False
    s.used = [False] * 5
    s.quested_this_turn = [False] * s.seats
    if s.mode == "solo":
        rng = Rng(s.rng)
        s.solo_deck = rng.shuffled(range(5))
        s.rng = rng.state
        s.options = [s.solo_deck.pop(0), s.solo_deck.pop(0)]


def _end_day_turn(s: State) -> None:
    s.used[s.card] = True
    if s.mode == "solo":
        s.options.remove(s.card)
    s.turn += 1
    s.card = -1
    s.acted = 0
    s.quested_this_turn = [False] * s.seats
    if s.turn >= DAY_TURNS:
        night.start_night(s)
    elif s.mode == "solo" and s.solo_deck:
        s.options.append(s.solo_deck.pop(0))


def _start_resolution(s: State, events: list[Event]) -> None:
    if s.round >= ROUNDS:
        s.phase = Phase.OVER
        events.append(Event("game_over", {"round": s.round}))
        return
    s.magic = 0
    passive = passive_portals(s)
    if s.mode == "solo" and len(passive) > 3:
        s.pending.append(Decision(0, DecisionKind.PROVOKE, value=3))
        s.stage = NightStage.PROVOKING
        return
    for slot in passive:
        s.goblin[slot] = AGGRESSIVE
    _finish_resolution(s, events)


def _finish_resolution(s: State, events: list[Event]) -> None:
    fresh = AGGRESSIVE if s.side == GLOOM else PASSIVE
    for slot in range(len(s.cards)):
        if s.goblin[slot] == NO_GOBLIN and portal_region(s, slot) >= 0 and s.supply > 0:
            s.supply -= 1
            s.goblin[slot] = fresh
    s.goblin_damage = [0] * len(s.cards)
    s.goblin_claim = [-1] * len(s.cards)
    s.used = [False] * 5
    if s.mode == "solo" or s.no_quest_by_day:
        discard_rightmost(s)
    s.first = next_seat(s, s.first)
    s.no_quest_by_day = True
    s.round += 1
    s.stage = NightStage.CHOOSE
    events.append(Event("round_started", {"round": s.round, "first": s.first}))
    start_day(s)


def pump(s: State, events: list[Event]) -> None:
    """Advance every automatic step until a seat must decide (or the match is over)."""
    while s.phase != Phase.OVER:
        if s.pending:
            if _auto(s, s.pending[0], events):
                continue
            return
        if s.phase == Phase.DAY:
            if s.card < 0 or not s.moved:
                return
            s.moved = False
            s.acted += 1
            if s.acted >= s.seats:
                _end_day_turn(s)
            else:
                s.actor = next_seat(s, s.actor)
            continue
        assert s.phase == Phase.NIGHT
        if s.stage == NightStage.DISTRIBUTE:
            night.distribute(s, events)
            continue
        if s.stage == NightStage.USE:
            if any(s.using):
                return
            night.end_roll(s)
            continue
        if s.stage == NightStage.PROVOKING:
            _finish_resolution(s, events)
            continue
        if s.holder < 0:
            _start_resolution(s, events)
            continue
        return
