"""Scenarios SC-T01..SC-T12, SC-T29, SC-T31, SC-T38: setup, the map, Day movement, quests and items."""

from __future__ import annotations

import pytest

from gamehall.engine import IllegalAction
from gamehall.games.tiny_epic_quest import GAME
from gamehall.games.tiny_epic_quest.actions import Equip, Gain, Idle, Move, TakeQuest, UseGrotto
from gamehall.games.tiny_epic_quest.flow import pump
from gamehall.games.tiny_epic_quest.map import GEOMETRY
from gamehall.games.tiny_epic_quest.night import start_night
from gamehall.games.tiny_epic_quest.progress import refill_row
from gamehall.games.tiny_epic_quest.state import AGGRESSIVE, HEROES, PASSIVE, RESTED, DecisionKind, Phase
from gamehall.games.tiny_epic_quest.tables import (
    BOW,
    CASTLE_CARDS,
    HORN,
    PORTAL,
    QUEST_IS_TREASURE,
    REGIONS,
    SHIELD,
    TEMPLE_NAMES,
)

from .builders import (
    QUEST,
    act,
    all_passive,
    at_home,
    copy,
    day_turn,
    legal,
    new,
    place,
    put,
    quest_ids,
    quiet_row,
    region,
)


def test_SC_T01_setup_invariants() -> None:
    s = new(seats=3, seed=11)
    for p in range(3):
        assert (s.health[p], s.power[p], s.spell[p], s.status[p]) == (6, 3, 0, 0)
        assert s.legend[p] == [0, 0, 0]
        assert all(at_home(s, HEROES * p + i) for i in range(HEROES))
    assert s.magic == 0 and s.round == 1 and s.phase == Phase.DAY
    portals = [slot for slot in range(17) if any(r[0] == PORTAL for r in REGIONS[0][s.cards[slot]])]
    assert len(portals) == 7 and all(s.goblin[slot] == PASSIVE for slot in portals)
    assert s.supply == 9
    assert s.used == [False] * 5
    kinds = [QUEST_IS_TREASURE[q] for q in s.row]
    assert len(s.row) == 3 and True in kinds and False in kinds
    assert s.no_quest_by_day is True and s.first == 0


def test_SC_T02_quest_row_requirement_at_setup() -> None:
    s = new(seats=2)
    movement = [QUEST[f"m0{i}"] for i in (1, 2, 3)]
    treasure = QUEST["t01"]
    s.row, s.discard = [], []
    s.quest_deck = [QUEST["t02"], treasure, *reversed(movement)]  # top of the deck is the end of the list
    refill_row(s, enforce=True)
    assert quest_ids(s) == ["t01", "m02", "m01"]
    assert [q for q in s.discard] == [QUEST["m03"]]


def test_SC_T03_map_construction() -> None:
    for seed in range(5):
        s = new(seats=4, seed=seed)
        assert sorted(s.cards) == list(range(17))
        assert sorted(s.cards[slot] for slot in GEOMETRY.castles) == sorted(CASTLE_CARDS)
        assert len(GEOMETRY.ring) == 12 and GEOMETRY.coast == set(GEOMETRY.outer) | set(GEOMETRY.castles)
        assert not set(GEOMETRY.cross) & GEOMETRY.coast
    # The castles sit on the diagonal corners of the cross: each touches two cross arms orthogonally.
    for castle in GEOMETRY.castles:
        assert len(set(GEOMETRY.adjacent_orth[castle]) & set(GEOMETRY.cross)) == 2
        assert GEOMETRY.cross[0] in GEOMETRY.adjacent[castle]


@pytest.mark.parametrize(("seats", "expected"), [(2, [0, 1, 0, 1]), (3, [0, 1, 2, 0]), (4, [0, 1, 2, 3])])
def test_SC_T04_day_turn_order(seats: int, expected: list[int]) -> None:
    s = new(seats=seats)
    selectors = []
    used_before_night = None
    while s.phase == Phase.DAY:
        (seat,) = GAME.to_act(s)
        if s.card < 0:
            selectors.append(seat)
            s = act(s, seat, legal(s, seat)[0])
        else:
            before = list(s.used)
            s = act(s, seat, Idle())
            if s.phase == Phase.NIGHT:
                used_before_night = before
    assert selectors == expected
    assert used_before_night is not None and used_before_night.count(False) == 2
    assert s.used.count(False) == 1  # exactly one Movement card unused after 4 turns


def _raft_fixture(power: int, **flags: bool):  # type: ignore[no-untyped-def]
    s = new(seats=2, **flags)
    place(s, 1, "land-04")  # A
    place(s, 0, "land-05")  # B: portal
    place(s, 3, "land-06")  # C: portal
    all_passive(s)
    s.goblin[0] = s.goblin[3] = AGGRESSIVE
    put(s, 0, 0, 1, "obelisk")
    s.power[0] = power
    quiet_row(s)
    return day_turn(s, "raft", selector=0)


def test_SC_T05_raft_through_aggressive_goblin() -> None:
    s = _raft_fixture(power=2)
    s = act(s, 0, Move(0, 3, region(s, 3, "portal"), 0))
    assert s.power[0] == 1
    assert s.goblin[0] == PASSIVE and s.goblin[3] == PASSIVE
    assert (s.hero_slot[0], s.hero_region[0]) == (3, region(s, 3, "portal"))


def test_SC_T06_raft_without_power_is_rejected() -> None:
    s = _raft_fixture(power=0)
    before = copy(s)
    move = Move(0, 3, region(s, 3, "portal"), 0)
    assert move not in legal(s, 0)
    with pytest.raises(IllegalAction):
        act(s, 0, move)
    assert s == before


def test_SC_T07_ending_on_the_non_portal_region() -> None:
    s = _raft_fixture(power=2)
    s = act(s, 0, Move(0, 3, region(s, 3, "obelisk"), 0))
    assert s.power[0] == 1 and s.goblin[0] == PASSIVE
    assert s.goblin[3] == AGGRESSIVE


def _ship_fixture(power: int):  # type: ignore[no-untyped-def]
    s = new(seats=2)
    place(s, 9, "land-01")
    place(s, 10, "land-02")
    all_passive(s)
    s.goblin[9] = s.goblin[10] = AGGRESSIVE
    put(s, 0, 0, 5, "castle")
    s.power[0] = power
    s.health[0] = 5  # so the Castle arrival bonus waits for a choice and Power shows only the toll
    quiet_row(s)
    return day_turn(s, "ship", selector=0)


def test_SC_T08_ship_around_the_coast() -> None:
    s = _ship_fixture(power=2)
    castle6 = region(s, 6, "castle")
    clockwise, counter = Move(0, 6, castle6, 0), Move(0, 6, castle6, 1)
    assert clockwise in legal(s, 0) and counter in legal(s, 0)
    after = act(s, 0, clockwise)
    assert after.power[0] == 0 and after.goblin[9] == PASSIVE and after.goblin[10] == PASSIVE
    after = act(s, 0, counter)
    assert after.power[0] == 2 and after.goblin[9] == AGGRESSIVE
    poor = _ship_fixture(power=1)
    assert clockwise not in legal(poor, 0) and counter in legal(poor, 0)
    # No hero on the coast: Ship offers nothing but Idle.
    inland = _ship_fixture(power=3)
    for i in range(HEROES):
        put(inland, 0, i, 0, region_kind(inland, 0))
    assert [a for a in legal(inland, 0) if isinstance(a, Move)] == []
    assert Idle() in legal(inland, 0)


def test_SC_T09_idle_at_a_castle() -> None:
    s = new(seats=2)
    s.health[0], s.power[0] = 4, 2
    put(s, 0, 2, s.home[1], "castle")
    s = day_turn(s, "horse", selector=0)
    s = act(s, 0, Idle())
    assert (s.pending[0].seat, s.pending[0].kind, s.pending[0].value) == (0, DecisionKind.GAIN, 1)
    s = act(s, 0, Gain(1))
    assert (s.health[0], s.power[0]) == (5, 2)
    assert not s.pending
    # Idling with no hero in any castle gives nothing.
    t = new(seats=2)
    place(t, 1, "land-11")
    place(t, 0, "land-12")
    for i in range(HEROES):
        put(t, 0, i, 1 if i < 2 else 0, "grotto")
    t.hero_region[1] = 1 - t.hero_region[0]
    t.health[0] = 4
    t = day_turn(t, "horse", selector=0)
    t = act(t, 0, Idle())
    assert t.health[0] == 4 and not t.pending


def test_SC_T10_castle_arrival_and_retrigger() -> None:
    s = new(seats=2)
    place(s, 1, "land-11")
    h = put(s, 0, 0, 1, "grotto")
    s.health[0], s.power[0] = 5, 2
    s = day_turn(s, "foot", selector=0)
    castle = s.home[0]
    if castle not in GEOMETRY.adjacent[1]:
        castle = next(c for c in GEOMETRY.castles if c in GEOMETRY.adjacent[1])
    s = act(s, 0, Move(0, castle, region(s, castle, "castle"), 0))
    s = act(s, 0, Gain(0))
    assert s.power[0] == 3 and s.hero_slot[h] == castle
    # Next turn the hero is still in the castle: Idling gives only the Idle bonus (one gain).
    s = day_turn(s, "horse", selector=0)
    s = act(s, 0, Idle())
    assert s.health[0] == 6 and s.power[0] == 3 and not s.pending


def _temple_fixture(seats: int):  # type: ignore[no-untyped-def]
    s = new(seats=seats)
    place(s, 0, "land-01")  # Ice temple + portal
    place(s, 1, "land-11")
    for p in range(seats):
        put(s, p, 0, 1, "grotto")
    return s


def test_SC_T11_temple_occupancy() -> None:
    s = _temple_fixture(3)
    temple = region(s, 0, "temple")
    put(s, 0, 1, 0, "temple")
    s = day_turn(s, "raft", selector=0)
    assert Move(0, 0, temple, 0) not in legal(s, 0)  # P1's second hero
    s = act(s, 0, Idle())
    s.pending = []
    assert Move(0, 0, temple, 0) in legal(s, 1)  # P2 may enter
    s = act(s, 1, Move(0, 0, temple, 0))
    s.pending = []
    assert s.actor == 2
    assert Move(0, 0, temple, 0) not in legal(s, 2)  # full: two players already inside


def test_SC_T12_obelisk_grotto_portal_occupancy() -> None:
    s = new(seats=3)
    place(s, 0, "land-04")  # portal + snake obelisk
    place(s, 1, "land-11")  # two grottos
    obelisk, portal = region(s, 0, "obelisk"), region(s, 0, "portal")
    put(s, 0, 0, 1, "grotto")
    put(s, 0, 1, 0, "obelisk")
    put(s, 1, 0, 1, "grotto")
    put(s, 2, 0, 1, "grotto")
    s = day_turn(s, "raft", selector=0)
    assert Move(0, 0, obelisk, 0) not in legal(s, 0)  # a second P1 hero on the obelisk
    s = act(s, 0, Idle())
    s = act(s, 1, Move(0, 0, obelisk, 0))
    s.pending = []
    assert Move(0, 0, obelisk, 0) in legal(s, 2)  # P3 joins P1 and P2
    t = copy(s)
    put(t, 0, 2, 0, "portal")
    assert Move(0, 0, portal, 0) not in legal(t, 2)  # the portal already holds a hero
    assert Move(0, 0, portal, 0) in legal(s, 2)


def test_SC_T29_one_quest_per_turn_token_and_discard() -> None:
    s = new(seats=2)
    place(s, 2, "land-04")  # obelisk at the end of the road
    all_passive(s)
    put(s, 0, 0, 16, region_kind(s, 16))
    s.row = [QUEST["m02"], QUEST["m05"], QUEST["t01"]]
    s.quest_deck = [q for q in s.quest_deck if q not in s.row]
    s = day_turn(s, "horse", selector=0)
    s = act(s, 0, Move(0, 2, region(s, 2, "obelisk"), 0))
    assert sorted(s.choices) == sorted([QUEST["m02"], QUEST["m05"]])
    assert {type(a) for a in legal(s, 0)} == {TakeQuest}
    s = act(s, 0, TakeQuest(QUEST["m05"]))
    assert s.quests_done[0] == [QUEST["m05"]] and len(s.row) == 3 and QUEST["m02"] in s.row
    assert s.no_quest_by_day is False
    row = list(s.row)
    end = _resolve_round(s)
    assert end.row == row  # no discard: a quest was taken by Day
    fresh = copy(s)
    fresh.no_quest_by_day = True
    end = _resolve_round(fresh)
    assert end.row[1:] == row[:2] and row[2] in end.discard


def region_kind(s, slot):  # type: ignore[no-untyped-def]
    """The type name of the left region of the card at `slot`."""
    return {0: "castle", 1: "temple", 2: "obelisk", 3: "grotto", 4: "portal"}[REGIONS[s.side][s.cards[slot]][0][0]]


def _resolve_round(s):  # type: ignore[no-untyped-def]
    s = copy(s)
    s.pending = []
    start_night(s)
    s.status = [RESTED] * s.seats
    s.holder = -1
    pump(s, [])
    return s


def test_SC_T31_day_temple_completion_through_grotto() -> None:
    s = new(seats=2)
    place(s, 3, "land-01")  # Ice temple
    place(s, 1, "land-11")  # Glowcap Grotto (advance) on the left
    all_passive(s)
    h = put(s, 0, 0, 3, "temple", prog=3)
    put(s, 0, 1, 0, region_kind(s, 0))
    s.row = [QUEST["m01"], QUEST["t01"], QUEST["m02"]]
    s.quest_deck = [q for q in s.quest_deck if q not in s.row]
    s.health[0], s.power[0] = 5, 2
    s = day_turn(s, "raft", selector=0)
    s = act(s, 0, Move(1, 1, 0, 0))
    assert UseGrotto(0) in legal(s, 0)
    s = act(s, 0, UseGrotto(0))
    assert at_home(s, h)
    s = act(s, 0, Gain(1))
    assert s.health[0] == 6
    if s.pending:
        s = act(s, 0, Equip(BOW, 2))
    assert QUEST["t01"] in s.quests_done[0] and s.no_quest_by_day is False
    assert any(BOW in s.hero_items[3 * 0 + i] for i in range(HEROES))
    assert s.legend[0][0] == 1 and TEMPLE_NAMES[0] == "Ice"


def test_SC_T38_equipping() -> None:
    s = new(seats=2)
    for i in range(HEROES):
        s.hero_items[i] = [100 + 2 * i, 101 + 2 * i]
    from gamehall.games.tiny_epic_quest.progress import give_item

    give_item(s, 0, HORN)
    assert s.kept[0] == [HORN] and not s.pending
    s.hero_items[0] = [SHIELD]
    s = day_turn(s, "horse", selector=0)
    assert Equip(HORN, 0) in legal(s, 0)
    s2 = act(s, 0, Equip(HORN, 0))
    assert s2.hero_items[0] == [SHIELD, HORN] and s2.kept[0] == []
    # Not from another player's castle.
    away = copy(s)
    for i in range(HEROES):
        put(away, 0, i, away.home[1], "castle")
    assert not [a for a in legal(away, 0) if isinstance(a, Equip)]
