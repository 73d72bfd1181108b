"""The Encounter Deck as an ordered list: Fate draws, 'under the deck', Time Passes / Next Chapter (W-ED, W-TM)."""

from __future__ import annotations

from gamehall.engine import Rng
from gamehall.games.grimm_world.catalog import ENCOUNTERS, NEXT_CHAPTER, TIME_PASSES, fate_of
from gamehall.games.grimm_world.state import Decks

SPECIAL = (TIME_PASSES, NEXT_CHAPTER)


def new_decks(rng: Rng, action_deck: list[str]) -> Decks:
    """B-cards shuffled with 'Time Passes' underneath; 'Next Chapter' set aside face up (W-SU-01, W-ED-01)."""
    b_cards = sorted(k for k in ENCOUNTERS if k.startswith("B"))
    encounter = [*rng.shuffled(b_cards), TIME_PASSES]
    return Decks(encounter=encounter, aside=[NEXT_CHAPTER], action=rng.shuffled(action_deck))


def take_out_specials(decks: Decks) -> None:
    """Whenever 'Time Passes' or 'Next Chapter' is on top it is taken out at once (W-ED-07)."""
    while decks.encounter and decks.encounter[0] in SPECIAL:
        card = decks.encounter.pop(0)
        decks.aside.append(card)
        decks.surfaced.append(card)
        decks.cycles += 1


def draw_fate(decks: Decks) -> int:
    """Draw the top card, read its Fate Number, put it under the deck (W-ED-03)."""
    take_out_specials(decks)
    card = decks.encounter.pop(0)
    decks.encounter.append(card)
    take_out_specials(decks)
    return fate_of(card)


def under_the_deck(decks: Decks, card: str) -> None:
    """Every used Encounter Card goes back under the deck; there is no discard pile (W-ED-02)."""
    decks.encounter.append(card)


def end_of_round(decks: Decks, rng: Rng) -> list[str]:
    """After the combat round (or encounter phase) in which a special card surfaced: reshuffle and put the
    other special card underneath (W-TM-02 steps 3-4; W-TM-03 step 6). Returns the cards processed.

    The chapter change that 'Next Chapter' also brings (Bar, Storybook) belongs to the campaign modes.
    """
    done = list(decks.surfaced)
    for card in done:
        other = NEXT_CHAPTER if card == TIME_PASSES else TIME_PASSES
        if card == NEXT_CHAPTER:
            decks.chapter_due += 1
        rng.shuffle(decks.encounter)
        if other in decks.aside:
            decks.aside.remove(other)
        decks.encounter.append(other)
    decks.surfaced = []
    return done
