"""T-IT-02/03: items are exchanged freely at the Castle, full hands or not, with the ones kept by the player card.

Spec: ../shared/rules/tiny-epic-quest.md section 1.10.
"""

from __future__ import annotations

from gamehall.games.tiny_epic_quest.actions import Equip, Exchange
from gamehall.games.tiny_epic_quest.progress import give_item
from gamehall.games.tiny_epic_quest.state import HEROES
from gamehall.games.tiny_epic_quest.tables import HORN, SHIELD

from .builders import act, copy, day_turn, legal, new, put


def _full_hands_at_home():  # type: ignore[no-untyped-def]
    s = new(seats=2)
    for i in range(HEROES):
        s.hero_items[i] = [100 + 2 * i, 101 + 2 * i]  # every hand of seat 0 is full; its heroes start in its Castle
    return day_turn(s, "horse", selector=0)


def test_T_IT_03_full_hands_are_rearranged_by_exchange() -> None:
    s = _full_hands_at_home()
    assert not [a for a in legal(s, 0) if isinstance(a, Equip)]  # no free hand: no plain equip
    assert Exchange(100, 102) in legal(s, 0)
    after = act(s, 0, Exchange(100, 102))
    assert after.hero_items[0] == [102, 101] and after.hero_items[1] == [100, 103]


def test_T_IT_03_two_items_of_one_hero_do_not_exchange() -> None:
    assert Exchange(100, 101) not in legal(_full_hands_at_home(), 0)


def test_T_IT_02_a_kept_item_replaces_an_equipped_one() -> None:
    s = new(seats=2)
    for i in range(HEROES):
        s.hero_items[i] = [100 + 2 * i, 101 + 2 * i]
    give_item(s, 0, HORN)
    assert s.kept[0] == [HORN]  # no free hand: the Horn waits by the player card (T-IT-02)
    s.hero_items[0] = [SHIELD, 101]
    s = day_turn(s, "horse", selector=0)
    first, second = sorted((HORN, SHIELD))
    after = act(s, 0, Exchange(first, second))
    assert after.hero_items[0] == [HORN, 101] and after.kept[0] == [SHIELD]


def test_T_IT_03_not_outside_the_own_castle() -> None:
    s = _full_hands_at_home()
    away = copy(s)
    for i in range(HEROES):
        put(away, 0, i, away.home[1], "castle")
    assert not [a for a in legal(away, 0) if isinstance(a, Exchange)]
