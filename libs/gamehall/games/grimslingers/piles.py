"""Moving cards between hand, discard and deactivated piles (C 'Discard vs Deactivate')."""

from __future__ import annotations

from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.state import Phase, Seat, State


def to_hand_in_public(s: State, seat: int, card: int) -> None:
    """A card goes to the hand in everyone's sight: it stays known there (`Seat.shown`). Not
    tracked for a creature: its hand is a face-down draw pile, sampled from its public deck."""
    x = s.seats[seat]
    x.hand.append(card)
    if card not in x.shown and seat != s.creature:
        x.shown.append(card)


def _to_deact(s: State, seat: int, card: int) -> None:
    """Into the face-down deactivated pile: which known hand cards are still in hand is no longer
    public (the pile's size is public, so forgetting here reveals nothing)."""
    x = s.seats[seat]
    x.deact.append(card)
    x.shown = []


def known_in_hand(s: State, x: Seat) -> list[int]:
    """The cards of `x.shown` still in the hand, or face down in its commitment before the reveal
    (committed cards still count in the public hand size then)."""
    hidden = x.commit.cards if x.commit is not None and s.phase in (Phase.FIRE, Phase.CHEAT) else []
    return [c for c in x.shown if c in x.hand or c in hidden]


def prune_shown(s: State) -> None:
    """Keep `Seat.shown` to the known cards still in the hand (see `known_in_hand`)."""
    for x in s.seats:
        if x.shown:
            x.shown = known_in_hand(s, x)


def discard_card(s: State, seat: int, card: int) -> None:
    """Discard: spells to the owner's pile, items to the shared pile. A 'deactivate on use' or
    'do not discard' card told to be discarded is deactivated instead (R-016)."""
    if cat.CARDS[card].after != "discard":
        _to_deact(s, seat, card)
    elif cat.IS_ITEM[card]:
        s.item_discard.append(card)
        if card in s.defused:
            s.defused.remove(card)
    else:
        s.seats[seat].discard.append(card)
        reveal_signature(s, seat, card)


def deactivate_card(s: State, seat: int, card: int) -> None:
    _to_deact(s, seat, card)


def finish_card(s: State, seat: int, card: int) -> None:
    """After a card resolves: discard, or deactivate on use, or back to hand ('do not discard')."""
    after = cat.CARDS[card].after
    if after == "keep":
        to_hand_in_public(s, seat, card)
    elif after == "deactivate":
        _to_deact(s, seat, card)
    else:
        discard_card(s, seat, card)


def reveal_signature(s: State, seat: int, card: int) -> None:
    if cat.CARDS[card].kind == "signature" or card in (cat.LIGHT, cat.DARK):
        seen = s.seats[seat].sigs_seen
        if card not in seen:
            seen.append(card)
