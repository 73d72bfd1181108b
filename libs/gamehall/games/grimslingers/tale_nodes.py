"""Node Resolution of the Tall Tale (R-241..R-244, R-261): Rest, Landmark (group entries and
one-at-a-time sneaks with the number deck), Event cards (a group option, Behemoth Be Comin's
individual blasts) and the individual queue (camp, sneak, Behemoth, perks) the adventure runs on.
Attack nodes start a duel (`tale_duel`)."""

from __future__ import annotations

from gamehall.engine.protocol import Action, Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers import tale_duel
from gamehall.games.grimslingers.actions import Keep, Select
from gamehall.games.grimslingers.content.tale_schema import TaleEffect
from gamehall.games.grimslingers.state import State
from gamehall.games.grimslingers.tale_content import EVENTS, LANDMARKS, NODES, TALE
from gamehall.games.grimslingers.tale_effects import apply, set_hp, settle_defeats, tale_of
from gamehall.games.grimslingers.tale_state import Activity, Decision, DecisionKind, DuelKind, Step

DONE = 9
"""`Tale.stage` once the node is resolved (defeats are settled, then Movement)."""
PERK_OFFER = 2
"""Signature perk: two signatures are dealt, one is kept (designed)."""


def next_in_queue(s: State) -> None:
    t = tale_of(s)
    t.queue.pop(0)
    t.used, t.moves, t.loot, t.sneaking = 0, 0, [], False
    while t.queue and t.members[t.queue[0]].down:
        t.queue.pop(0)  # a defeated player takes no more actions at this node
    if not t.queue:
        t.activity = Activity.NONE


def open_decision(s: State, kind: DecisionKind, options: list[int], ref: int = -1) -> None:
    """A group decision; the narrator proposes, a role that passes round the table each adventure turn."""
    t = tale_of(s)
    t.decision = Decision(kind, options, proposer=(t.turn - 1) % s.players, ref=ref)


def resolve_node(s: State, events: list[Event], rng: Rng) -> None:
    t = tale_of(s)
    node = NODES[t.node]
    if t.stage == DONE:
        if t.event >= 0:
            t.event_discard.append(t.event)
            t.event = -1
        if settle_defeats(s, events):
            t.step, t.stage = Step.MOVE, 0
        return
    if node.type == "rest":
        _rest(s, events)
    elif node.type == "landmark":
        _landmark(s, events, rng)
    elif node.type == "attack":
        t.stage = DONE
        creature = tale_duel.roll_creature(rng)
        events.append(Event("attack", {"creature": creature}))
        tale_duel.start(s, DuelKind.ATTACK, creature, tale_duel.draw_modifiers(s, rng), events, rng)
    else:
        _event(s, events, rng)


def _everyone(s: State) -> list[int]:
    return [i for i in range(s.players) if not tale_of(s).members[i].down]


def _queue(s: State, activity: Activity) -> None:
    """Individual turns for every standing player, one at a time (none standing: nothing to do)."""
    t = tale_of(s)
    t.queue = _everyone(s)
    t.activity = activity if t.queue else Activity.NONE


def _rest(s: State, events: list[Event]) -> None:
    """R-244: +2 HP and +2 EP for everyone, then each player's camp turn."""
    t = tale_of(s)
    if t.stage == 0:
        for i in range(s.players):
            x = s.seats[i]
            x.hp, x.ep = min(x.max_hp, x.hp + 2), min(x.max_ep, x.ep + 2)
        events.append(Event("rest", {"node": NODES[t.node].key}))
        t.stage = 1
        _queue(s, Activity.CAMP)
        return
    t.stage = DONE


def _landmark(s: State, events: list[Event], rng: Rng) -> None:
    t = tale_of(s)
    lm = LANDMARKS[NODES[t.node].landmark or ""]
    if t.stage == 0:
        events.append(Event("landmark", {"landmark": lm.key, "text": lm.text}))
        t.stage = 1
        if lm.kind == "sneak":
            _queue(s, Activity.SNEAK)
            return
        apply(s, lm.effects, _everyone(s), events, rng)
    elif t.stage == 1:
        t.stage = 2
        _queue(s, Activity.CAMP)  # organize after the landmark
    else:
        t.stage = DONE


def sneak(s: State, seat: int, option: str, events: list[Event], rng: Rng) -> None:
    """R-261: flip number cards one at a time, each resolved; reshuffle before the next player."""
    t = tale_of(s)
    lm = LANDMARKS[NODES[t.node].landmark or ""]
    if option in ("pass", "stop") or not t.numbers:
        _end_sneak(s, events, rng)
        return
    t.sneaking = True
    number = t.numbers.pop()
    t.numbers_seen.append(number)
    outcome = next(o for o in lm.outcomes if number in o.numbers)
    events.append(Event("number", {"seat": seat, "number": number, "text": outcome.text}))
    apply(s, outcome.effects, [seat], events, rng)
    if t.members[seat].down:
        forfeit_loot(s, seat)
        _end_sneak(s, events, rng)
    elif s.seats[seat].hp <= 0:
        return  # its revival offer first; if it stays at 0 HP, tale._mark_fallen forfeits the loot
    elif outcome.stop or not t.numbers:
        _end_sneak(s, events, rng)


def forfeit_loot(s: State, seat: int) -> None:
    """R-264/R-265: no reward for the defeated player's landmark choice."""
    for card in tale_of(s).loot:
        if card in s.seats[seat].hand:
            s.seats[seat].hand.remove(card)
            s.item_discard.append(card)


def _end_sneak(s: State, events: list[Event], rng: Rng) -> None:
    t = tale_of(s)
    if t.numbers_seen:
        t.numbers = rng.shuffled(list(range(1, TALE.numbers + 1)))
        t.numbers_seen = []
        events.append(Event("numbers_reshuffled", {}))
    next_in_queue(s)


def _event(s: State, events: list[Event], rng: Rng) -> None:
    t = tale_of(s)
    if t.stage == 0:
        if not t.event_deck:  # R-243 (AMB-38): an empty deck is rebuilt from the discard
            t.event_deck, t.event_discard = rng.shuffled(t.event_discard), []
        t.event = t.event_deck.pop()
        card = EVENTS[t.event]
        events.append(Event("event", {"event": card.key, "text": card.text}))
        t.stage = 1
        open_decision(s, DecisionKind.EVENT_OPTION, list(range(len(card.options))))
    elif t.stage == 2:
        _behemoth_result(s, events, rng)
        t.stage = DONE
    else:
        t.stage = DONE


def event_option(s: State, option: int, events: list[Event], rng: Rng) -> None:
    t = tale_of(s)
    opt = EVENTS[t.event].options[option]
    events.append(Event("event_option", {"event": EVENTS[t.event].key, "option": opt.key}))
    apply(s, opt.effects, _everyone(s), events, rng)
    if any(e.op == "behemoth" for e in opt.effects):
        t.behemoth, t.stage = 0, 2
        _queue(s, Activity.BEHEMOTH)
    elif any(e.op == "duel" for e in opt.effects):
        t.stage = DONE
        t.event_discard.append(t.event)
        t.event = -1
        creature = tale_duel.roll_creature(rng)
        tale_duel.start(s, DuelKind.EVENT, creature, tale_duel.draw_modifiers(s, rng), events, rng)
    else:
        t.stage = DONE


def _behemoth_result(s: State, events: list[Event], rng: Rng) -> None:
    t = tale_of(s)
    need = TALE.behemoth_per_player * s.players
    blasted = t.behemoth >= need
    events.append(Event("behemoth", {"total": t.behemoth, "needed": need, "blasted": blasted}))
    if blasted:
        apply(s, [TaleEffect("items", 1, "group"), TaleEffect("level", 1)], _everyone(s), events, rng)
    else:
        for i in _everyone(s):
            set_hp(s, i, s.seats[i].hp - TALE.behemoth_hit, events)


def perk(s: State, seat: int, action: Action, events: list[Event], rng: Rng) -> None:
    t = tale_of(s)
    m, x = t.members[seat], s.seats[seat]
    if isinstance(action, Keep):
        kept = cat.ID[action.cards[0]]
        x.offer.remove(kept)
        x.hand.append(kept)
        s.sig_deck = rng.shuffled(s.sig_deck + x.offer)
        x.offer, x.draft_seen = [], []
        events.append(Event("perk", {"seat": seat, "perk": "signature"}))
        m.perks_due.pop(0)
        next_in_queue(s)
        return
    assert isinstance(action, Select)
    if action.option == "signature":
        x.offer = [s.sig_deck.pop() for _ in range(min(PERK_OFFER, len(s.sig_deck)))]
        x.draft_seen = list(x.offer)
        if x.offer:
            return
    elif action.option == "hand":
        m.hand_bonus += 1
    elif action.option == "hp":
        x.max_hp += 1
        x.hp += 1
    elif action.option == "ep":
        x.max_ep += 1
        x.ep += 1
    events.append(Event("perk", {"seat": seat, "perk": action.option}))
    m.perks_due.pop(0)
    next_in_queue(s)
