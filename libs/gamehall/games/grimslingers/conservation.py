"""Card conservation: every physical card of the match lies in exactly one zone at every step.

The universe is fixed by the config (one element set per seat, the signature deck, LIGHT/DARK
when shuffled in, the regular items when used); zones are hands, piles, draft offers, face-down
commitments, unresolved plays, a Recall set aside, Scourge in a seat's space, decks, the
scavenge field and the box. The conformance kit checks it through `Grimslingers.invariants`.
"""

from __future__ import annotations

from collections import Counter

from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.state import Phase, PlayStatus, State


def universe(s: State) -> list[int]:
    """Every card of the match, sorted (one element set per player)."""
    key = (s.players, s.light_dark, s.items, tuple(s.creature_deck), s.mode)
    cached = _UNIVERSE.get(key)
    if cached is None:
        cards = list(cat.BASIC_ELEMENTS) * s.players + list(s.creature_deck) + list(cat.SIGNATURES)
        if s.light_dark:
            cards += [cat.LIGHT, cat.DARK]
        if s.mode == "tall-tale":
            cards += list(cat.TALE_ITEMS)
        elif s.items:
            cards += list(cat.ITEMS)
        cached = _UNIVERSE[key] = sorted(cards)
    return cached


_UNIVERSE: dict[tuple[object, ...], list[int]] = {}


def located(s: State) -> Counter[int]:
    """Every card found in a zone, with multiplicity."""
    return Counter(_cards(s))


def _cards(s: State) -> list[int]:
    found: list[int] = []
    for x in s.seats:
        found += x.hand
        found += x.discard
        found += x.deact
        found += x.offer
        if x.commit is not None and s.phase in (Phase.FIRE, Phase.CHEAT):
            found += x.commit.cards
    for p in s.plays:
        if p.status == PlayStatus.PENDING:
            found += [c for c in (p.card, p.combine) if c >= 0]
    if s.picking is not None and s.picking.card >= 0:
        found.append(s.picking.card)
    if s.instant:
        found.append(s.instant[1])
    if s.scourge_card >= 0:
        found.append(s.scourge_card)
    found += s.sig_deck
    found += s.box
    found += s.item_deck
    found += [c for c in s.field if c >= 0]
    found += s.item_discard
    if s.tale is not None:
        for m in s.tale.members:
            found += m.stash
        found += s.tale.award
    return found


def violations(s: State) -> list[str]:
    """Cards doubled or lost, by key (empty when every card is in exactly one place)."""
    cards = _cards(s)
    want = universe(s)
    if sorted(cards) == want:
        return []
    have, need = Counter(cards), Counter(want)
    return [
        f"{cat.KEYS[c]}: {have[c]} in play, {need[c]} in the match"
        for c in sorted(set(have) | set(need))
        if have[c] != need[c]
    ]
