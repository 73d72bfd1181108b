"""The campaign's state outside combat: where Martha is, the Encounter Bar, the Storybook, quests, storage and
the stack of card lines still to resolve (part 2: exploration, chapters and saving)."""

from __future__ import annotations

import msgspec

from gamehall.games.grimm_world.content.schema import Choice, Op


class Good(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """An Encounter Card held under the storage card as a good (W-IT-10, W-ED-04)."""

    card: str
    kind: str


class Journey(msgspec.Struct, forbid_unknown_fields=True):
    """Everything the save stack of §1.14 holds besides Martha's sheet and the Encounter Deck (W-SV-01)."""

    location: int
    previous: int
    regions: dict[str, str]
    """region digit -> the Region Card of that region in play."""
    bar: list[str] = []
    banished: list[str] = []
    story: dict[str, list[str]] = {}
    """Cards placed under a Chapter Card ('1'..'N') or under the Epilogue ('E')."""
    quests: list[str] = []
    quest_deck: list[str] = []
    training: list[str] = []
    enemy_deck: list[str] = []
    prices: dict[str, str] = {}
    """region digit -> the price card lying under its Region Card (W-TD-02)."""
    goods: list[Good] = []
    items: dict[str, str] = {}
    """held item -> the Encounter Card it is printed on ('' for a Lost Pages item, W-IT-08)."""
    storage: str = ""
    held: list[str] = []
    """The Value and Encounter cards out of the deck during the Random..Landscape subphases (W-RE-03)."""
    flags: list[str] = []
    stack: list[Op] = []
    """Card lines and round steps still to run (last = next)."""
    menu: list[Choice] = []
    title: str = ""
    resolving: list[str] = []
    """The Y-cards being resolved, innermost last ('this card')."""
    skip_travel: bool = False
    left: bool = False
    """Martha had to leave her location this round: the Landscape subphase is skipped (W-LO-03, W-TX-11)."""
    display: list[str] = []
    """The blacksmith's face-up cards while Martha trades (W-LA-05)."""
    round: int = 1
    completed: int = 0
    """Chapters that ended by time passing (not lost or spent): part of the score."""
    lost: int = 0
    spent: int = 0
    won: int = 0
    """Fights won."""
    beaten: int = 0
    """Fights lost."""
    result: str = ""
    """'victory' or 'defeat' once the Epilogue (or a campaign card) ends the story."""
