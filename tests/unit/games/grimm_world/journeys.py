"""Fixtures for the campaign scenarios: a campaign at a chosen place with a stacked deck, ops run directly, menu
options picked by label."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamehall.games.grimm_world import GAME
from gamehall.games.grimm_world.actions import Pick
from gamehall.games.grimm_world.atlas import ENTRIES, entry_ops
from gamehall.games.grimm_world.campaign import new_campaign
from gamehall.games.grimm_world.catalog import ENCOUNTERS, TIME_PASSES
from gamehall.games.grimm_world.content.schema import Op
from gamehall.games.grimm_world.journey import Good
from gamehall.games.grimm_world.state import State
from gamehall.games.grimm_world.trip import Trip, run


def b_cards() -> list[str]:
    return sorted(k for k in ENCOUNTERS if k.startswith("B"))


def stacked(top: Sequence[str] = (), fates: Sequence[int] = ()) -> list[str]:
    """A deck with these cards (or cards of these Fate Numbers) on top, then the other B-cards, then TP."""
    chosen = list(top)
    for f in fates:
        chosen.append(next(k for k in b_cards() if ENCOUNTERS[k].fate == f and k not in chosen))
    return [*chosen, *(k for k in b_cards() if k not in chosen), TIME_PASSES]


def card_with(landscape: str, skip: Sequence[str] = ()) -> str:
    return next(k for k in b_cards() if ENCOUNTERS[k].landscape == landscape and k not in skip)


def journey(location: int = 11, *, hand: Sequence[str] = ("A01", "A02", "A03", "A04"),
            deck: Sequence[str] | None = None, upgrades: Sequence[str] = (), equipped: Sequence[str] = (),
            stored: Sequence[str] = (),
            broken: Sequence[str] = (), thalers: int = 10, alignment: int = 1, chapter: int = 1,
            goods: Sequence[tuple[str, str]] = (), bar: Sequence[str] = ()) -> State:
    """A campaign between steps: nothing pending, Martha at `location` (region cards 111, 211, 311 in play)."""
    s = new_campaign(1)
    j = s.journey
    assert j is not None
    j.stack, j.menu, j.title = [], [], ""
    j.location = j.previous = location
    j.regions = {"1": "111", "2": "211", "3": "311"}
    j.bar = list(bar)
    j.items = {}
    sheet = s.sheet
    sheet.hand, sheet.damaged = list(hand), []
    sheet.upgrades, sheet.equipped = list(upgrades), list(equipped)
    sheet.stored, sheet.broken = list(stored), list(broken)
    sheet.thalers, sheet.alignment = thalers, alignment
    s.chapter = chapter
    deck_cards = list(deck) if deck is not None else stacked()
    j.goods = []
    for card, kind in goods:
        if card in deck_cards:
            deck_cards.remove(card)
        j.goods.append(Good(card, kind))
    s.decks.encounter = deck_cards
    s.decks.aside = [c for c in s.decks.aside if c not in deck_cards]
    return s


def do(s: State, *ops: Op) -> list[Any]:
    """Run ops on `s` (in place) until a choice is needed."""
    t = Trip(s)
    t.push(*ops)
    run(t)
    return t.close()


def entry(s: State, key: str) -> list[Any]:
    assert key in ENTRIES
    return do(s, *entry_ops(key))


def labels(s: State) -> list[str]:
    assert s.journey is not None
    return [c.label for c in s.journey.menu]


def pick(s: State, label: str) -> tuple[State, list[Any]]:
    """Choose the menu option whose label starts with `label` (through the game's validated apply)."""
    found = [i for i, text in enumerate(labels(s)) if text.startswith(label)]
    assert found, f"{label!r} not in {labels(s)}"
    return GAME.apply(s, 0, Pick(found[0]))


def roll(s: State) -> tuple[State, list[Any]]:
    """Draw the Fate card of a pending check (a check with no boosting card in hand draws at once)."""
    if any(text.startswith("Draw the Fate card") for text in labels(s)):
        return pick(s, "Draw the Fate card")
    return s, []


def picks(s: State, *chosen: str) -> tuple[State, list[Any]]:
    events: list[Any] = []
    for label in chosen:
        s, ev = roll(s) if label == "roll" else pick(s, label)
        events += ev
    return s, events


def kinds(events: Sequence[Any], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]
