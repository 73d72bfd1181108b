"""Each rule flag (an inferred reading, AMB-n) changes the result of at least one scenario."""

from __future__ import annotations

from gamehall.games.tiny_epic_quest import GAME
from gamehall.games.tiny_epic_quest.actions import Learn, Move, Rest
from gamehall.games.tiny_epic_quest.progress import discard_rightmost
from gamehall.games.tiny_epic_quest.state import AGGRESSIVE, PASSIVE, DecisionKind, State, portal_region
from gamehall.games.tiny_epic_quest.tables import QUEST_IS_TREASURE, SWORD

from .builders import (
    QUEST,
    D,
    M,
    T,
    act,
    all_passive,
    day_turn,
    legal,
    new,
    night,
    place,
    put,
    quiet_row,
    region,
    roll,
)


def test_every_flag_is_declared_with_the_spec_default() -> None:
    names = {o.name for o in GAME.flags}
    assert names == {
        "foot_diagonal",
        "quest_rule_every_refill",
        "night_quest_limit",
        "conjure_damage_last_space",
        "exhausted_skipped",
        "defend_any_damage",
        "legendary_strict_order",
        "single_learn_per_rest",
        "gloom_setup_aggressive",
        "treasure_return_bonus",
        "end_card_flips_goblin",
    }
    defaults = {o.name: o.default for o in GAME.flags}
    assert defaults["foot_diagonal"] and not defaults["single_learn_per_rest"] and not defaults["night_quest_limit"]


def _foot(**flags: bool) -> list[Move]:
    s = new(seats=2, **flags)
    place(s, 0, "land-04")
    put(s, 0, 0, 0, "obelisk")
    s = day_turn(s, "foot", selector=0)
    return [a for a in legal(s, 0) if isinstance(a, Move) and a.hero == 0]


def test_flag_foot_diagonal_AMB_2() -> None:
    assert {m.slot for m in _foot()} == {1, 2, 3, 4, 5, 6, 7, 8}
    assert {m.slot for m in _foot(foot_diagonal=False)} == {1, 2, 3, 4}


def test_flag_quest_rule_every_refill_AMB_3() -> None:
    def after_discard(flag: bool) -> list[bool]:
        s = new(seats=2, quest_rule_every_refill=flag)
        s.row = [QUEST["m01"], QUEST["m02"], QUEST["t01"]]
        rest = [q for q in range(24) if q not in s.row]
        s.quest_deck = [q for q in rest if QUEST_IS_TREASURE[q]] + [q for q in rest if not QUEST_IS_TREASURE[q]]
        s.discard = []
        discard_rightmost(s)
        return [QUEST_IS_TREASURE[q] for q in s.row]

    assert True in after_discard(True)
    assert after_discard(False) == [False, False, False]


def _two_temples_rest(**flags: bool) -> State:
    s = new(seats=2, **flags)
    place(s, 0, "land-01")  # Ice
    place(s, 1, "land-02")  # Shadow
    quiet_row(s, ("t01", "t03", "m01"))
    put(s, 0, 0, 0, "temple", prog=4)
    put(s, 0, 1, 1, "temple", prog=4)
    s.health[0] = 5
    s = night(s, holder=0)
    return act(s, 0, Rest())


def test_flag_night_quest_limit_AMB_4() -> None:
    assert len(_two_temples_rest().quests_done[0]) == 2
    assert len(_two_temples_rest(night_quest_limit=True).quests_done[0]) == 1


def test_flag_conjure_damage_last_space_AMB_5() -> None:
    s = night(new(seats=2), holder=0, magic=7)
    s.power = [0, 0]
    default, _ = roll(s, [M, T, T, T, T])
    assert default.magic == 8 and default.health[0] == 6
    s.rules.conjure_damage_last_space = False
    other, _ = roll(s, [M, T, T, T, T])
    assert other.magic == 7 and other.health[0] == 5


def test_flag_exhausted_skipped_AMB_6() -> None:
    s = night(new(seats=3), holder=0)
    s.power = [0, 0, 0]
    s.health[1] = 1
    default, _ = roll(s, [D, D, D, D, D])
    assert default.health[2] == 4  # R, N1 (exhausted), N2, R, then N2 again: N1 is skipped
    s.rules.exhausted_skipped = False
    other, _ = roll(s, [D, D, D, D, D])
    assert other.health[2] == 5  # the fifth symbol was N1's and is lost


def test_flag_defend_any_damage_AMB_7() -> None:
    s = night(new(seats=2), holder=0, magic=8)
    s.power = [2, 0]
    default, _ = roll(s, [M, T, T, T, T])
    assert default.pending and default.pending[0].kind == DecisionKind.DEFEND
    s.rules.defend_any_damage = False
    other, _ = roll(s, [M, T, T, T, T])
    assert not other.pending and other.health[0] == 5


def _shadow_then_ice(**flags: bool) -> State:
    s = new(seats=2, **flags)
    place(s, 0, "land-01")
    place(s, 1, "land-02")
    quiet_row(s)
    put(s, 0, 0, 1, "temple", prog=4)  # Shadow (the Sword's second temple) first
    s = act(night(s, holder=0), 0, Rest())
    s.pending = []
    put(s, 0, 0, 0, "temple", prog=4)  # then Ice
    s = act(night(s, holder=0), 0, Rest())
    while s.pending:
        seat = s.pending[0].seat
        s = act(s, seat, legal(s, seat)[0])
    return s


def test_flag_legendary_strict_order_AMB_9() -> None:
    assert _shadow_then_ice().legend[0][0] == 1
    relaxed = _shadow_then_ice(legendary_strict_order=False)
    assert relaxed.legend[0][0] == 2 and any(SWORD in relaxed.hero_items[i] for i in range(3))


def _two_obelisks(**flags: bool) -> State:
    s = new(seats=2, **flags)
    place(s, 0, "land-04")  # snake
    place(s, 1, "land-06")  # spider
    put(s, 0, 0, 0, "obelisk")
    put(s, 0, 1, 1, "obelisk")
    s = night(s, holder=0, magic=7)
    s = act(s, 0, Rest())
    return act(s, 0, Learn(1, 0))  # spider (level 3) first


def test_flag_single_learn_per_rest_AMB_10() -> None:
    assert _two_obelisks().spell[0] == 4  # then the snake obelisk reaches level 4
    assert _two_obelisks(single_learn_per_rest=True).spell[0] == 3


def test_flag_gloom_setup_aggressive_AMB_12() -> None:
    def sides(flag: bool) -> set[int]:
        s = new("gloomfall", 2, gloom_setup_aggressive=flag)
        return {s.goblin[slot] for slot in range(17) if portal_region(s, slot) >= 0}

    assert sides(True) == {AGGRESSIVE}
    assert sides(False) == {PASSIVE}


def _treasure_rest(**flags: bool) -> State:
    s = new(seats=2, **flags)
    place(s, 1, "land-02")
    quiet_row(s, ("m01", "m02", "t03"))
    s.quest_deck = [q for q in s.quest_deck if q != QUEST["t04"]]
    put(s, 0, 0, 1, "temple", prog=4)
    s.health[0] = 5
    s = act(night(s, holder=0), 0, Rest())
    while s.pending:
        seat = s.pending[0].seat
        s = act(s, seat, legal(s, seat)[0])
    return s


def test_flag_treasure_return_bonus_AMB_14() -> None:
    assert _treasure_rest().health[0] == 6
    assert _treasure_rest(treasure_return_bonus=False).health[0] == 5


def test_flag_end_card_flips_goblin_T_GB_02() -> None:
    def raft(**flags: bool) -> State:
        s = new(seats=2, **flags)
        place(s, 1, "land-04")
        place(s, 3, "land-06")
        all_passive(s)
        s.goblin[3] = AGGRESSIVE
        put(s, 0, 0, 1, "obelisk")
        quiet_row(s)
        s = day_turn(s, "raft", selector=0)
        return act(s, 0, Move(0, 3, region(s, 3, "obelisk"), 0))

    assert raft().goblin[3] == AGGRESSIVE
    assert raft(end_card_flips_goblin=True).goblin[3] == PASSIVE
