"""The content pack: every number the rulebook gives is used, counts match W-CO-01, every entry has provenance,
and every conflict sets up legally."""

from __future__ import annotations

import pytest

from gamehall.engine import Rng
from gamehall.games.grimm_world.board import can_stand, conflict_board
from gamehall.games.grimm_world.catalog import (
    ACTION_CARDS,
    CHARACTERS,
    CONFLICTS,
    ENCOUNTER_PACK,
    ENEMY_PACK,
    ITEMS,
    LOADOUTS,
    TERRAIN_PACK,
)
from gamehall.games.grimm_world.setup import new_fight, skirmish_sheet
from gamehall.games.grimm_world.sheet import check_equipment, stats


def test_counts_and_numbering() -> None:
    assert [c.number for c in TERRAIN_PACK.cards] == [f"{n:02d}" for n in range(1, 47)]  # 46 Terrain cards
    assert all(len(c.spaces) == 6 for c in TERRAIN_PACK.cards)
    cards = ENCOUNTER_PACK.cards
    assert len(cards) == 30 and all(c.key[0] == "B" and 1 <= int(c.key[1:]) <= 60 for c in cards)
    assert sorted({c.fate for c in cards}) == [1, 2, 3, 4, 5, 6]
    assert len(ENEMY_PACK.enemies) >= 12 and len(CONFLICTS) >= 10
    assert len(ACTION_CARDS) >= 20


def test_rulebook_numbers_are_used() -> None:
    martha = CHARACTERS["martha"]
    assert (martha.base["constitution"], martha.base["attack"], martha.base["dodge"]) == (4, 0, 4)
    assert (martha.base["range"], martha.base["damage"], martha.special_move) == (1, 1, 2)
    assert martha.slots == {"body": 1, "hands": 2, "accessories": 2} and 6 in martha.crit
    assert len(martha.starting_cards) == 4 and martha.bag_items == 2
    assert set(martha.check_skill) == {"knowledge", "action", "dodge"}
    bow, spear = ITEMS["bow"], ITEMS["spear"]
    assert (bow.range, bow.damage, bow.rate, bow.mods.get("attack", 0)) == (3, 2, 3, 0)
    assert (spear.range, spear.damage) == (2, 2)
    assert ITEMS["shield"].mods["dodge"] == 2 and ITEMS["chain_armour"].mods["dodge"] == -2
    assert ITEMS["leather_armour"].weight == 2 and ITEMS["pickaxe"].weight == 2 and ITEMS["battle_hammer"].crit == (4,)
    a01 = ACTION_CARDS["A01"]
    assert (a01.move, a01.attack) == (1, -1)  # Fig 85
    assert any(3 in c.crit for c in ACTION_CARDS.values())  # Fig 99
    enemies = {e.number: e for e in ENEMY_PACK.enemies}
    assert (enemies["03"].dodge, enemies["03"].armor, enemies["03"].constitution) == (4, 0, 2)  # Fig 88
    assert enemies["01"].constitution == enemies["07"].constitution == 2  # Fig 80
    dog = next(e for e in ENEMY_PACK.enemies if e.name == "Farm Dog")
    assert dog.reaction.trigger == "attack" and dog.reaction.values == (5, 6)  # Fig 91
    assert {"01", "03", "05", "07"} <= set(enemies)
    fig75 = CONFLICTS["Y701"]
    assert fig75.compass == {"down": 1, "left": 2, "right": 3, "up": 4}  # Fig 95 as read in AMB-6
    assert [n for n, _ in fig75.placements[0].enemies] == ["01", "07"] and fig75.placements[0].chapters == (1, 4)


def test_every_entry_has_provenance_and_designed_values_say_so() -> None:
    entries = [*TERRAIN_PACK.cards, *ENCOUNTER_PACK.cards, *ENEMY_PACK.enemies, *ITEMS.values(), *ACTION_CARDS.values(),
               *CONFLICTS.values(), *LOADOUTS, *CHARACTERS.values()]
    for entry in entries:
        assert entry.provenance.ref.strip()
    assert {e.provenance.source for e in entries} == {"rulebook", "inferred", "designed"}
    assert all(c.provenance.source == "designed" for c in TERRAIN_PACK.cards)


def test_enemy_cards_are_well_formed() -> None:
    for e in ENEMY_PACK.enemies:
        assert 3 <= len(e.lines) <= 4 and all(1 <= len(line) <= 2 for line in e.lines)  # W-CO-10
        assert 1 <= e.constitution <= 7  # Hit Point Cards (W-CO-07)
        assert 1 <= e.reaction_value <= 6 and set(e.reaction.values) <= set(range(1, 7))
        if e.reaction.trigger == "sight":
            assert e.reaction.range >= 1 and e.reaction.kind in ("retreat", "first_strike")
        if "critical" in e.skills:
            assert e.crit


@pytest.mark.parametrize("conflict", sorted(CONFLICTS))
def test_every_conflict_sets_up_legally(conflict: str) -> None:
    board = conflict_board(conflict)
    definition = CONFLICTS[conflict]
    assert sorted(definition.compass.values()) == [1, 2, 3, 4]
    spans = [p.chapters for p in definition.placements]
    assert spans[0][0] == 1 and spans[-1][1] == 14
    for chapter in range(1, 15):
        sheet, _ = skirmish_sheet(chapter, Rng(chapter))
        check_equipment(sheet, sheet.equipped, sheet.stored)
        assert len(sheet.hand) == stats(sheet)["constitution"]
        fight = new_fight(conflict, chapter, sheet)
        cells = [fight.cell, *(f.cell for f in fight.foes)]
        assert len(set(cells)) == len(cells) and all(can_stand(board, c) for c in cells)
        assert 1 <= len(fight.foes) <= 4
