"""The Standoff phase: one action per seat (Advanced Duels: two, one Anima ability), FP first.

Multi-card choices (Reload, Purge, Surge, Reactivate, Recall) open a `Picking`: the seat picks
cards one at a time, then stops, which keeps every action list short.
"""

from __future__ import annotations

from gamehall.engine.errors import IllegalAction
from gamehall.engine.protocol import Action, Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers import creatures, tale_duel
from gamehall.games.grimslingers.actions import (
    EndStandoff,
    Flee,
    Organize,
    Pick,
    Purge,
    Reactivate,
    Reload,
    Sacrifice,
    Scavenge,
    SpellFlare,
    StopPicking,
    Surge,
    Trade,
    UseCard,
)
from gamehall.games.grimslingers.effects import Cast, apply_atoms, compute
from gamehall.games.grimslingers.items import scavenge
from gamehall.games.grimslingers.piles import (
    deactivate_card,
    discard_card,
    finish_card,
    reveal_signature,
    to_hand_in_public,
)
from gamehall.games.grimslingers.revival import offer_immediate
from gamehall.games.grimslingers.state import Phase, Picking, PickKind, StandoffUse, State
from gamehall.games.grimslingers.table import player_order, uses_target_cards
from gamehall.games.grimslingers.tale_camp import MAX_MOVES

RELOAD_COST, RELOAD_TAKE = 3, 4
PURGE_MAX = 2
SURGE_CARDS = 3
REACTIVATE_COST = 3


_TALE_USE = {Flee: StandoffUse.FLEE, Organize: StandoffUse.ORGANIZE, Trade: StandoffUse.TRADE}


def max_actions(s: State) -> int:
    return 2 if s.advanced else 1


def reactivate_take(s: State) -> int:
    return 6 if s.advanced else 5


def open_standoff(s: State, events: list[Event], rng: Rng) -> None:
    """Start of the Standoff: Scourge bites (HP loss), the creature's automatic step (creature
    duels, R-087), then the first player acts."""
    s.standoff_open = True
    if s.tale is not None and not tale_duel.revive_fallen(s, events):
        return  # a co-op player fell and no allowed defeat was left
    for x in s.seats:
        x.dealt = [0] * s.n
    if s.scourge_on >= 0:
        victim = s.seats[s.scourge_on]
        before = victim.hp
        victim.hp = max(0, victim.hp - s.scourge_loss)
        events.append(Event("scourge", {"seat": s.scourge_on, "lost": before - victim.hp}))
        if before > 0 and victim.hp == 0:
            offer_immediate(s, s.scourge_on)
    if s.creature >= 0:
        creatures.standoff(s, events, rng)
    order = player_order(s)
    if players_choose_order(s):
        s.order, s.current = order, -1  # any of them may go first
    else:
        s.current = order[0] if order else -1
    if not order:
        s.phase = Phase.FIRE


def players_choose_order(s: State) -> bool:
    """Creature duels (standalone, Witch King, Tall Tale): after the creature's step the players
    choose their own Standoff order (R-087). Reading: whoever acts first takes their whole Standoff
    (all of their actions) before another player starts, as in AD versus (R-085, AMB-09); the seats
    still to go wait in `State.order`, and every one of them may start (`to_act` lists them all).
    Versus duels keep the book's FP-then-clockwise order (R-078)."""
    return s.creature >= 0


def waiting(s: State) -> frozenset[int]:
    """Who may act in the Standoff now: the seat in the middle of its actions, or else (creature
    duels) every living player who has not taken their Standoff yet."""
    if s.current >= 0:
        return frozenset((s.current,))
    if players_choose_order(s):
        return frozenset(i for i in s.order if s.seats[i].alive)
    return frozenset()


def end_turn_of(s: State) -> None:
    """The current seat is done with the Standoff: next seat clockwise (creature duels: the
    players still to go choose who is next), or on to the Draw phase."""
    if players_choose_order(s):
        s.current = -1
        s.order = [i for i in s.order if s.seats[i].alive]
        if not s.order:
            _to_draw(s)
        return
    order = player_order(s)
    idx = order.index(s.current) if s.current in order else len(order)
    if idx + 1 < len(order):
        s.current = order[idx + 1]
    else:
        _to_draw(s)


def _to_draw(s: State) -> None:
    s.current = -1
    s.phase = Phase.AIM if uses_target_cards(s) else Phase.FIRE
    if s.tale is not None and tale_duel.everyone_fled(s):
        tale_duel.finish(s, tale_duel.FLED)  # S-54: the duel ends, no items or levels


def _spells(cards: list[int]) -> list[int]:
    return [c for c in cards if cat.IS_SPELL[c]]


def _allowed(s: State, seat: int, kind: StandoffUse) -> bool:
    x = s.seats[seat]
    if kind & StandoffUse.ANIMA_FLIP and x.anima:
        return False
    return not (s.advanced and not s.flags.ad_repeat_actions and x.standoff_used & kind)


def legal(s: State, seat: int) -> list[Action]:
    x = s.seats[seat]
    out: list[Action] = [EndStandoff()]
    top = x.hp if s.flags.sacrifice_to_zero else x.hp - 1
    if _allowed(s, seat, StandoffUse.SACRIFICE):
        out += [Sacrifice(k) for k in range(1, top + 1)]
    if _allowed(s, seat, StandoffUse.RELOAD) and x.ep >= RELOAD_COST and _spells(x.discard):
        out.append(Reload())
    if _allowed(s, seat, StandoffUse.PURGE) and _spells(x.hand):
        out.append(Purge())
    if _allowed(s, seat, StandoffUse.SURGE) and len(_spells(x.hand)) >= SURGE_CARDS:
        out.append(Surge())
    if _allowed(s, seat, StandoffUse.REACTIVATE) and x.ep >= REACTIVATE_COST and x.deact:
        out.append(Reactivate())
    if s.items and _allowed(s, seat, StandoffUse.SCAVENGE):
        out += [Scavenge(i) for i, c in enumerate(s.field) if c >= 0 and cat.scavenge_cost(c) <= x.ep]
    if _allowed(s, seat, StandoffUse.CARD):
        for c in x.hand:
            if cat.IS_STANDOFF_CARD[c] and x.ep >= cat.COST[c]:
                out.append(UseCard(cat.KEYS[c]))
    if (
        x.archetype == cat.WITCHBORN
        and not x.flare
        and _allowed(s, seat, StandoffUse.FLARE)
        and x.ep >= cat.ARCHETYPES[cat.WITCHBORN].ability_cost
    ):
        out.append(SpellFlare())
    if s.tale is not None:
        out += [a for a in tale_duel.standoff_extras(s, seat) if _allowed(s, seat, _TALE_USE[type(a)])]
    return out


def legal_picks(s: State) -> list[Action]:
    pk = s.picking
    assert pk is not None
    out: list[Action] = [StopPicking()] if pk.taken >= pk.minimum else []
    return out + [Pick(cat.KEYS[c]) for c in _pick_source(s, pk)]


def _pick_source(s: State, pk: Picking) -> list[int]:
    x = s.seats[pk.seat]
    if pk.kind in (PickKind.RELOAD, PickKind.RECALL):
        return sorted(set(_spells(x.discard)))
    if pk.kind in (PickKind.PURGE, PickKind.SURGE):
        return sorted(set(_spells(x.hand)))
    return sorted(set(x.deact))


def apply(s: State, seat: int, action: Action, events: list[Event], rng: Rng) -> None:
    x = s.seats[seat]
    kind = StandoffUse.NONE
    if s.current < 0 and seat in s.order:
        s.current = seat  # this player goes next: the Standoff is theirs until they finish
        s.order.remove(seat)
    if isinstance(action, EndStandoff):
        end_turn_of(s)
        return
    if isinstance(action, Sacrifice):
        kind = StandoffUse.SACRIFICE
        x.hp -= action.hp
        x.ep = min(x.max_ep, x.ep + action.hp)
        events.append(Event("sacrifice", {"seat": seat, "hp": action.hp}))
        if x.hp == 0:
            offer_immediate(s, seat)
    elif isinstance(action, Reload):
        kind = StandoffUse.RELOAD
        x.ep -= RELOAD_COST
        s.picking = Picking(seat, PickKind.RELOAD, RELOAD_TAKE, 1)
    elif isinstance(action, Purge):
        kind = StandoffUse.PURGE
        s.picking = Picking(seat, PickKind.PURGE, PURGE_MAX, 1)
    elif isinstance(action, Surge):
        kind = StandoffUse.SURGE
        s.picking = Picking(seat, PickKind.SURGE, SURGE_CARDS, SURGE_CARDS)
        x.surged = True
    elif isinstance(action, Reactivate):
        kind = StandoffUse.REACTIVATE
        x.ep -= REACTIVATE_COST
        take = reactivate_take(s)
        minimum = 1 if s.flags.reactivate_up_to else min(take, len(x.deact))
        s.picking = Picking(seat, PickKind.REACTIVATE, take, minimum)
    elif isinstance(action, Scavenge):
        kind = StandoffUse.SCAVENGE
        scavenge(s, seat, action.slot, events, rng)
    elif isinstance(action, UseCard):
        kind = StandoffUse.CARD
        _use_card(s, seat, cat.ID[action.card], events, rng)
    elif isinstance(action, SpellFlare):
        kind = StandoffUse.FLARE
        x.ep -= cat.ARCHETYPES[cat.WITCHBORN].ability_cost
        x.flare = True
        events.append(Event("spell_flare", {"seat": seat}))
    elif isinstance(action, (Flee, Organize, Trade)) and s.tale is not None:
        if action not in tale_duel.standoff_extras(s, seat):
            raise IllegalAction(f"{type(action).__name__} is not allowed now")
        kind = _TALE_USE[type(action)]
        if isinstance(action, Flee):
            s.tale.fled.append(seat)
            events.append(Event("flee", {"seat": seat}))
        else:
            pick = PickKind.ORGANIZE if isinstance(action, Organize) else PickKind.TRADE
            s.picking = Picking(seat, pick, MAX_MOVES, 0)
    else:
        raise IllegalAction(f"{type(action).__name__} is not a Standoff action")
    if kind & StandoffUse.ANIMA_FLIP:
        x.anima = True
    x.standoff_used |= kind
    x.acted += 1
    if s.picking is None:
        _maybe_done(s, seat)


def _maybe_done(s: State, seat: int) -> None:
    if s.current == seat and s.seats[seat].acted >= max_actions(s):
        end_turn_of(s)


def _use_card(s: State, seat: int, card: int, events: list[Event], rng: Rng) -> None:
    """Play and resolve a Standoff-type card now (its EP cost first)."""
    x = s.seats[seat]
    x.hand.remove(card)
    x.ep -= cat.COST[card]
    reveal_signature(s, seat, card)
    events.append(Event("standoff_card", {"seat": seat, "card": cat.KEYS[card]}))
    atoms = compute(s, Cast(seat, [seat]), cat.CARDS[card].effects, rng)
    zeroed = apply_atoms(s, seat, atoms, rng, netting=s.flags.fx_netting, action_card=True)
    for z in zeroed:
        offer_immediate(s, z)
    if s.picking is not None and s.picking.seat == seat and s.picking.card < 0:
        s.picking.card = card  # Recall waits aside until its picks are done
    else:
        finish_card(s, seat, card)


def apply_pick(s: State, action: Action, events: list[Event]) -> None:
    pk = s.picking
    assert pk is not None
    x = s.seats[pk.seat]
    if isinstance(action, Pick):
        card = cat.ID[action.card]
        if pk.kind in (PickKind.RELOAD, PickKind.RECALL):
            x.discard.remove(card)
            to_hand_in_public(s, pk.seat, card)  # named aloud from the public discard
        elif pk.kind == PickKind.PURGE:
            x.hand.remove(card)
            discard_card(s, pk.seat, card)
            x.ep = min(x.max_ep, x.ep + 1)
        elif pk.kind == PickKind.SURGE:
            x.hand.remove(card)
            deactivate_card(s, pk.seat, card)
        else:
            x.deact.remove(card)
            x.hand.append(card)
        public = pk.kind in (PickKind.RELOAD, PickKind.RECALL, PickKind.PURGE)
        events.append(
            Event("picked", {"seat": pk.seat, "for": int(pk.kind), "card": action.card})
            if public
            else Event("picked", {"seat": pk.seat, "for": int(pk.kind), "card": action.card}, frozenset({pk.seat}))
        )
        pk.taken += 1
        pk.left -= 1
        if pk.left > 0 and _pick_source(s, pk):
            return
        if pk.taken < pk.minimum:
            return
    elif pk.taken < pk.minimum:
        raise IllegalAction(f"pick at least {pk.minimum} card(s) first")
    close_picking(s)


def close_picking(s: State) -> None:
    pk = s.picking
    assert pk is not None
    s.picking = None
    if pk.card >= 0:
        finish_card(s, pk.seat, pk.card)
    if s.phase != Phase.STANDOFF or s.current != pk.seat:
        return  # a picking opened by a card in the Aftermath (Catalyst's Purge) ends no Standoff
    _maybe_done(s, pk.seat)


def picking_stuck(s: State) -> bool:
    """A picking whose minimum cannot be met any more (e.g. too few spells) closes by itself."""
    pk = s.picking
    return pk is not None and pk.taken < pk.minimum and not _pick_source(s, pk)


def close_stuck_picking(s: State) -> None:
    if picking_stuck(s):
        assert s.picking is not None
        s.picking.minimum = s.picking.taken
        close_picking(s)
