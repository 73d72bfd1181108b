"""Hand, stash and items between and inside Tall Tale duels: the camp turn at a Rest node (R-244)
or after a Landmark (R-241), the Organize and Trade Standoff actions, hand-limit overflow (R-063)
and the Treasure Map / Hex Fragment trade-in (S-26).
"""

from __future__ import annotations

from gamehall.engine.errors import IllegalAction
from gamehall.engine.protocol import Action, Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import (
    Done,
    Give,
    Purge,
    Reactivate,
    Reload,
    Stash,
    StopPicking,
    TradeIn,
    Unstash,
    UseCard,
)
from gamehall.games.grimslingers.state import Phase, Picking, PickKind, State
from gamehall.games.grimslingers.tale_content import CRAFTED, NODES, TRADE_INS, copies_of
from gamehall.games.grimslingers.tale_effects import draw_random, fall, hand_limit, take_named, tale_of

REFRESH_COST = 3
RELOAD_TAKE, PURGE_MAX, REACTIVATE_TAKE = 4, 2, 5
"""Rest refresh: Reload (3 EP, up to 4 spells), Purge (up to 2), Reactivate (3 EP, up to 5: core)."""
USED_REFRESH, USED_ITEM = 1, 2
MAX_MOVES = 12
"""Organize / give moves per camp turn or Standoff action (designed bound: every turn ends)."""
TRADE_IN_COUNT = 3


def _unique(cards: list[int]) -> list[int]:
    return sorted(set(cards), key=lambda c: cat.KEYS[c])


def _spells(cards: list[int]) -> list[int]:
    return [c for c in cards if cat.IS_SPELL[c]]


def organize_moves(s: State, seat: int, *, give: bool) -> list[Action]:
    """Stash / unstash (within the hand limit) and, when `give`, item gifts to teammates."""
    x, m = s.seats[seat], tale_of(s).members[seat]
    out: list[Action] = [Stash(cat.KEYS[c]) for c in _unique(x.hand)]
    if len(x.hand) < hand_limit(s, seat):
        out += [Unstash(cat.KEYS[c]) for c in _unique(m.stash)]
    if give:
        mates = [i for i in range(s.players) if i != seat and s.seats[i].alive]
        out += [Give(cat.KEYS[c], i) for c in _unique(x.hand) if cat.IS_ITEM[c] for i in mates]
    return out


def overflow_legal(s: State, seat: int) -> list[Action]:
    """A hand over its limit (R-063): the seat stashes cards of its choice, one at a time (AMB-40)."""
    return [Stash(cat.KEYS[c]) for c in _unique(s.seats[seat].hand)]


def apply_organize(s: State, seat: int, action: Action, events: list[Event]) -> None:
    x, m = s.seats[seat], tale_of(s).members[seat]
    if isinstance(action, Stash):
        card = _held(x.hand, action.card)
        x.hand.remove(card)
        m.stash.append(card)
        events.append(Event("stashed", {"seat": seat, "card": action.card}))
    elif isinstance(action, Unstash):
        card = _held(m.stash, action.card)
        if len(x.hand) >= hand_limit(s, seat):
            raise IllegalAction("your hand is at its limit")
        m.stash.remove(card)
        x.hand.append(card)
        events.append(Event("unstashed", {"seat": seat, "card": action.card}))
    elif isinstance(action, Give):
        card = _held(x.hand, action.card)
        if not cat.IS_ITEM[card] or action.seat == seat or not 0 <= action.seat < s.players:
            raise IllegalAction("give an item card to a teammate")
        x.hand.remove(card)
        s.seats[action.seat].hand.append(card)
        events.append(Event("gave", {"seat": seat, "to": action.seat, "card": action.card}))
    else:
        raise IllegalAction(f"{type(action).__name__} is not an organize move")


def _held(pile: list[int], key: str) -> int:
    card = cat.ID.get(key, -1)
    if card not in pile:
        raise IllegalAction(f"{key} is not there")
    return card


# ------------------------------------------------------------------ trade-in (S-26)


def may_trade_in(s: State, seat: int) -> bool:
    """S-26: pieces may be traded in "at any time, except while resolving a story action".

    Reading (item 3 of issue 40): at every point where the seat is asked to act in the Tall Tale
    (camp, group decisions, a duel's Standoff or Draw), as a free action that uses no Standoff
    action; not while a story part's actions resolve (the Narrative step and a story duel, which
    is such an action), nor in the middle of something else (a prompt, a picking, an excess to
    stash first)."""
    from gamehall.games.grimslingers.tale_effects import over_limit
    from gamehall.games.grimslingers.tale_state import DuelKind, Step

    t = s.tale
    if t is None or s.phase in (Phase.ARCHETYPE, Phase.DRAFT, Phase.OVER) or s.prompts or s.picking is not None:
        return False
    if t.step == Step.NARRATIVE or (t.step == Step.DUEL and t.duel == DuelKind.STORY):
        return False
    return over_limit(s) < 0 and seat < s.players


def trade_ins(s: State, seat: int) -> list[Action]:
    """Three pieces of one kind, from hand or stash, may be traded in (never mid story action)."""
    x, m = s.seats[seat], tale_of(s).members[seat]
    out: list[Action] = []
    for key, what in TRADE_INS.items():
        held = [c for c in x.hand + m.stash if c in copies_of(key)]
        if len(held) < TRADE_IN_COUNT:
            continue
        if what == "crafted":
            available = [k for k in CRAFTED if any(c in s.item_deck + s.item_discard for c in copies_of(k))]
            out += [TradeIn(key, k) for k in available]
        else:
            out.append(TradeIn(key))
    return out


def apply_trade_in(s: State, seat: int, action: TradeIn, events: list[Event], rng: Rng) -> None:
    if action not in trade_ins(s, seat):
        raise IllegalAction("you need three of a kind to trade in")
    x, m = s.seats[seat], tale_of(s).members[seat]
    pieces = [c for c in x.hand + m.stash if c in copies_of(action.item)][:TRADE_IN_COUNT]
    for c in pieces:
        (x.hand if c in x.hand else m.stash).remove(c)
    gained: list[int] = []
    what = TRADE_INS[action.item]
    if what == "crafted":
        gained.append(take_named(s, action.craft or "", rng))
    else:
        gained += [draw_random(s, rng) for _ in range(int(what.split(":")[1]))]
    s.item_discard.extend(pieces)  # after the draw: the pieces never come straight back
    x.hand.extend(c for c in gained if c >= 0)
    events.append(
        Event("trade_in", {"seat": seat, "item": action.item, "gained": [cat.KEYS[c] for c in gained if c >= 0]})
    )


# ------------------------------------------------------------------ the camp turn


def camp_legal(s: State, seat: int) -> list[Action]:
    t = tale_of(s)
    x = s.seats[seat]
    rest = NODES[t.node].type == "rest"
    out: list[Action] = [Done()]
    if t.moves < MAX_MOVES:
        out += organize_moves(s, seat, give=rest and s.players > 1)
    out += trade_ins(s, seat)
    if rest and not t.used & USED_REFRESH:
        if x.ep >= REFRESH_COST and _spells(x.discard):
            out.append(Reload())
        if _spells(x.hand):
            out.append(Purge())
        if x.ep >= REFRESH_COST and x.deact:
            out.append(Reactivate())
    if rest and not t.used & USED_ITEM:
        items = [c for c in _unique(x.hand) if cat.IS_ITEM[c] and cat.IS_STANDOFF_CARD[c] and x.ep >= cat.COST[c]]
        out += [UseCard(cat.KEYS[c]) for c in items]  # one Standoff-type item (R-244 d)
    return out


def apply_camp(s: State, seat: int, action: Action, events: list[Event], rng: Rng) -> bool:
    """One camp action; True when the seat's camp turn is over."""
    from gamehall.games.grimslingers.standoff import _use_card  # the Standoff item machinery

    t = tale_of(s)
    if action not in camp_legal(s, seat):
        raise IllegalAction("not allowed in camp now")
    x = s.seats[seat]
    if isinstance(action, Done):
        return True
    if isinstance(action, (Stash, Unstash, Give)):
        apply_organize(s, seat, action, events)
        t.moves += 1
    elif isinstance(action, TradeIn):
        apply_trade_in(s, seat, action, events, rng)
    elif isinstance(action, (Reload, Purge, Reactivate)):
        t.used |= USED_REFRESH
        if isinstance(action, Reload):
            x.ep -= REFRESH_COST
            s.picking = Picking(seat, PickKind.RELOAD, RELOAD_TAKE, 1)
        elif isinstance(action, Purge):
            s.picking = Picking(seat, PickKind.PURGE, PURGE_MAX, 1)
        else:
            x.ep -= REFRESH_COST
            s.picking = Picking(seat, PickKind.REACTIVATE, REACTIVATE_TAKE, 1)
        events.append(Event("rest_refresh", {"seat": seat, "ability": type(action).__name__.lower()}))
    elif isinstance(action, UseCard):
        t.used |= USED_ITEM
        _use_card(s, seat, cat.ID[action.card], events, rng)
        if x.hp <= 0 and not s.prompts:
            fall(s, seat, events)  # defeated at the Rest by an item that costs HP
            return True
    return False


# ------------------------------------------------------------------ Organize and Trade in a duel


def picking_legal(s: State) -> list[Action]:
    pk = s.picking
    assert pk is not None
    out: list[Action] = [StopPicking()]
    if pk.left <= 0:
        return out
    moves = organize_moves(s, pk.seat, give=pk.kind == PickKind.TRADE)
    if pk.kind == PickKind.TRADE:
        return out + [a for a in moves if isinstance(a, Give)]
    return out + [a for a in moves if not isinstance(a, Give)]


def apply_picking(s: State, action: Action, events: list[Event]) -> None:
    from gamehall.games.grimslingers.standoff import close_picking

    pk = s.picking
    assert pk is not None
    if isinstance(action, StopPicking):
        close_picking(s)
        return
    if action not in picking_legal(s):
        raise IllegalAction("not a move of this Organize / Trade action")
    apply_organize(s, pk.seat, action, events)
    pk.left -= 1
    pk.taken += 1


def in_duel(s: State) -> bool:
    return s.phase not in (Phase.ADVENTURE, Phase.OVER)
