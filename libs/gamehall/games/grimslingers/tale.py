"""The Tall Tale adventure turn (A16): Narrative -> Node Resolution -> Movement, no backtracking.

Who acts: the group through a decision (a proposal every player accepts, or a roll-off whose
winner decides), one seat at a time through the activity queue (camp, sneak, Behemoth, perks), or
whoever is over the hand limit. Everything else runs automatically in `advance`; the nodes
themselves resolve in `tale_nodes`. Creature duels leave this phase and come back through
`tale_duel.after`.

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
from gamehall.games.grimslingers import tale_camp, tale_duel, tale_nodes, tale_story
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
from gamehall.games.grimslingers.tale_content import DIFFICULTIES, EVENTS, LINKS, NODE_ID, NODES, PERKS, TALE
from gamehall.games.grimslingers.tale_effects import (
    end_campaign,
    fall,
    over_limit,
    tale_of,
)
from gamehall.games.grimslingers.tale_nodes import (
    event_option,
    next_in_queue,
    open_decision,
    perk,
    resolve_node,
    sneak,
)
from gamehall.games.grimslingers.tale_state import Activity, Decision, DecisionKind, DuelKind, Member, Step, Tale


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
        return tale_camp.overflow_legal(s, seat)
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
            next_in_queue(s)
    elif t.activity == Activity.SNEAK:
        assert isinstance(action, Select)
        sneak(s, seat, action.option, events, rng)
    elif t.activity == Activity.BEHEMOTH:
        if isinstance(action, Done):
            next_in_queue(s)
        else:
            assert isinstance(action, Discard)
            card = cat.ID[action.card]
            s.seats[seat].hand.remove(card)
            discard_card(s, seat, card)  # 'deactivate on use' cards are deactivated (R-016, S-44)
            t.behemoth += 1
            events.append(Event("behemoth_blast", {"seat": seat, "card": action.card, "total": t.behemoth}))
    elif t.activity == Activity.PERK:
        perk(s, seat, action, events, rng)


# ------------------------------------------------------------------ group decisions


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
    elif d.kind == DecisionKind.DIFFICULTY:
        tale_story.change_difficulty(s, DIFFICULTIES[option], events)
    elif d.kind == DecisionKind.ITEM_OWNER:
        card = t.award.pop(0)
        s.seats[option].hand.append(card)
        events.append(Event("item", {"seat": option, "card": cat.KEYS[card]}))
    else:
        event_option(s, option, events, rng)


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
                open_decision(s, DecisionKind.ITEM_OWNER, list(range(s.players)))
            continue
        if _queue_perks(s, rng):
            continue
        if t.step == Step.NARRATIVE:
            _narrative(s, events, rng)
        elif t.step == Step.NODE:
            resolve_node(s, events, rng)
        elif t.step == Step.MOVE:
            options = [j for j in LINKS[t.node] if j != t.last_start] or list(LINKS[t.node])  # AMB-32
            open_decision(s, DecisionKind.MOVE, options)
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
                if t.activity == Activity.SNEAK:
                    tale_nodes.forfeit_loot(s, i)
                next_in_queue(s)
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
