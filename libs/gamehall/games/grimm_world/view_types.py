"""The typed shape of a Grimm World view: what `GrimmWorld.view` returns, per mode, for Martha or a spectator.

A tagged union on `mode`: `SkirmishView` (one Conflict Card) or `CampaignView` (the solo story). Grimm World
hides only the order of the Encounter and Action decks (and the generator), so a view is the match state
with those decks as counts (the campaign also says what it knows of the Encounter Deck, `deck`), plus
derived parts for clients: the battlefield, the enemies with their cards and Martha's figure while a fight
is on. The state's own records (`Sheet`, `Fight`, `Journey` and the card-text `Op` lines it holds) are
embedded as they are; `Foe`, `Task` and `Good` are compact records encoded as JSON arrays in field order.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from gamehall.games.grimm_world.content.schema import EnemyDef, Stat, Terrain
from gamehall.games.grimm_world.journey import Journey
from gamehall.games.grimm_world.state import Fight, Sheet


def _doc(text: str) -> msgspec.Meta:
    return msgspec.Meta(description=text)


class DecksView(msgspec.Struct, forbid_unknown_fields=True):
    """The decks: the Encounter and Action decks as counts (their order is secret), the rest as in the state."""

    encounter: Annotated[int, _doc("Cards in the Encounter Deck (its order is secret).")]
    aside: Annotated[list[str], _doc("The special cards ('TP' Time Passes, 'NC' Next Chapter) set aside.")]
    action: Annotated[int, _doc("Cards in the Action Card deck (its order is secret).")]
    surfaced: Annotated[list[str], _doc("Special cards taken out this round, processed when the round ends.")]
    chapter_due: Annotated[int, _doc("'Next Chapter' cards processed in a fight whose chapter change is owed.")]
    cycles: Annotated[int, _doc("How many times 'Time Passes' or 'Next Chapter' came up.")]


class EncounterDeckView(msgspec.Struct, forbid_unknown_fields=True):
    """What the campaign player knows of the Encounter Deck (W-ED-08): its cards, the special card's depth and
    the top card's back."""

    cards: Annotated[list[str], _doc("The ordinary cards in the deck, sorted (not in deck order).")]
    special: Annotated[
        tuple[str, int] | None,
        _doc("[card, depth]: the special card ('TP' or 'NC') in the deck and how many cards lie above it; or null."),
    ]
    top_back: Annotated[str, _doc("The landscape on the back of the top ordinary card; empty if none.")]


class LocationView(msgspec.Struct, forbid_unknown_fields=True):
    """The campaign location Martha stands on (from the Region Card in play)."""

    number: Annotated[int, _doc("The location number: region digit, then the location's digit.")]
    name: str
    ids: Annotated[list[str], _doc("Its Landscape Identifiers.")]
    symbols: Annotated[list[str], _doc("Its symbols (e.g. town services).")]


class BoardView(msgspec.Struct, forbid_unknown_fields=True):
    """The battlefield of the fight: a width x height grid of cells, cell = y * width + x, y = 0 the bottom row."""

    width: int
    height: int
    terrain: Annotated[list[Terrain], _doc("The terrain of each cell.")]
    lines: Annotated[
        list[tuple[int, int, Literal["obstacle", "blocked"]]],
        _doc("[cell a, cell b, kind]: an obstacle or blocked line between two adjacent cells (a < b)."),
    ]
    spaces: Annotated[list[str], _doc("Each cell's space name, Terrain Card '/' space (e.g. '07/3').")]


class EnemyView(msgspec.Struct, forbid_unknown_fields=True):
    """An enemy figure on the battlefield, with its face-up Enemy Card."""

    index: Annotated[int, _doc("Its index in the fight's `foes` (the `enemy` of actions that target it).")]
    name: str
    x: int
    y: int
    space: Annotated[str, _doc("The space name of its cell.")]
    card: EnemyDef


class MarthaView(msgspec.Struct, forbid_unknown_fields=True):
    """Martha's figure on the battlefield: position, totalled statistics and attack options."""

    x: int
    y: int
    space: Annotated[str, _doc("The space name of her cell.")]
    stats: Annotated[dict[Stat, int], _doc("Her statistics: base plus upgrades and equipped items.")]
    weapons: Annotated[
        list[tuple[str, int, int, int | None]],
        _doc("[item key ('fists' first), range, damage, attack rate or null for unlimited] per attack option."),
    ]


class _ModeView(msgspec.Struct, tag_field="mode", forbid_unknown_fields=True):
    """Base of the per-mode views: the `mode` field tells them apart."""


class SkirmishView(_ModeView, tag="skirmish"):
    """A skirmish: Martha against the enemies of one Conflict Card, always in a fight."""

    conflict: Annotated[str, _doc("The Conflict Card fought.")]
    chapter: Annotated[int, _doc("The chapter modifier (1-14) that chose the placement and loadout.")]
    sheet: Sheet
    decks: DecksView
    fight: Fight
    last_fate: Annotated[int, _doc("The value of the last Fate card drawn.")]
    steps: Annotated[int, _doc("Actions taken so far.")]
    journey: Annotated[None, _doc("Always null: a skirmish has no campaign.")]
    seat: Annotated[Literal[0] | None, _doc("The viewing seat (0, Martha), or null for a spectator.")]
    to_act: Annotated[list[int], _doc("[0] while Martha must act, [] once the fight is over.")]
    board: BoardView
    enemies: list[EnemyView]
    martha: MarthaView
    round_limit: Annotated[int, _doc("Rule flag: a fight is lost after this many rounds (0: none, the book's).")] = 0


class CampaignView(_ModeView, tag="campaign"):
    """The campaign: exploration rounds, quests and trading; the fight parts are present only during a fight."""

    conflict: Annotated[str, _doc("Empty in the campaign (its fights name their conflict in `fight`).")]
    chapter: Annotated[int, _doc("The current chapter of the story.")]
    sheet: Sheet
    decks: DecksView
    fight: Annotated[Fight | None, _doc("The fight in progress, or null outside combat.")]
    last_fate: Annotated[int, _doc("The value of the last Fate card drawn.")]
    steps: Annotated[int, _doc("Actions taken so far.")]
    journey: Journey
    seat: Annotated[Literal[0] | None, _doc("The viewing seat (0, Martha), or null for a spectator.")]
    to_act: Annotated[list[int], _doc("[0] while Martha must act, [] once the story has ended.")]
    deck: EncounterDeckView
    here: LocationView
    round_limit: Annotated[int, _doc("Rule flag: a fight is lost after this many rounds (0: none, the book's).")] = 0
    board: Annotated[BoardView | msgspec.UnsetType, _doc("Present only during a fight.")] = msgspec.UNSET
    enemies: Annotated[list[EnemyView] | msgspec.UnsetType, _doc("Present only during a fight.")] = msgspec.UNSET
    martha: Annotated[MarthaView | msgspec.UnsetType, _doc("Present only during a fight.")] = msgspec.UNSET


GrimmWorldView = SkirmishView | CampaignView
"""What `GrimmWorld.view` returns, told apart by `mode`."""
