"""Items in Versus: the scavenge field of three, the item deck and its shared discard pile.

Scavenging costs 1 EP for Standard and Passive items (free for Combine, Standoff, Instant: the
type when taken, AMB-21). An Instant resolves on the spot, before its slot is refilled; Unstable
Dynamite rolls and either explodes or stays in hand as a Standard item.
"""

from __future__ import annotations

from gamehall.engine.protocol import Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.effects import Cast, apply_atoms, compute
from gamehall.games.grimslingers.revival import offer_immediate
from gamehall.games.grimslingers.state import Prompt, PromptKind, State

FIELD_SIZE = 3


def draw_item(s: State, rng: Rng) -> int:
    """Top of the item deck; an empty deck is rebuilt from the shuffled discard (flag item_reshuffle)."""
    if not s.item_deck and s.item_discard and s.flags.item_reshuffle:
        s.item_deck = rng.shuffled(s.item_discard)
        s.item_discard = []
    return s.item_deck.pop() if s.item_deck else -1


def scavenge(s: State, seat: int, slot: int, events: list[Event], rng: Rng) -> None:
    x = s.seats[seat]
    card = s.field[slot]
    s.field[slot] = -1
    x.ep -= cat.scavenge_cost(card)
    events.append(Event("scavenged", {"seat": seat, "card": cat.KEYS[card]}))
    definition = cat.CARDS[card]
    if "instant" not in definition.types:
        x.hand.append(card)
        s.field[slot] = draw_item(s, rng)
        return
    cast = Cast(seat, [seat], action_card=False)
    atoms = compute(s, cast, definition.on_take, rng)
    rolled = [a[2] for a in atoms if a[1] == -1]
    keep = any(rolled and rolled[0] in b.faces and b.keep for e in definition.on_take for b in e.branches)
    if rolled:
        events.append(Event("rolled", {"seat": seat, "card": cat.KEYS[card], "face": rolled[0]}))
    s.pending = atoms
    s.instant = [seat, card, int(keep), slot]
    if not offer_grit(s, cast.absorbable, ref=-1):
        finish_instant(s, rng)


def finish_instant(s: State, rng: Rng) -> None:
    """Apply an Instant's take effects (after any True Grit answer), place it, refill its slot."""
    seat, card, keep, slot = s.instant
    atoms, s.pending, s.instant = s.pending, [], []
    zeroed = apply_atoms(s, seat, atoms, rng, netting=s.flags.fx_netting, action_card=False)
    x = s.seats[seat]
    if keep:
        x.hand.append(card)
        s.defused.append(card)
    else:
        s.item_discard.append(card)
    for z in zeroed:
        offer_immediate(s, z)
    s.field[slot] = draw_item(s, rng)


def offer_grit(s: State, absorbable: dict[int, int], ref: int) -> bool:
    """Offer True Grit (R-157) to every Forgotten about to take DMG with EP to spend; True if any."""
    offered = False
    for seat, amount in absorbable.items():
        x = s.seats[seat]
        if x.archetype == cat.FORGOTTEN and x.ep > 0 and amount > 0:
            s.prompts.append(Prompt(seat, PromptKind.TRUE_GRIT, list(range(min(amount, x.ep) + 1)), ref))
            offered = True
    return offered


def playable_item(s: State, card: int) -> bool:
    """Standard items are played in the Draw phase instead of a spell (Dynamite once kept)."""
    return cat.PLAYABLE_IN_DRAW[card] or (card in cat.DYNAMITE and card in s.defused)
