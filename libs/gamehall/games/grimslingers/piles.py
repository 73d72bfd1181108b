"""Moving cards between hand, discard and deactivated piles (C 'Discard vs Deactivate')."""

from __future__ import annotations

from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.state import State


def discard_card(s: State, seat: int, card: int) -> None:
    """Discard: spells to the owner's pile, items to the shared pile. A 'deactivate on use' or
    'do not discard' card told to be discarded is deactivated instead (R-016)."""
    if cat.CARDS[card].after != "discard":
        s.seats[seat].deact.append(card)
    elif cat.IS_ITEM[card]:
        s.item_discard.append(card)
        if card in s.defused:
            s.defused.remove(card)
    else:
        s.seats[seat].discard.append(card)
        reveal_signature(s, seat, card)


def deactivate_card(s: State, seat: int, card: int) -> None:
    s.seats[seat].deact.append(card)


def finish_card(s: State, seat: int, card: int) -> None:
    """After a card resolves: discard, or deactivate on use, or back to hand ('do not discard')."""
    after = cat.CARDS[card].after
    if after == "keep":
        s.seats[seat].hand.append(card)
    elif after == "deactivate":
        s.seats[seat].deact.append(card)
    else:
        discard_card(s, seat, card)


def reveal_signature(s: State, seat: int, card: int) -> None:
    if cat.CARDS[card].kind == "signature" or card in (cat.LIGHT, cat.DARK):
        seen = s.seats[seat].sigs_seen
        if card not in seen:
            seen.append(card)
