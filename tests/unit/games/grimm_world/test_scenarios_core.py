"""Core systems: Fate draws (SC-W08), stat aggregation (SC-W21), checks cost cards (SC-W57), alignment, damage."""

from __future__ import annotations

import pytest

from gamehall.engine import IllegalAction, Rng
from gamehall.games.grimm_world import alignment
from gamehall.games.grimm_world.catalog import ENCOUNTERS, NEXT_CHAPTER, TIME_PASSES
from gamehall.games.grimm_world.checks import exploration_damage, resolve_check
from gamehall.games.grimm_world.decks import draw_fate, end_of_round
from gamehall.games.grimm_world.sheet import EquipError, check_equipment, equip, stats, weapons, weight
from gamehall.games.grimm_world.state import Decks, Sheet


def _card(fate: int, skip: int = 0) -> str:
    return [k for k in sorted(ENCOUNTERS) if ENCOUNTERS[k].fate == fate][skip]


def test_SC_W08_fate_draw_mechanics() -> None:
    c1, c2 = _card(3), _card(5)
    decks = Decks([c1, c2, TIME_PASSES], [NEXT_CHAPTER], [])
    assert draw_fate(decks) == 3
    assert decks.encounter == [c2, TIME_PASSES, c1]
    assert draw_fate(decks) == 5
    # [TP, c1, c2]: 'Time Passes' is on top, so it is taken out at once (W-TM-02) and never read as a Fate Number
    assert decks.encounter == [c1, c2]
    assert decks.aside == [NEXT_CHAPTER, TIME_PASSES] and decks.surfaced == [TIME_PASSES]
    assert draw_fate(decks) == 3
    # once the round ends: reshuffle and put 'Next Chapter' underneath
    assert end_of_round(decks, Rng(1)) == [TIME_PASSES]
    assert sorted(decks.encounter[:2]) == sorted([c1, c2]) and decks.encounter[2] == NEXT_CHAPTER
    assert decks.aside == [TIME_PASSES] and decks.surfaced == []


def test_SC_W21_stat_aggregation_fig18() -> None:
    sheet = Sheet("martha", ["Y201", "Y202"], [], ["spear", "shield", "chain_armour"], [], [])
    st = stats(sheet)
    assert (st["action"], st["reaction"], st["regeneration"], st["constitution"], st["attack"]) == (4, 2, 5, 7, 1)
    assert weight(sheet.equipped) == 7 <= st["constitution"]
    assert st["dodge"] == 4 + 2 - 2
    assert [(w.key, w.range, w.damage) for w in weapons(sheet)] == [("fists", 1, 1), ("spear", 2, 2)]
    sheet.stored = ["club"]
    with pytest.raises(EquipError):
        equip(sheet, "club")
    # the weight limit on its own (Fig 68): Constitution 4, leather armour and pickaxe weigh 4, a hand is free
    fig68 = Sheet("martha", [], [], ["leather_armour", "pickaxe"], ["shield", "bow"], [])
    with pytest.raises(EquipError, match="weight 6 exceeds Constitution 4"):
        check_equipment(fig68, ["leather_armour", "pickaxe", "shield"], ["bow"])
    with pytest.raises(EquipError, match="bag holds 2"):
        check_equipment(fig68, fig68.equipped, ["shield", "bow", "club"])


def test_SC_W57_a_check_costs_cards() -> None:
    sheet = Sheet("martha", [], [], [], [], ["A02"])
    decks = Decks([_card(4), TIME_PASSES], [NEXT_CHAPTER], [])
    result = resolve_check(sheet, decks, "knowledge", ["A02"])
    assert sheet.hand == [] and sheet.damaged == ["A02"]
    assert result.result == stats(sheet)["knowledge"] + 1 + 4
    assert result.chapter_lost  # the hand ran empty: a chapter is lost once the check has resolved (AMB-11)
    with pytest.raises(IllegalAction):
        resolve_check(Sheet("martha", [], [], [], [], ["A01"]), decks, "charisma", ["A01"])


def test_check_star_card_uses_the_check_skill() -> None:
    """W-CK-04 (Figs 30-32): a star card gives +1 to Knowledge, Action or Dodge, chosen by the player."""
    sheet = Sheet("martha", ["Y201", "Y202"], [], [], [], ["A03", "A01", "A02", "A04"])
    decks = Decks([_card(1), TIME_PASSES], [NEXT_CHAPTER], [])
    result = resolve_check(sheet, decks, "action", ["A03"], star_stat="action")
    assert result.result == 4 + 1 + 1 and not result.chapter_lost and len(sheet.hand) == 3
    assert decks.encounter[-1] == _card(1)


def test_exploration_damage_armor_and_overflow() -> None:
    sheet = Sheet("martha", [], [], ["leather_armour"], [], ["A01", "A02"])
    assert not exploration_damage(sheet, 2, ["A01"])  # armour 1 absorbs one point
    assert sheet.hand == ["A02"] and sheet.damaged == ["A01"]
    assert exploration_damage(sheet, 5, ["A02"], direct=True)  # the rest is ignored (AMB-12)
    assert sheet.hand == [] and sheet.damaged == ["A01", "A02"]


def test_alignment_queries_and_changes() -> None:
    assert alignment.query(2, 1) and not alignment.query(2, -2)
    assert alignment.query(-3, -2) and not alignment.query(-1, -2) and not alignment.query(-3, -4)
    assert alignment.change(1, -1) == -1
    assert alignment.change(-2, -2, cap=-3) == -3
    assert alignment.change(3, 1, cap=2) == 3
    assert alignment.change(4, 1) == 4
    with pytest.raises(IllegalAction):
        alignment.query(0, 1)
