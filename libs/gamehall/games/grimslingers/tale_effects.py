"""Adventure effects of the Tall Tale: HP/EP, items (random and named, R-249..R-252), levels and
perks (R-255), defeats outside and after duels and their count against the allowed defeats (A16.8).
"""

from __future__ import annotations

from gamehall.engine.protocol import Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.content.tale_schema import Difficulty, TaleEffect
from gamehall.games.grimslingers.revival import offer_immediate
from gamehall.games.grimslingers.state import Phase, State
from gamehall.games.grimslingers.tale_content import PERKS, SUPPLIES, TALE, copies_of
from gamehall.games.grimslingers.tale_state import Step, Tale


def tale_of(s: State) -> Tale:
    assert s.tale is not None
    return s.tale


def setting(s: State) -> Difficulty:
    return TALE.difficulties[tale_of(s).difficulty]


def hand_limit(s: State, seat: int) -> int:
    """R-062: the difficulty's starting hand size, raised by hand perks."""
    return setting(s).hand + tale_of(s).members[seat].hand_bonus


def over_limit(s: State) -> int:
    """R-063: the first player whose hand is over its limit, who must stash the excess at once
    (choosing which cards, AMB-40); -1 when every hand is within its limit.

    At all times (item 2 of issue 40), in duels too. Reading of "immediately": as soon as the
    action that overfilled the hand is complete, i.e. after the picks of a Reload (or another
    picking) and after any prompt being answered, before anything else happens (the Aftermath
    stops resolving until the excess is stashed)."""
    if s.tale is None or s.phase in (Phase.ARCHETYPE, Phase.DRAFT, Phase.OVER):
        return -1
    for i in range(s.players):
        if len(s.seats[i].hand) > hand_limit(s, i):
            return i
    return -1


def owned(s: State) -> set[int]:
    """Items some player holds (hand, piles, stash) or that wait for an owner."""
    out: set[int] = set(tale_of(s).award)
    for i in range(s.players):
        x = s.seats[i]
        out.update(x.hand + x.discard + x.deact + tale_of(s).members[i].stash)
    return out


def draw_random(s: State, rng: Rng) -> int:
    """The top item; the discard is reshuffled only when the deck runs out (R-252). -1: none left."""
    if not s.item_deck and s.item_discard:
        s.item_deck = rng.shuffled(s.item_discard)
        s.item_discard = []
    return s.item_deck.pop() if s.item_deck else -1


def take_named(s: State, key: str, rng: Rng) -> int:
    """R-250: search the deck (then shuffle it), else take it from the discard; a copy owned by a
    player is never taken (nothing is drawn when every copy is owned). -1: nothing."""
    copies = copies_of(key)
    for c in copies:
        if c in s.item_deck:
            s.item_deck.remove(c)
            s.item_deck = rng.shuffled(s.item_deck)
            return c
    for c in copies:
        if c in s.item_discard:
            s.item_discard.remove(c)
            return c
    return -1


def set_hp(s: State, seat: int, hp: int, events: list[Event]) -> None:
    """Change a player's HP outside a duel. At 0 the player may restore it at once (Resurrect,
    Revive Juju, the Revenant ability: the duel's revival offers, as prompts); a player left at 0
    is down until the defeat count (A16.8). A Revive Juju revival is not a defeat (R-271)."""
    x = s.seats[seat]
    x.hp = max(0, min(x.max_hp, hp))
    if x.hp > 0:
        return
    before = len(s.prompts)
    offer_immediate(s, seat)
    if len(s.prompts) == before:
        fall(s, seat, events)


def fall(s: State, seat: int, events: list[Event]) -> None:
    """The player stays at 0 HP: down (no more actions at this node) until the defeats are counted."""
    m = tale_of(s).members[seat]
    if not m.down:
        m.down = True
        events.append(Event("down", {"seat": seat}))


def apply(s: State, effects: list[TaleEffect], seats: list[int], events: list[Event], rng: Rng) -> None:
    """Apply adventure effects to `seats` (each player, or the one acting); group items wait in
    `Tale.award` for the group to give them out. Duel and Behemoth effects are run by the caller."""
    t = tale_of(s)
    for e in effects:
        if e.op == "hp":
            for i in seats:
                if not t.members[i].down:
                    set_hp(s, i, s.seats[i].hp + e.n, events)
        elif e.op == "ep":
            for i in seats:
                x = s.seats[i]
                x.ep = max(0, min(x.max_ep, x.ep + e.n))
        elif e.op == "level":
            for i in seats:
                gain_level(s, i, e.n, events)
        elif e.op in ("items", "named_item"):
            for i in [-1] if e.who == "group" else seats:
                for _ in range(max(1, e.n) if e.op == "items" else 1):
                    card = draw_random(s, rng) if e.op == "items" else take_named(s, e.name or "", rng)
                    if card < 0:
                        events.append(Event("no_item", {"item": e.name}))
                        continue
                    _receive(s, i, card, events)
        elif e.op == "supplies":
            for i in seats:
                for k in range(e.n):
                    card = -1
                    for key in SUPPLIES[k % len(SUPPLIES) :] + SUPPLIES[: k % len(SUPPLIES)]:
                        card = take_named(s, key, rng)
                        if card >= 0:
                            break
                    if card >= 0:
                        _receive(s, i, card, events)


def _receive(s: State, seat: int, card: int, events: list[Event]) -> None:
    t = tale_of(s)
    if seat < 0:
        t.award.append(card)
        events.append(Event("group_item", {"card": cat.KEYS[card]}))
        return
    s.seats[seat].hand.append(card)
    if t.activity and t.queue and t.queue[0] == seat:
        t.loot.append(card)
    events.append(Event("item", {"seat": seat, "card": cat.KEYS[card]}))


def gain_level(s: State, seat: int, n: int, events: list[Event]) -> None:
    """Levels are never lost (R-256); crossing a level of the perk schedule queues its perk."""
    m = tale_of(s).members[seat]
    for _ in range(n):
        m.level += 1
        if m.level in PERKS:
            m.perks_due.append(m.level)
    events.append(Event("level", {"seat": seat, "level": m.level}))


def settle_defeats(s: State, events: list[Event]) -> bool:
    """Count every player who is down and not yet counted against the shared allowed defeats
    (R-260); the campaign is lost when they exceed what is left (AMB-30 default). Otherwise the
    defeated revive to the difficulty's values, never above their maximum (R-272). False: lost."""
    t = tale_of(s)
    fresh = [i for i, m in enumerate(t.members) if m.down and not m.counted]
    if fresh and len(fresh) > t.defeats_left:
        events.append(Event("defeats_exhausted", {"defeated": fresh, "left": t.defeats_left}))
        end_campaign(s, False, "allowed defeats used up")
        return False
    t.defeats_left -= len(fresh)
    for i in fresh:
        t.members[i].counted = True
    for i, m in enumerate(t.members):
        if m.down:
            revive(s, i)
    if fresh:
        events.append(Event("defeats", {"seats": fresh, "left": t.defeats_left}))
    return True


def revive(s: State, seat: int) -> None:
    x, d = s.seats[seat], setting(s)
    x.hp = min(max(1, d.revive_hp), x.max_hp)
    x.ep = min(d.revive_ep, x.max_ep)
    x.alive = True
    x.out_step = -1
    m = tale_of(s).members[seat]
    m.down = m.counted = False


def end_campaign(s: State, won: bool, reason: str) -> None:
    """The campaign ends: every player shares the result (co-op)."""
    t = tale_of(s)
    t.step = Step.OVER
    t.result = "victory" if won else "defeat"
    t.decision = None
    t.queue = []
    s.phase = Phase.OVER
    s.prompts = []
    s.picking = None
    s.ranks = [1 if won else 2] * s.players
    s.reason = reason
