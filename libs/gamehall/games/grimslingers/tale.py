"""The Tall Tale adventure turn (A16): Narrative -> Node Resolution -> Movement, no backtracking.

Who acts: the group through a decision (a proposal every player accepts, or a roll-off whose
winner decides), or one seat at a time through the activity queue (camp, sneak, Behemoth, perks,
hand overflow). Everything else runs automatically in `advance`. Creature duels leave this phase
and come back through `tale_duel.after`.

Readings where the book is silent: defeats beyond the allowed ones end the campaign (AMB-30);
a Rest gives 2 HP and 2 EP (AMB-31); a node whose only exit is the previous one allows it
(AMB-32); an empty event deck is rebuilt from the discard (AMB-38); the player picks what goes to
the stash (AMB-40); a failed Flee spends the Standoff action (AMB-43); every group decision, not
only item owners, falls to a roll-off when a player rejects the proposal (R-251 generalised);
between duels a player at 0 HP gets the duel's revival offers (Resurrect, Revive Juju, Revenant).
"""

from __future__ import annotations

from gamehall.engine.errors import IllegalAction
from gamehall.engine.protocol import Action, Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers import tale_camp, tale_duel, tale_story
from gamehall.games.grimslingers.actions import (
    Accept,
    Decide,
    Discard,
    Done,
    Keep,
    Propose,
    Reject,
    Select,
    Stash,
)
from gamehall.games.grimslingers.piles import discard_card
from gamehall.games.grimslingers.state import Phase, State
from gamehall.games.grimslingers.tale_content import EVENTS, LANDMARKS, LINKS, NODE_ID, NODES, PERKS, TALE
from gamehall.games.grimslingers.tale_effects import (
    apply,
    end_campaign,
    fall,
    over_limit,
    set_hp,
    settle_defeats,
    tale_of,
)
from gamehall.games.grimslingers.tale_state import Activity, Decision, DecisionKind, DuelKind, Member, Step, Tale

DONE = 9
"""`Tale.stage` once the node is resolved (defeats are settled, then Movement)."""
PERK_OFFER = 2
"""Signature perk: two signatures are dealt, one is kept (designed)."""


def begin(s: State, difficulty: str, rng: Rng) -> None:
    """After the archetype picks: difficulty-adjusted HP/EP (R-059), six elements, no signatures
    or items (R-061), shuffled event and number decks, the piece on the chapter's start node."""
    d = TALE.difficulties[difficulty]
    for i in range(s.players):
        x = s.seats[i]
        x.max_hp = x.hp = max(1, x.max_hp + d.hp_ep_adjust)
        x.max_ep = x.ep = max(1, x.max_ep + d.hp_ep_adjust)
        x.offer, x.draft_seen = [], []
    start = NODE_ID[TALE.chapters[0].start]
    s.tale = Tale(
        difficulty=difficulty,
        chapter=0,
        part=0,
        node=start,
        turn_start=start,
        members=[Member() for _ in range(s.players)],
        defeats_left=d.defeats,
        event_deck=rng.shuffled(list(range(len(EVENTS)))),
        numbers=rng.shuffled(list(range(1, TALE.numbers + 1))),
    )
    s.phase = Phase.ADVENTURE
    s.current = -1


# ------------------------------------------------------------------ who acts, what they may do


def to_act(s: State) -> frozenset[int]:
    over = over_limit(s)
    if over >= 0:
        return frozenset((over,))
    t = tale_of(s)
    d = t.decision
    if d is not None:
        if d.decider >= 0:
            return frozenset((d.decider,))
        if d.proposal < 0:
            return frozenset((d.proposer,))
        return frozenset(i for i in range(s.players) if i != d.proposer and i not in d.accepted)
    if t.activity != Activity.NONE and t.queue:
        return frozenset(t.queue[:1])
    return frozenset()


def legal(s: State, seat: int) -> list[Action]:
    if seat not in to_act(s):
        return []
    x = s.seats[seat]
    if over_limit(s) == seat:
        return [Stash(cat.KEYS[c]) for c in sorted(set(x.hand), key=lambda c: cat.KEYS[c])]
    t = tale_of(s)
    d = t.decision
    if d is not None:
        if d.decider >= 0:
            return [Decide(o) for o in d.options]
        if d.proposal < 0:
            return [Propose(o) for o in d.options]
        return [Accept(), Reject()]
    if t.activity == Activity.CAMP:
        return tale_camp.camp_legal(s, seat)
    if t.activity == Activity.SNEAK:
        return [Select("flip"), Select("stop")] if t.sneaking else [Select("sneak"), Select("pass")]
    if t.activity == Activity.BEHEMOTH:
        return [Done()] + [Discard(cat.KEYS[c]) for c in sorted(set(x.hand), key=lambda c: cat.KEYS[c])]
    if t.activity == Activity.PERK:
        if x.offer:
            return [Keep((cat.KEYS[c],)) for c in sorted(x.offer, key=lambda c: cat.KEYS[c])]
        return [Select(c) for c in PERKS[t.members[seat].perks_due[0]].choices]
    return []


def apply_action(s: State, seat: int, action: Action, events: list[Event], rng: Rng) -> None:
    """Apply one adventure action of `seat` (legality checked here), then the caller advances."""
    if seat not in to_act(s):
        raise IllegalAction("it is not your turn in the adventure")
    if over_limit(s) == seat:
        if not isinstance(action, Stash):
            raise IllegalAction("your hand is over its limit: stash cards first (R-063)")
        tale_camp.apply_organize(s, seat, action, events)
        return
    t = tale_of(s)
    if t.decision is not None:
        _decision(s, seat, action, events, rng)
        return
    if action not in legal(s, seat):
        raise IllegalAction(f"{type(action).__name__} is not allowed now")
    if t.activity == Activity.CAMP:
        if tale_camp.apply_camp(s, seat, action, events, rng):
            _next_in_queue(s)
    elif t.activity == Activity.SNEAK:
        assert isinstance(action, Select)
        _sneak(s, seat, action.option, events, rng)
    elif t.activity == Activity.BEHEMOTH:
        if isinstance(action, Done):
            _next_in_queue(s)
        else:
            assert isinstance(action, Discard)
            card = cat.ID[action.card]
            s.seats[seat].hand.remove(card)
            discard_card(s, seat, card)  # 'deactivate on use' cards are deactivated (R-016, S-44)
            t.behemoth += 1
            events.append(Event("behemoth_blast", {"seat": seat, "card": action.card, "total": t.behemoth}))
    elif t.activity == Activity.PERK:
        _perk(s, seat, action, events, rng)


def _next_in_queue(s: State) -> None:
    t = tale_of(s)
    t.queue.pop(0)
    t.used, t.moves, t.loot, t.sneaking = 0, 0, [], False
    while t.queue and t.members[t.queue[0]].down:
        t.queue.pop(0)  # a defeated player takes no more actions at this node (R-265, R-268)
    if not t.queue:
        t.activity = Activity.NONE


# ------------------------------------------------------------------ group decisions


def _open(s: State, kind: DecisionKind, options: list[int], ref: int = -1) -> None:
    """A group decision; the narrator proposes, a role that passes round the table each adventure turn."""
    t = tale_of(s)
    t.decision = Decision(kind, options, proposer=(t.turn - 1) % s.players, ref=ref)


def _decision(s: State, seat: int, action: Action, events: list[Event], rng: Rng) -> None:
    t = tale_of(s)
    d = t.decision
    assert d is not None
    if isinstance(action, Decide) and d.decider == seat and action.option in d.options:
        _resolve(s, d, action.option, events, rng)
    elif isinstance(action, Propose) and d.decider < 0 and d.proposal < 0 and action.option in d.options:
        events.append(Event("proposal", {"seat": seat, "kind": d.kind.name.lower(), "option": action.option}))
        if s.players == 1:
            _resolve(s, d, action.option, events, rng)
        else:
            d.proposal = action.option
    elif isinstance(action, Accept) and d.proposal >= 0 and d.decider < 0:
        d.accepted.append(seat)
        if len(d.accepted) == s.players - 1:
            _resolve(s, d, d.proposal, events, rng)
    elif isinstance(action, Reject) and d.proposal >= 0 and d.decider < 0:
        d.decider = _roll_off(s, events, rng)
    else:
        raise IllegalAction("answer the group decision (propose, accept, reject or decide)")


def _roll_off(s: State, events: list[Event], rng: Rng) -> int:
    """Everyone rolls a d6, highest wins, ties reroll (R-251)."""
    rolling = list(range(s.players))
    while True:
        rolls = {i: rng.below(6) + 1 for i in rolling}
        events.append(Event("roll_off", {"rolls": rolls}))
        top = max(rolls.values())
        rolling = [i for i, r in rolls.items() if r == top]
        if len(rolling) == 1:
            return rolling[0]


def _resolve(s: State, d: Decision, option: int, events: list[Event], rng: Rng) -> None:
    t = tale_of(s)
    t.decision = None
    if d.kind == DecisionKind.MOVE:
        _move(s, option, events)
    elif d.kind == DecisionKind.ITEM_OWNER:
        card = t.award.pop(0)
        s.seats[option].hand.append(card)
        events.append(Event("item", {"seat": option, "card": cat.KEYS[card]}))
    else:
        _event_option(s, option, events, rng)


# ------------------------------------------------------------------ the automatic flow


def advance(s: State, events: list[Event], rng: Rng) -> None:
    """Run the adventure until a seat must act, a duel starts, or the campaign ends."""
    while s.phase == Phase.ADVENTURE:
        t = tale_of(s)
        if s.picking is not None or s.prompts:
            return
        _mark_fallen(s, events)
        if t.decision is not None or t.activity != Activity.NONE or over_limit(s) >= 0:
            return
        if t.step == Step.DUEL:
            tale_duel.after(s, events, rng)
            continue
        if t.award:
            if s.players == 1:
                _resolve(s, Decision(DecisionKind.ITEM_OWNER, [0], 0), 0, events, rng)
            else:
                _open(s, DecisionKind.ITEM_OWNER, list(range(s.players)))
            continue
        if _queue_perks(s, rng):
            continue
        if t.step == Step.NARRATIVE:
            _narrative(s, events, rng)
        elif t.step == Step.NODE:
            _node(s, events, rng)
        elif t.step == Step.MOVE:
            options = [j for j in LINKS[t.node] if j != t.last_start] or list(LINKS[t.node])  # AMB-32
            _open(s, DecisionKind.MOVE, options)
        else:
            return


def _mark_fallen(s: State, events: list[Event]) -> None:
    """Players left at 0 HP once their revival offers are answered are down: they take no more
    actions at this node (R-265, R-268) and wait for the defeat count."""
    t = tale_of(s)
    for i in range(s.players):
        if s.seats[i].hp <= 0 and not t.members[i].down:
            fall(s, i, events)
            if t.queue and t.queue[0] == i:
                _next_in_queue(s)
            elif i in t.queue:
                t.queue.remove(i)


def _queue_perks(s: State, rng: Rng) -> bool:
    t = tale_of(s)
    for i, m in enumerate(t.members):
        if m.perks_due:
            t.activity, t.queue = Activity.PERK, [i]
            return True
    return False


def _narrative(s: State, events: list[Event], rng: Rng) -> None:
    t = tale_of(s)
    t.step, t.stage = Step.NODE, 0
    creature = tale_story.narrative(s, events, rng)
    if s.phase != Phase.ADVENTURE or creature is None:
        return
    part = tale_story.chapter(s).parts[t.duel_part]
    duel = next(e for e in part.actions if e.op == "duel")
    mods = [next(k for k, m in enumerate(cat.MODIFIERS) if m.key == key) for key in duel.modifiers]
    tale_duel.start(s, DuelKind.STORY, creature, mods, events, rng)


def _node(s: State, events: list[Event], rng: Rng) -> None:
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
        _queue(s, Activity.CAMP)  # R-241: organize after the landmark
    else:
        t.stage = DONE


def _sneak(s: State, seat: int, option: str, events: list[Event], rng: Rng) -> None:
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
        for card in t.loot:  # R-264/R-265: no reward for the defeated player's landmark choice
            if card in s.seats[seat].hand:
                s.seats[seat].hand.remove(card)
                s.item_discard.append(card)
        _end_sneak(s, events, rng)
    elif outcome.stop or not t.numbers:
        _end_sneak(s, events, rng)


def _end_sneak(s: State, events: list[Event], rng: Rng) -> None:
    t = tale_of(s)
    if t.numbers_seen:
        t.numbers = rng.shuffled(list(range(1, TALE.numbers + 1)))
        t.numbers_seen = []
        events.append(Event("numbers_reshuffled", {}))
    _next_in_queue(s)


def _event(s: State, events: list[Event], rng: Rng) -> None:
    t = tale_of(s)
    if t.stage == 0:
        if not t.event_deck:  # R-243 (AMB-38): an empty deck is rebuilt from the discard
            t.event_deck, t.event_discard = rng.shuffled(t.event_discard), []
        t.event = t.event_deck.pop()
        card = EVENTS[t.event]
        events.append(Event("event", {"event": card.key, "text": card.text}))
        t.stage = 1
        _open(s, DecisionKind.EVENT_OPTION, list(range(len(card.options))))
    elif t.stage == 2:
        _behemoth_result(s, events, rng)
        t.stage = DONE
    else:
        t.stage = DONE


def _event_option(s: State, option: int, events: list[Event], rng: Rng) -> None:
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
        from gamehall.games.grimslingers.content.tale_schema import TaleEffect

        apply(s, [TaleEffect("items", 1, "group"), TaleEffect("level", 1)], _everyone(s), events, rng)
    else:
        for i in _everyone(s):
            set_hp(s, i, s.seats[i].hp - TALE.behemoth_hit, events)


def _perk(s: State, seat: int, action: Action, events: list[Event], rng: Rng) -> None:
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
        _next_in_queue(s)
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
    _next_in_queue(s)


def _move(s: State, node: int, events: list[Event]) -> None:
    """R-238: to a linked node, never the one the previous turn started on; a new turn starts."""
    t = tale_of(s)
    t.last_start = t.turn_start
    t.node = t.turn_start = node
    t.turn += 1
    events.append(Event("move", {"node": NODES[node].key, "turn": t.turn}))
    if t.turn > tale_story.chapter(s).turn_limit:
        end_campaign(s, False, "the trail ran cold (turn limit)")
        return
    t.step, t.stage = Step.NARRATIVE, 0
