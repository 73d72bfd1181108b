"""Scenarios SC-T30, SC-T32..SC-T37: Resolution, scoring and ties, the solo variant, GloomFall."""

from __future__ import annotations

from gamehall.games.tiny_epic_quest import GAME
from gamehall.games.tiny_epic_quest.actions import Idle, Provoke, Select
from gamehall.games.tiny_epic_quest.flow import pump
from gamehall.games.tiny_epic_quest.night import start_night
from gamehall.games.tiny_epic_quest.scoring import victory_points
from gamehall.games.tiny_epic_quest.state import (
    AGGRESSIVE,
    NO_GOBLIN,
    PASSIVE,
    RESTED,
    Phase,
    State,
    portal_region,
)
from gamehall.games.tiny_epic_quest.tables import FOOT as FOOT_CARD
from gamehall.games.tiny_epic_quest.tables import GRYPHON as GRYPHON_CARD
from gamehall.games.tiny_epic_quest.tables import HORSE, RAFT, SHIP, SWORD

from .builders import D, M, P, T, act, copy, legal, new, night, quiet_row, roll


def _portals(s: State) -> list[int]:
    return [slot for slot in range(17) if portal_region(s, slot) >= 0]


def _end_night(s: State) -> State:
    s = copy(s)
    s.pending = []
    start_night(s)
    s.status = [RESTED] * s.seats
    s.holder = -1
    pump(s, [])
    return s


def test_SC_T30_resolution_sequence() -> None:
    s = new(seats=3)
    portals = _portals(s)
    for i, slot in enumerate(portals):
        s.goblin[slot] = [PASSIVE, PASSIVE, AGGRESSIVE, NO_GOBLIN, NO_GOBLIN, NO_GOBLIN, NO_GOBLIN][i]
    s.magic = 6
    s.used = [True, True, True, True, False]
    after = _end_night(s)
    assert [after.goblin[slot] for slot in portals[:3]] == [AGGRESSIVE] * 3
    assert [after.goblin[slot] for slot in portals[3:]] == [PASSIVE] * 4
    assert after.supply == 5 and after.magic == 0 and after.used == [False] * 5
    assert after.first == 1 and after.no_quest_by_day is True and after.round == 2


def test_SC_T32_scoring_and_ties() -> None:
    s = new(seats=2)
    s.spell[0], s.quests_done[0], s.goblins[0], s.legend[0] = 4, [0, 1, 2], 2, [2, 0, 0]
    assert victory_points(s, 0) == 2 + 3 + 3 + 4 == 12
    assert victory_points(s, 1) == -9
    s.phase = Phase.OVER
    s.spell, s.goblins, s.legend = [0, 0], [0, 0], [[0, 0, 0], [0, 0, 0]]
    s.quests_done = [[0, 1, 2, 3], [4, 5, 6]]  # A 4 quests (6 VP), B 3 quests (3 VP)
    s.spell = [3, 0]  # A: 1 + 6 - 2 = 5
    s.goblins = [0, 3]  # B: -4 + 3 + 6 = 5
    assert victory_points(s, 0) == victory_points(s, 1) == 5
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.ranks == (1, 2)  # most quests breaks the tie
    s.quests_done = [[0, 1, 2], [4, 5, 6]]
    s.goblins = [3, 3]
    s.spell = [0, 0]
    assert victory_points(s, 0) == victory_points(s, 1)
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.ranks == (1, 1)  # complete equality shares the victory


def test_SC_T33_solo_movement_drafting() -> None:
    s = new("solo", 1, difficulty="squire")
    s.solo_deck = [GRYPHON_CARD, SHIP, FOOT_CARD]
    s.options = [HORSE, RAFT]
    seen = []
    for pick in (HORSE, GRYPHON_CARD, RAFT, FOOT_CARD):
        seen.append(sorted(s.options))
        assert Select(pick) in legal(s, 0)
        s = act(s, 0, Select(pick))
        s = act(s, 0, Idle())
    assert seen == [[HORSE, RAFT], [RAFT, GRYPHON_CARD], [RAFT, SHIP], [SHIP, FOOT_CARD]]
    assert s.phase == 1 and s.options == [SHIP] and s.used.count(True) == 4 and not s.used[SHIP]


def test_SC_T34_solo_magic_table() -> None:
    expected = {0: (5, 3), 2: (5, 2), 4: (4, 1), 6: (2, 1)}  # magic space -> (health, power)
    for magic, (health, power) in expected.items():
        s = new("solo", 1)
        quiet_row(s)
        s.power[0] = 1
        s = night(s, holder=0, magic=magic)
        s, _ = roll(s, [D, D, P, P, T])
        assert (s.health[0], s.power[0]) == (health, power), magic
    s = new("solo", 1)
    s.power[0] = 1
    s = night(s, holder=0, magic=6)
    s, _ = roll(s, [M, M, T, T, T])
    assert s.health[0] == 4 and s.magic == 6


def test_SC_T35_solo_resolution() -> None:
    s = new("solo", 1)
    portals = _portals(s)
    for slot in portals[5:]:
        s.goblin[slot] = NO_GOBLIN
    s.no_quest_by_day = False  # a quest was completed this round: solo discards anyway
    row = list(s.row)
    s = copy(s)
    start_night(s)
    s.status = [RESTED]
    s.holder = -1
    pump(s, [])
    assert {type(a) for a in legal(s, 0)} == {Provoke}
    for slot in portals[:3]:
        s = act(s, 0, Provoke(slot))
    assert [s.goblin[slot] for slot in portals[:5]] == [AGGRESSIVE] * 3 + [PASSIVE] * 2
    assert [s.goblin[slot] for slot in portals[5:]] == [PASSIVE] * 2  # refilled
    assert s.row[1:] == row[:2] and row[2] in s.discard and s.round == 2


def test_SC_T36_solo_victory() -> None:
    s = new("solo", 1, difficulty="squire")
    s.phase = Phase.OVER
    s.quests_done[0], s.goblins[0], s.spell[0], s.legend[0] = list(range(8)), 6, 8, [0, 2, 0]
    s.hero_items[0] = [SWORD]
    assert victory_points(s, 0) == 50
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.reason.startswith("won")
    s.legend[0], s.spell[0] = [0, 0, 0], 9
    assert victory_points(s, 0) == 49
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.reason.startswith("lost")


def test_SC_T37_gloomfall_placement() -> None:
    s = new("gloomfall", 2)
    portals = _portals(s)
    assert all(s.goblin[slot] == AGGRESSIVE for slot in portals)
    s.goblin[portals[0]] = NO_GOBLIN
    s.goblins[0] = 1
    after = _end_night(s)
    assert after.goblin[portals[0]] == AGGRESSIVE and after.supply == s.supply - 1
