"""Card conservation: every physical card of the match lies in exactly one zone at every step.

The universe is fixed by the config (one element set per seat, the signature deck, LIGHT/DARK
when shuffled in, the regular items when used); zones are hands, piles, draft offers, face-down
commitments, unresolved plays, a Recall set aside, Scourge in a seat's space, decks, the
scavenge field and the box. The conformance kit checks it through `Grimslingers.invariants`.
"""

from __future__ import annotations

from collections import Counter

from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.state import CHEAT, FIRE, PENDING, State


def universe(s: State) -> Counter[int]:
    cards: Counter[int] = Counter()
    for _ in range(s.n):
        cards.update(cat.BASIC_ELEMENTS)
    cards.update(cat.SIGNATURES)
    if s.light_dark:
        cards.update((cat.LIGHT, cat.DARK))
    if s.items:
        cards.update(cat.ITEMS)
    return cards


def located(s: State) -> Counter[int]:
    """Every card found in a zone, with multiplicity."""
    found: Counter[int] = Counter()
    for x in s.seats:
        found.update(x.hand)
        found.update(x.discard)
        found.update(x.deact)
        found.update(x.offer)
        if x.commit is not None and s.phase in (FIRE, CHEAT):
            found.update(x.commit.cards)
    for p in s.plays:
        if p.status == PENDING:
            found.update(c for c in (p.card, p.combine) if c >= 0)
    if s.picking is not None and s.picking.card >= 0:
        found[s.picking.card] += 1
    if s.instant:
        found[s.instant[1]] += 1
    if s.scourge_card >= 0:
        found[s.scourge_card] += 1
    found.update(s.sig_deck)
    found.update(s.box)
    found.update(s.item_deck)
    found.update(c for c in s.field if c >= 0)
    found.update(s.item_discard)
    return found


def violations(s: State) -> list[str]:
    """Cards doubled or lost, by key (empty when every card is in exactly one place)."""
    want, got = universe(s), located(s)
    out = []
    for card in sorted(set(want) | set(got)):
        if want[card] != got[card]:
            out.append(f"{cat.KEYS[card]}: {got[card]} in play, {want[card]} in the match")
    return out
