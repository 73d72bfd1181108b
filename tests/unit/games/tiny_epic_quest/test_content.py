"""The content pack: counts the book states, the inferred constraints, and provenance on every entry."""

from __future__ import annotations

from collections import Counter

import pytest

from gamehall.engine.content import ContentError, decode_pack
from gamehall.games.tiny_epic_quest.content import PACK
from gamehall.games.tiny_epic_quest.content.schema import Layout, MapCard
from gamehall.games.tiny_epic_quest.tables import (
    GOBLIN_TOKENS,
    LIBRARY,
    MAGIC_MULTI,
    MAGIC_SOLO,
    METHODS,
    N_DICE,
    PORTALS_ON_MAP,
    SPELL_SYMBOLS,
)


def test_counts_the_book_states() -> None:
    quests = Counter(q.type for q in PACK.quests)
    assert len(PACK.quests) == 24 and quests == {"movement": 12, "treasure": 12}
    items = Counter(i.kind for i in PACK.items)
    assert items == {"treasure": 12, "legendary": 3}
    assert len(METHODS) == 5 and N_DICE == 5
    assert GOBLIN_TOKENS == 16 and PORTALS_ON_MAP == 7
    assert len(PACK.cards) == 17 and sum(1 for c in PACK.cards if c.castle) == 4
    assert len(PACK.players) == 4 and len(PACK.table.difficulties) == 5
    assert [d.goal for d in PACK.table.difficulties] == [40, 45, 50, 55, 60]
    assert len(PACK.layout.slots) == 17 and len(PACK.layout.coast_ring) == 12


def test_every_card_has_two_regions_and_both_sides_match_the_map_rules() -> None:
    for side in ("bright", "gloom"):
        kinds = Counter(r.type for c in PACK.cards for r in (getattr(c, side).left, getattr(c, side).right))
        assert kinds["castle"] == 4 and kinds["portal"] == 7
        for c in PACK.cards:
            regions = (getattr(c, side).left, getattr(c, side).right)
            assert (c.castle is not None) == any(r.type == "castle" for r in regions)


def test_temple_tracks_have_four_spaces_and_gloom_doubles_the_second() -> None:
    for t in PACK.temples:
        assert len(t.bright) == 4 and len(t.gloom) == 4
        assert t.gloom[1].endswith("2")
    quest_temples = {q.temple for q in PACK.quests if q.type == "treasure"}
    assert quest_temples == {t.name for t in PACK.temples}


def test_inferred_constraints() -> None:
    assert all(p.sword == ["Ice", "Shadow"] for p in PACK.players)
    assert [SPELL_SYMBOLS[s] for s in LIBRARY[:3]] == ["snake", "scorpion", "spider"]
    assert len(MAGIC_MULTI) >= 8 and MAGIC_MULTI[0] == 0 and MAGIC_MULTI[-1] == 3
    assert MAGIC_MULTI[7] == 3  # the Staff example: the 8th space reaches Level 3
    assert MAGIC_SOLO[0] == 0 and MAGIC_SOLO[-1] == 3
    assert list(MAGIC_MULTI) == sorted(MAGIC_MULTI)
    assert any(i.name == "Bow" for i in PACK.items)
    assert PACK.table.score_spells == [-4, -2, -1, 1, 2, 4, 6, 8, 10, 13, 16]
    assert PACK.table.score_quests == [-3, -1, 1, 3, 6, 8, 12, 16, 20, 25, 30]
    assert PACK.table.score_goblins == [-2, 1, 3, 6, 8, 12, 16, 20, 25, 30, 35]


def test_provenance_tags() -> None:
    entries = [
        PACK.layout,
        *PACK.cards,
        *PACK.temples,
        *PACK.grottos,
        *PACK.items,
        *PACK.quests,
        *PACK.players,
        PACK.table.magic_multi,
        PACK.table.magic_solo,
        *PACK.table.difficulties,
    ]
    for e in entries:
        assert e.provenance is not None and e.provenance.ref.strip()  # type: ignore[union-attr]
    sources = Counter(e.provenance.source for e in entries)  # type: ignore[union-attr]
    assert set(sources) <= {"rulebook", "inferred", "designed"}
    # What the book never prints is never presented as the publisher's.
    for group in (PACK.cards, PACK.temples, PACK.grottos):
        assert all(e.provenance.source == "designed" for e in group)
    assert all(q.provenance and q.provenance.source == "designed" for q in PACK.quests if q.type == "movement")
    assert {i.name for i in PACK.items if i.provenance.source == "rulebook"} == {"Sword", "Shield", "Staff"}
    assert PACK.table.die_provenance.source == "designed"
    assert PACK.table.score_provenance.source == "rulebook"
    assert PACK.layout.provenance.source == "designed"


def test_schema_rejects_a_bad_pack() -> None:
    with pytest.raises(ContentError):
        decode_pack(b'[{"id": "x", "castle": null}]', list[MapCard], "cards.json")
    with pytest.raises(ContentError):
        decode_pack(
            b'{"slots": [], "roads": [], "rivers": [], "diagonals": [], "coast_ring": [], '
            b'"provenance": {"source": "guessed", "ref": "x"}}',
            Layout,
            "layout.json",
        )
