"""The campaign's state outside combat: where Martha is, the Encounter Bar, the Storybook, quests, storage and
the stack of card lines still to resolve (part 2: exploration, chapters and saving)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from gamehall.games.grimm_world.content.schema import Choice, Op


def _doc(text: str) -> msgspec.Meta:
    """A field description for the view schema (the journey is embedded in the campaign's views)."""
    return msgspec.Meta(description=text)


class Good(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """An Encounter Card held under the storage card as a good (W-IT-10, W-ED-04). Encoded as [card, kind]."""

    card: Annotated[str, _doc("The Encounter Card.")]
    kind: Annotated[str, _doc("The kind of good it counts as.")]


class Journey(msgspec.Struct, forbid_unknown_fields=True):
    """Everything the save stack of §1.14 holds besides Martha's sheet and the Encounter Deck (W-SV-01)."""

    location: Annotated[int, _doc("The location number Martha stands on (region digit, then location digit).")]
    previous: Annotated[int, _doc("The location she came from (where she returns when sent back).")]
    regions: Annotated[dict[str, str], _doc("Region digit -> the Region Card of that region in play.")]
    bar: Annotated[list[str], _doc("Cards in the Encounter Bar.")] = []
    banished: Annotated[list[str], _doc("Cards banished from the game.")] = []
    story: Annotated[
        dict[str, list[str]], _doc("Cards placed under a Chapter Card ('1'..'N') or under the Epilogue ('E').")
    ] = {}
    quests: Annotated[list[str], _doc("Quest cards Martha has taken.")] = []
    quest_deck: Annotated[list[str], _doc("Quest cards still on offer (the notice board draws from its front).")] = []
    training: Annotated[list[str], _doc("Training cards still on offer.")] = []
    enemy_deck: Annotated[list[str], _doc("The Enemy Cards of the campaign.")] = []
    prices: Annotated[
        dict[str, str], _doc("Region digit -> the price card lying under its Region Card (W-TD-02).")
    ] = {}
    goods: Annotated[list[Good], _doc("Encounter Cards held as goods under the storage card.")] = []
    items: Annotated[
        dict[str, list[str]],
        _doc("Held item -> the Encounter Cards its copies are printed on ('' for a Lost Pages copy; W-IT-08, W-TX-08)"),
    ] = {}
    storage: Annotated[str, _doc("The storage card in use ('' for none).")] = ""
    held: Annotated[
        list[str],
        _doc("The Value and Encounter cards out of the deck during the Random..Landscape subphases (W-RE-03)."),
    ] = []
    flags: Annotated[list[str], _doc("Story flags set by card text.")] = []
    stack: Annotated[list[Op], _doc("Card lines and round steps still to run (the last one runs next).")] = []
    menu: Annotated[list[Choice], _doc("The options of the decision Martha faces now (a Pick action's `n`).")] = []
    title: Annotated[str, _doc("The question of that decision.")] = ""
    resolving: Annotated[list[str], _doc("The Y-cards being resolved, innermost last ('this card').")] = []
    skip_travel: Annotated[bool, _doc("The Travel subphase is skipped this round.")] = False
    left: Annotated[
        bool, _doc("Martha had to leave her location this round: the Landscape subphase is skipped (W-LO-03, W-TX-11).")
    ] = False
    display: Annotated[list[str], _doc("The blacksmith's face-up cards while Martha trades (W-LA-05).")] = []
    round: Annotated[int, _doc("The exploration round.")] = 1
    completed: Annotated[int, _doc("Chapters that ended by time passing (not lost or spent): part of the score.")] = 0
    lost: Annotated[int, _doc("Chapters lost.")] = 0
    spent: Annotated[int, _doc("Chapters spent by card text (e.g. Y031).")] = 0
    won: Annotated[int, _doc("Fights won.")] = 0
    beaten: Annotated[int, _doc("Fights lost.")] = 0
    result: Annotated[str, _doc("'victory' or 'defeat' once the Epilogue (or a campaign card) ends the story.")] = ""
