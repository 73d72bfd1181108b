"""The campaign content is coherent: every card, entry, op, conflict, item and location a card names exists;
encounter ranges cover 1-12; paths run both ways; every location can meet a random encounter."""

from __future__ import annotations

from collections.abc import Iterator

from gamehall.engine import Rng
from gamehall.games.grimm_world import campaign  # noqa: F401  (registers every op)
from gamehall.games.grimm_world.atlas import (
    CAMPAIGN,
    CHAPTERS,
    ENTRIES,
    LANDSCAPES,
    LAST_CHAPTER,
    PAGES,
    REGIONS,
    copies,
)
from gamehall.games.grimm_world.catalog import CONFLICTS, ENCOUNTERS, ITEMS, UPGRADES
from gamehall.games.grimm_world.content.schema import Op
from gamehall.games.grimm_world.market import LABELS
from gamehall.games.grimm_world.setup import new_fight, skirmish_sheet
from gamehall.games.grimm_world.trip import HANDLERS

CARD_OPS = {"resolve", "place", "banish", "future", "quest", "end_quest"}


def _walk(ops: tuple[Op, ...]) -> Iterator[Op]:
    for op in ops:
        yield op
        yield from _walk(op.then)
        yield from _walk(op.orelse)
        for band in op.bands:
            yield from _walk(band.then)
        for choice in op.options:
            yield from _walk(choice.then)


def _all_ops() -> Iterator[tuple[str, Op]]:
    for key, page in PAGES.items():
        for op in _walk(page.ops):
            yield key, op
    for key, entry in ENTRIES.items():
        for op in _walk(entry.ops):
            yield key, op
    for number, chapter in CHAPTERS.items():
        for op in _walk(chapter.ops):
            yield f"chapter {number}", op


def test_every_op_and_every_named_thing_exists() -> None:
    for where, op in _all_ops():
        assert op.op in HANDLERS, (where, op.op)
        if op.op in CARD_OPS and op.card:
            assert op.card in PAGES, (where, op.card)
        if op.op == "random_page":
            assert copies(op.card), (where, op.card)
        if op.op == "fight":
            assert op.card in CONFLICTS, (where, op.card)
        if op.op == "item" and op.card:
            assert op.card in ITEMS, (where, op.card)
        if op.op == "upgrade":
            assert op.card in UPGRADES, (where, op.card)
        if op.op == "storage":
            assert PAGES[op.card].kind == "storage", where
        if op.op == "place_x":
            assert op.card in ENCOUNTERS and op.card.startswith("X"), where
        if op.op in ("goods", "lose_goods", "remove_goods"):
            assert op.good in ("provision", "wood", "ore", "essence"), where


def test_encounter_cards_cover_every_value_and_location() -> None:
    for card in ENCOUNTERS.values():
        if not card.ranges:
            continue
        covered = sorted(v for lo, hi, _ in card.ranges for v in range(lo, hi + 1))
        assert covered == list(range(1, 13)), card.key
        assert all(entry in ENTRIES for *_, entry in card.ranges), card.key
        assert card.landscape in LANDSCAPES and all(o in LABELS for o in card.options)
        assert not card.item or card.item in ITEMS
    for region in REGIONS.values():
        numbers = {loc.number for loc in region.locations}
        assert all(y in PAGES for y in region.y_cards), region.key
        for loc in region.locations:
            assert set(loc.paths) <= numbers, (region.key, loc.number)
            assert all(loc.number in next(x for x in region.locations if x.number == p).paths for p in loc.paths)
            assert any(c.landscape in loc.ids for c in ENCOUNTERS.values() if c.key.startswith("B")), loc.number
            for direction, target in loc.exits.items():
                assert any(target in {x.number for x in r.locations} for r in REGIONS.values()), (loc.number, direction)


def test_the_storybook_has_a_cover_chapters_and_an_epilogue() -> None:
    numbers = sorted(CHAPTERS)
    assert numbers[0] == 0 and numbers[-1] == 99 and numbers[1:-1] == list(range(1, len(numbers) - 1))
    assert len(numbers) - 2 >= 3
    assert all(0 <= c.modifier <= 6 for c in CAMPAIGN.chapters)
    assert all(card in PAGES for c in CAMPAIGN.chapters for card in c.sub)
    quests = [k for k, c in PAGES.items() if c.kind == "quest"]
    assert all(PAGES[q].location for q in quests) and all(0 <= PAGES[q].level <= 3 for q in quests)
    assert any(op.op == "win" for _, op in _all_ops()) and any(op.op == "lose" for _, op in _all_ops())


def test_item_18_fourteen_chapters_each_with_its_conflict_at_the_books_column() -> None:
    """Item 18 (4.6, W-CO-11, W-TM-01): the Storybook runs to Chapter 14; every chapter lays out a conflict of its
    own, fought at the book's placement column for that chapter (Fig 78: 1-4, 5-9, 10+); the Lost Pages grew with
    the story (54 -> 108), and what is new is tagged designed."""
    assert LAST_CHAPTER == 14 and sorted(CHAPTERS) == [0, *range(1, 15), 99]
    assert [CHAPTERS[n].modifier for n in range(1, 15)] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    fought = []
    for n in range(1, 15):
        chapter = CHAPTERS[n]
        assert chapter.tier == n and chapter.provenance.source == "designed"
        fights = [op for key in chapter.sub for op in _walk(PAGES[key].ops) if op.op == "fight"]
        assert len(fights) == 1, n
        conflict = CONFLICTS[fights[0].card]
        column = next(p for p in conflict.placements if p.chapters[0] <= n <= p.chapters[1])
        assert column.chapters == ((1, 4) if n <= 4 else (5, 9) if n <= 9 else (10, 14))
        sheet, _ = skirmish_sheet(n, Rng(n))
        fight = new_fight(conflict.key, chapter.tier, sheet)
        assert [f.number for f in fight.foes] == [e for e, _ in column.enemies]
        fought.append(conflict.key)
    assert len(set(fought)) == 14
    assert len(PAGES) >= 108
    assert all(PAGES[k].provenance.source == "designed" for k in ("Y135", "Y136", "Y137", "Y138", "Y139", "Y801"))
