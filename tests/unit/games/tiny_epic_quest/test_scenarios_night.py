"""Scenarios SC-T13..SC-T28: dice distribution, defending, magic, temples, goblins, exhaustion, spells, Rest."""

from __future__ import annotations

from gamehall.games.tiny_epic_quest import GAME
from gamehall.games.tiny_epic_quest.actions import (
    Advance,
    Defend,
    Gain,
    Learn,
    Rest,
    Strike,
)
from gamehall.games.tiny_epic_quest.state import (
    EXHAUSTED,
    HEROES,
    NO_GOBLIN,
    RESTED,
    DecisionKind,
    max_health,
    max_power,
)
from gamehall.games.tiny_epic_quest.tables import BOW, CLOAK, LEGENDARY_ITEMS, SHIELD, STAFF, SWORD

from .builders import QUEST, A, D, M, P, S, T, act, all_passive, at_home, legal, new, night, place, put, quiet_row, roll

HOME = "castle"


def _players(seats: int, power: int = 0):  # type: ignore[no-untyped-def]
    s = new(seats=seats)
    s.power = [power] * seats
    quiet_row(s)
    return s


def test_SC_T13_take_damage_distribution() -> None:
    s = night(_players(3), holder=0)
    after, _ = roll(s, [D, D, D, T, S])
    assert after.health == [5, 5, 5]
    two = night(_players(3), holder=0)
    two.status[2] = RESTED
    after, _ = roll(two, [D, D, D, T, S])
    assert after.health[:2] == [4, 5] and after.health[2] == 6
    level2 = night(_players(3), holder=0, magic=5)
    level2.status[2] = RESTED
    after, _ = roll(level2, [D, D, D, T, S])
    assert after.health[:2] == [2, 4]
    level3 = night(_players(3), holder=0, magic=7)
    level3.status[2] = RESTED
    level3.goblins[0] = 4
    level3.health[0] = max_health(level3, 0)
    after, _ = roll(level3, [D, D, D, T, S])
    assert (after.health[0], after.health[1]) == (10 - 6, 3)


def test_SC_T14_defending() -> None:
    s = night(_players(2), holder=0, magic=5)
    s.power[0] = 3
    s, _ = roll(s, [D, D, T, T, S])
    assert (s.pending[0].seat, s.pending[0].kind, s.pending[0].value) == (0, DecisionKind.DEFEND, 2)
    s = act(s, 0, Defend())
    assert (s.power[0], s.health[0]) == (1, 6)
    assert s.health[1] == 4  # N1 (Power 0) cannot defend and loses 2
    shielded = night(_players(2), holder=0, magic=5)
    shielded.power[0] = 3
    shielded.hero_items[1] = [SHIELD]
    shielded, _ = roll(shielded, [D, T, T, S, S])
    shielded = act(shielded, 0, Defend())
    assert (shielded.power[0], shielded.health[0]) == (2, 6)
    poor = night(_players(2, power=1), holder=0, magic=5)
    poor, _ = roll(poor, [D, T, T, S, S])
    assert not poor.pending and poor.health[0] == 4


def test_SC_T15_gain_power_distribution() -> None:
    s = night(_players(2), holder=0)
    s.power = [3, 1]
    after, _ = roll(s, [P, P, P, T, S])
    assert after.power == [3, 2]
    level2 = night(_players(2), holder=0, magic=5)
    level2.power = [1, 1]
    after, _ = roll(level2, [P, P, P, T, S])
    assert after.power == [1, 1]


def test_SC_T16_resolution_uses_pre_roll_magic_level() -> None:
    s = night(_players(2), holder=0, magic=4)  # the last Level-1 space
    s.status[1] = RESTED
    after, _ = roll(s, [D, D, M, M, T])
    assert after.health[0] == 4  # 1 per symbol at Level 1, not 2
    assert after.magic == 6


def test_SC_T17_conjure_at_the_last_space() -> None:
    s = night(_players(2), holder=0, magic=7)
    after, _ = roll(s, [M, M, M, T, S])
    assert after.magic == 8
    assert after.health == [5, 5]


def _temple_night():  # type: ignore[no-untyped-def]
    s = _players(2)
    place(s, 0, "land-03")  # Fire: torch, torch, 2 scrolls, scroll
    place(s, 1, "land-02")  # Shadow: scroll, torch, 2 torches, scroll
    place(s, 3, "land-09")  # Sky: torch, scroll, 2 scrolls, torch
    all_passive(s)
    return s


def test_SC_T18_torch_example_shared_dice() -> None:
    s = _temple_night()
    p1 = put(s, 0, 0, 0, "temple", prog=0)
    p2 = put(s, 1, 0, 1, "temple", prog=2)
    s = night(s, holder=0)
    s, _ = roll(s, [T, T, A, A, A])
    assert GAME.to_act(s) == frozenset({0, 1})
    s = act(s, 0, Advance(0))
    s = act(s, 0, Advance(0))
    s = act(s, 1, Advance(0))
    assert (s.hero_progress[p1], s.hero_progress[p2]) == (2, 3)
    assert not GAME.to_act(s) or GAME.to_act(s) == frozenset({1})
    split = _temple_night()
    a = put(split, 0, 0, 0, "temple", prog=0)
    b = put(split, 0, 1, 3, "temple", prog=0)
    split = night(split, holder=0)
    split, _ = roll(split, [T, T, A, A, A])
    split = act(split, 0, Advance(0))
    split = act(split, 0, Advance(1))
    assert (split.hero_progress[a], split.hero_progress[b]) == (1, 1)
    assert Advance(0) not in legal(split, 0) and Advance(1) not in legal(split, 0)


def test_SC_T19_double_space_and_forge_ahead() -> None:
    s = _temple_night()
    h = put(s, 0, 0, 0, "temple", prog=2)  # next space: 2 scrolls
    s.power[0] = 2
    s = night(s, holder=0)
    after, _ = roll(s, [S, T, A, A, A])
    after = act(after, 0, Advance(0))
    assert after.hero_progress[h] == 3 and after.power[0] == 0
    rich = _temple_night()
    h = put(rich, 0, 0, 0, "temple", prog=2)
    rich.power[0] = 4
    rich = night(rich, holder=0)
    rich, _ = roll(rich, [T, T, A, A, A])
    rich = act(rich, 0, Advance(0))
    assert rich.hero_progress[h] == 3 and rich.power[0] == 0
    # A player who is not rolling may forge during another player's roll.
    other = _temple_night()
    h1 = put(other, 1, 0, 1, "temple", prog=0)
    other.power[1] = 2
    other = night(other, holder=0)
    other, _ = roll(other, [T, T, A, A, A], holder=0)
    assert 1 in GAME.to_act(other)
    other = act(other, 1, Advance(0))
    assert other.hero_progress[h1] == 1 and other.power[1] == 0


def _goblin_night(**kw: int):  # type: ignore[no-untyped-def]
    s = _players(2, **kw)
    place(s, 0, "land-04")
    place(s, 1, "land-05")
    place(s, 3, "land-06")
    all_passive(s)
    return s


def test_SC_T20_attack_example() -> None:
    s = _goblin_night()
    put(s, 0, 0, 0, "portal")
    put(s, 1, 0, 1, "portal")
    s = night(s, holder=0)
    s, _ = roll(s, [A, A, T, T, S])
    for seat, slot in ((0, 0), (1, 1)):
        s = act(s, seat, Strike(0, slot))
        s = act(s, seat, Strike(0, slot))
    assert s.goblin_damage[0] == 2 and s.goblin_damage[1] == 2
    split = _goblin_night()
    put(split, 0, 0, 0, "portal")
    put(split, 0, 1, 3, "portal")
    split = night(split, holder=0)
    split, _ = roll(split, [A, A, T, T, S])
    one_each = act(act(split, 0, Strike(0, 0)), 0, Strike(1, 3))
    assert (one_each.goblin_damage[0], one_each.goblin_damage[3]) == (1, 1)
    both = act(act(split, 0, Strike(1, 3)), 0, Strike(1, 3))
    assert (both.goblin_damage[0], both.goblin_damage[3]) == (0, 2)


def test_SC_T21_defeating_a_goblin() -> None:
    s = _goblin_night()
    h = put(s, 0, 0, 0, "portal")
    s = night(s, holder=0)
    s.goblin_damage[0] = 4
    s, _ = roll(s, [A, T, T, S, S])
    s = act(s, 0, Strike(0, 0))
    assert s.goblins[0] == 1 and max_health(s, 0) == 7 and s.goblin[0] == NO_GOBLIN
    assert 0 not in GAME.to_act(s)  # nothing left to use: the dice moved on
    while s.holder != 0:
        seat = next(iter(GAME.to_act(s)))
        s = act(s, seat, GAME.default_action(s, seat))  # type: ignore[arg-type]
    s.power[0] = 1
    s = act(s, 0, Rest())
    assert at_home(s, h)
    s = act(s, 0, Gain(0))
    assert s.power[0] == 2


def test_SC_T22_goblin_damage_resets() -> None:
    s = _goblin_night()
    h = put(s, 0, 0, 0, "portal")
    s = night(s, holder=0)
    s.goblin_damage[0] = 3
    s = act(s, 0, Rest())
    assert at_home(s, h) and s.goblin_damage[0] == 0 and s.goblin[0] != NO_GOBLIN


def test_SC_T23_exhaustion() -> None:
    s = _players(2)
    place(s, 0, "land-01")  # Ice temple
    place(s, 1, "land-11")  # grottos
    place(s, 3, "land-04")  # snake obelisk
    heroes = [put(s, 0, 0, 0, "temple", prog=4), put(s, 0, 1, 1, "grotto"), put(s, 0, 2, 3, "obelisk")]
    s.spell[0] = 2
    s.health[0] = 1
    s = night(s, holder=0, magic=7)
    assert max_power(s, 0) == 5
    s, _ = roll(s, [D, T, S, S, A])
    assert s.status[0] == EXHAUSTED
    assert (s.health[0], s.power[0], s.spell[0], max_power(s, 0)) == (6, 3, 1, 4)
    assert all(at_home(s, h) for h in heroes)
    assert s.legend[0] == [0, 0, 0] and s.quests_done[0] == []
    assert s.holder == 1 and 0 not in GAME.to_act(s)


def _obelisk(spell_card: str, magic: int, spell: int = 0, power: int = 0):  # type: ignore[no-untyped-def]
    s = _players(2, power=power)
    place(s, 0, spell_card)
    h = put(s, 0, 0, 0, "obelisk")
    s.spell[0] = spell
    s.health[0] = 5
    return night(s, holder=0, magic=magic), h


def test_SC_T24_spell_learning() -> None:
    s, h = _obelisk("land-04", magic=2)  # snake, level 1
    s = act(s, 0, Rest())
    assert s.spell[0] == 1 and max_power(s, 0) == 4 and at_home(s, h)
    s, h = _obelisk("land-04", magic=0)
    s = act(s, 0, Rest())
    assert s.spell[0] == 0 and at_home(s, h)
    for card, level, too_low, enough in (("land-05", 2, 4, 5), ("land-06", 3, 6, 7)):
        low, _ = _obelisk(card, magic=too_low)
        assert act(low, 0, Rest()).spell[0] == 0
        ok, _ = _obelisk(card, magic=enough)
        assert act(ok, 0, Rest()).spell[0] == level


def test_SC_T25_staff_example() -> None:
    s, h = _obelisk("land-06", magic=4, power=3)  # spider (level 3); the token on the 5th space
    s.hero_items[h] = [STAFF]
    s = act(s, 0, Rest())
    assert Learn(0, 3) in legal(s, 0)
    s = act(s, 0, Learn(0, 3))
    assert s.spell[0] == 3 and s.power[0] == 0 and s.magic == 4
    s = act(s, 0, Gain(1))
    assert s.power[0] == 0


def test_SC_T26_sword_card_example() -> None:
    s = _goblin_night(power=5)
    h = put(s, 0, 0, 0, "portal")
    s.spell[0] = 2
    s.power[0] = 5
    s.hero_items[h] = [SWORD]
    s = night(s, holder=0)
    s, _ = roll(s, [A, T, T, S, S])
    for _ in range(5):
        s = act(s, 0, Strike(0, 0))
    assert s.goblins[0] == 1 and s.power[0] == 1 and s.goblin[0] == NO_GOBLIN
    # The Sword works while another player rolls, and not away from a portal.
    other = _goblin_night(power=3)
    h = put(other, 0, 0, 0, "portal")
    other.hero_items[h] = [SWORD]
    other = night(other, holder=1)
    other, _ = roll(other, [T, T, S, S, S], holder=1)
    assert Strike(0, 0) in legal(other, 0)
    away = _goblin_night(power=3)
    h = put(away, 0, 0, 0, "obelisk")
    away.hero_items[h] = [SWORD, BOW]
    away = night(away, holder=0)
    assert not [a for a in legal(away, 0) if isinstance(a, Strike)]
    # With the Bow from one card away the rolled symbol works, the Sword does not.
    away, _ = roll(away, [A, T, T, S, S])
    assert Strike(0, 1) in legal(away, 0)
    away = act(away, 0, Strike(0, 1))
    assert away.goblin_damage[1] == 1 and away.power[0] == 3
    assert Strike(0, 1) not in legal(away, 0)


def _rest_with_last_space(s, seat: int, temples: list[str]):  # type: ignore[no-untyped-def]
    slots = {"land-01": 0, "land-02": 1}
    s = night(s, holder=seat)
    for i, card in enumerate(temples):
        put(s, seat, i, slots[card], "temple", prog=4)
    return act(s, seat, Rest())


def test_SC_T27_legendary_sword() -> None:
    s = _players(2)
    place(s, 0, "land-01")  # Ice
    place(s, 1, "land-02")  # Shadow
    quiet_row(s)
    shadow_first = _rest_with_last_space(s, 0, ["land-02"])
    assert shadow_first.legend[0][0] == 0
    ice = _rest_with_last_space(s, 0, ["land-01"])
    assert ice.legend[0][0] == 1
    ice.pending = []
    sword = _rest_with_last_space(ice, 0, ["land-02"])
    assert sword.legend[0][0] == 2
    while sword.pending:
        seat = sword.pending[0].seat
        sword = act(sword, seat, legal(sword, seat)[0])
    assert any(SWORD in sword.hero_items[i] for i in range(HEROES))
    from gamehall.games.tiny_epic_quest.scoring import victory_points

    assert victory_points(sword, 0) - victory_points(ice, 0) == 4
    both = _rest_with_last_space(s, 0, ["land-01", "land-02"])
    assert both.legend[0][0] == 1
    assert LEGENDARY_ITEMS[0] == SWORD


def test_SC_T28_treasure_quest_at_night() -> None:
    s = _players(2)
    place(s, 1, "land-02")  # Shadow
    quiet_row(s, ("m01", "m02", "t03"))  # t03: Shadow -> Cloak
    s.quest_deck = [q for q in s.quest_deck if q != QUEST["t04"]]
    a = put(s, 0, 0, 1, "temple", prog=4)
    b = put(s, 1, 0, 1, "temple", prog=4)
    s = night(s, holder=1)
    s = act(s, 1, Rest())
    assert QUEST["t03"] in s.quests_done[1] and at_home(s, b) and len(s.row) == 3
    assert any(CLOAK in s.hero_items[3 + i] for i in range(HEROES)) or s.pending
    assert s.no_quest_by_day is True
    while s.pending:
        seat = s.pending[0].seat
        s = act(s, seat, legal(s, seat)[0])
    s = act(s, 0, Rest())
    assert s.quests_done[0] == [] and at_home(s, a)
    assert not any(CLOAK in s.hero_items[i] for i in range(HEROES))
    assert s.phase == 0 and s.round == 2  # both rested: Resolution ran and round 2 began
