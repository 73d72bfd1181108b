"""Automated enemies and Martha's reactions: action lines, the Decision Compass, random tie-breaks, reactions,
damage and Refresh (SC-W41..SC-W48)."""

from __future__ import annotations

import msgspec
import pytest

from gamehall.engine import IllegalAction
from gamehall.games.grimm_world import GAME
from gamehall.games.grimm_world.actions import Decline, React, Step, Stop, Wound
from gamehall.games.grimm_world.board import card_cells
from gamehall.games.grimm_world.catalog import UPGRADES
from gamehall.games.grimm_world.content.schema import UpgradeDef
from gamehall.games.grimm_world.moves import plan_away, plan_towards, random_pick
from gamehall.games.grimm_world.state import P_ATTACKED, P_DAMAGE, P_FIRST_STRIKE, P_RETREAT, FightPhase, Task

from .builders import FIG95, board, enemy, kinds, play, run_tasks, state, xy

LINES = enemy("TL", lines=[[{"kind": "attack"}], [{"kind": "towards", "value": 2}, {"kind": "attack"}],
                           [{"kind": "towards", "value": 4}]])
MOVER = enemy("TM", lines=[[{"kind": "towards", "value": 2}], [{"kind": "attack"}], [{"kind": "towards", "value": 1}]])
BRUTE = enemy("TA", attack=3, damage=3, constitution=5, lines=[
    [{"kind": "attack"}, {"kind": "attack"}], [{"kind": "towards", "value": 2}], [{"kind": "towards", "value": 3}]])
TOUGH = enemy("T9", armor=5, dodge=9, constitution=7)
UPGRADES["T-regen"] = msgspec.convert({
    "key": "T-regen", "name": "Weakened", "mods": {"regeneration": -1},
    "provenance": {"source": "designed", "ref": "test fixture: a red number"}}, UpgradeDef)


def _line(events: list) -> int:
    return kinds(events, "enemy_line")[0]["line"]


def test_SC_W41_action_line_selection() -> None:
    hand = ["A01"]
    adjacent = state(board(9, 2), (0, 0), [(LINES, (1, 0))], hand=hand, phase=FightPhase.ENEMY)
    assert _line(run_tasks(adjacent, Task("choose_line", 0))[1]) == 1
    near = state(board(9, 2), (0, 0), [(LINES, (3, 0))], hand=hand, phase=FightPhase.ENEMY)
    s, events = run_tasks(near, Task("choose_line", 0))
    assert _line(events) == 2 and xy(s, s.fight.foes[0].cell) == (1, 0) and kinds(events, "enemy_step")
    assert s.fight.prompt == P_ATTACKED or kinds(events, "attack")  # moved adjacent, then attacks
    far = state(board(9, 2), (0, 0), [(LINES, (7, 0))], hand=hand, phase=FightPhase.ENEMY)
    s, events = run_tasks(far, Task("choose_line", 0))
    assert _line(events) == 3 and xy(s, s.fight.foes[0].cell) == (3, 0)
    closed = board(9, 2, {(1, 0): "blocked", (0, 1): "blocked"})
    walled = state(closed, (0, 0), [(LINES, (4, 0))], hand=hand, phase=FightPhase.ENEMY)
    s, events = run_tasks(walled, Task("choose_line", 0))
    assert kinds(events, "enemy_line") == [{"target": 0, "line": 0, "partial": True}]
    assert xy(s, s.fight.foes[0].cell) == (4, 0) and not kinds(events, "attack")


def test_SC_W42_move_towards_while_adjacent_is_not_executed() -> None:
    s = state(board(4, 2), (0, 0), [(MOVER, (1, 0))], hand=["A01"], phase=FightPhase.ENEMY)
    s, events = run_tasks(s, Task("choose_line", 0))
    assert _line(events) == 2 and xy(s, s.fight.foes[0].cell) == (1, 0)


def test_SC_W43_decision_compass_positioning() -> None:
    field = board(7, 7, origin=(-3, -3))
    o = (-3, -3)
    start, martha = field.at(2 - o[0], -1 - o[1]), field.at(0 - o[0], 0 - o[1])
    path = plan_towards(field, start, martha, 2, frozenset(), set(), FIG95, lambda: 1)
    assert path is not None
    assert [(field.xy(c)[0] + o[0], field.xy(c)[1] + o[1]) for c in path] == [(1, -1), (0, -1)]
    # the fixture names: card 03 pointing down at x -1..1, y -2..-1 puts 03/4 at (1,-1) and 03/5 at (0,-1)
    down = card_cells(False)
    assert (-1 + down[3][0], -2 + down[3][1]) == (1, -1) and (-1 + down[4][0], -2 + down[4][1]) == (0, -1)


def test_SC_W44_decision_compass_path() -> None:
    o = (-3, -1)
    field = board(7, 5, {(0, 1): "blocked", (0, 2): "blocked"}, origin=o)
    start, martha = field.at(0 - o[0], 3 - o[1]), field.at(0 - o[0], 0 - o[1])
    path = plan_towards(field, start, martha, 4, frozenset(), set(), FIG95, lambda: 1)
    assert path is not None and len(path) == 4
    assert [(field.xy(c)[0] + o[0], field.xy(c)[1] + o[1]) for c in path] == [(-1, 3), (-1, 2), (-1, 1), (-1, 0)]


def test_SC_W45_random_tiebreak() -> None:
    assert [random_pick(3, lambda v=v: v) for v in range(1, 7)] == [0, 0, 1, 1, 2, 2]
    assert random_pick(3, lambda: 4) == 1  # the second space
    values = iter([5, 6, 2])  # 4 candidates: 1-4 each pick one, 5 and 6 are drawn again
    assert random_pick(4, lambda: next(values)) == 1
    # in play: moving away 2 MP from Martha below, the compass ties (-1,+1) and (-2,0) (both lie left, priority 2)
    o = (-3, -1)
    field = board(7, 4, origin=o)
    start, martha = field.at(0 - o[0], 0 - o[1]), field.at(0 - o[0], -1 - o[1])
    picks = {}
    for value in (2, 5):
        path = plan_away(field, start, martha, 2, frozenset(), set(), FIG95, lambda v=value: v)
        assert path is not None
        picks[value] = (field.xy(path[-1])[0] + o[0], field.xy(path[-1])[1] + o[1])
    assert set(picks.values()) == {(-2, 0), (-1, 1)} and picks[2] != picks[5]


def test_SC_W46_character_reactions() -> None:
    foes = [(BRUTE, (0, 1)), (BRUTE, (2, 1)), (BRUTE, (1, 2))]
    hand = ["A02", "A09", "A22", "A10", "A13"]
    s = state(board(3, 3), (1, 1), foes, hand=hand, upgrades=["Y202"], fates=[5, 4, 5, 4, 5, 4], phase=FightPhase.ENEMY)
    s, _events = run_tasks(s, Task("enemy_phase"))
    assert s.fight.prompt == P_ATTACKED and s.fight.pa == 0
    s, _ = play(s, React("A02"))  # Block +1 against 3 damage, Armor 0: 2 cards
    assert s.fight.prompt == P_DAMAGE and s.fight.pa == 2
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, React("A09"))  # the Fate card is drawn: too late to block
    s, _ = play(s, Wound("A02"), Wound("A09"))
    # the same enemy's second attack in this activation: no second reaction
    assert s.fight.prompt == P_DAMAGE and s.fight.pa == 3 and s.fight.reactions == 1


def test_SC_W46_reaction_budget_and_retreat_timing() -> None:
    foes = [(BRUTE, (0, 1)), (BRUTE, (2, 1)), (BRUTE, (1, 2))]
    hand = ["A04", "A09", "A22", "A10", "A13", "A02", "A11"]
    s = state(board(3, 3), (1, 1), foes, hand=hand, upgrades=["Y201", "Y202"], fates=[1, 2, 3] * 3,
              phase=FightPhase.ENEMY)
    s, events = run_tasks(s, Task("enemy_phase"))
    assert s.fight.prompt == P_RETREAT and not kinds(events, "enemy_line")  # before the line is chosen
    s, events = play(s, Decline())
    assert kinds(events, "enemy_line") and s.fight.prompt == P_ATTACKED
    assert React("A04") not in GAME.legal_actions(s, 0)  # Retreat is no answer to an attack
    reactions = 0
    while s.fight.phase == FightPhase.ENEMY and not s.fight.result:
        legal = GAME.legal_actions(s, 0)
        blocks = [a for a in legal if isinstance(a, React) and a.card != "A04"]
        if s.fight.prompt == P_ATTACKED and blocks:
            reactions += 1
            s, _ = play(s, blocks[0])
        else:
            s, _ = play(s, next((a for a in legal if isinstance(a, Decline)), legal[0]))
    assert reactions == 2  # Reaction 2 (base 1 + Y202), 3 enemies attacking twice each: only 2 reactions


def test_SC_W47_character_first_strike() -> None:
    s = state(board(8, 2), (0, 0), [(TOUGH, (6, 0))], hand=["A05", "A01"], equipped=["bow"], fates=[2, 2, 2],
              phase=FightPhase.ENEMY)
    s, events = run_tasks(s, Task("enemy_phase"))
    assert s.fight.prompt == P_FIRST_STRIKE and xy(s, s.fight.foes[0].cell) == (3, 0)  # just came into bow range
    assert React("A05", "bow") in GAME.legal_actions(s, 0)
    s, events = play(s, React("A05", "bow"))
    attack = kinds(events, "attack")[0]
    assert attack["by"] == "martha" and attack["total"] == 0 - 1 + 2
    steps = kinds(events, "enemy_step")
    assert steps and xy(s, steps[-1]["cell"]) == (2, 0)  # it survived and went on with its line
    assert s.fight.martha_fs == 0  # the Dodge penalty ended with the activation


def test_SC_W47_first_strike_dodge_penalty_during_the_activation() -> None:
    s = state(board(8, 2), (0, 0), [(LINES, (2, 0))], hand=["A05", "A01"], equipped=["spear"], fates=[1, 4, 4],
              phase=FightPhase.ENEMY)
    s, events = run_tasks(s, Task("enemy_phase"))
    # already within the spear's range 2 before it moved, so the First Strike comes when it attacks
    assert s.fight.prompt == P_ATTACKED and xy(s, s.fight.foes[0].cell) == (1, 0)
    s, events = play(s, React("A05", "spear"))
    attacks = kinds(events, "attack")
    assert [a["by"] for a in attacks] == ["martha", 0] and attacks[0]["total"] == 0 - 1 + 1
    assert attacks[1]["dodge"] == 4 - 1  # Martha's Dodge is reduced by |modifier| until the activation ends


def test_SC_W48_damage_from_discard_and_refresh() -> None:
    s = state(board(3, 3), (0, 0), [(TOUGH, (2, 2))], hand=["A01"], upgrades=["T-regen"], phase=FightPhase.ENEMY)
    s.fight.discard = ["A02", "A03", "A04"]
    s, _ = run_tasks(s, Task("damage", 2))
    assert s.fight.prompt == P_DAMAGE and {a.card for a in GAME.legal_actions(s, 0)} == {"A01", "A02", "A03", "A04"}
    s, _ = play(s, Wound("A02"), Wound("A03"))
    assert s.sheet.hand == ["A01"] and s.fight.discard == ["A04"] and s.sheet.damaged == ["A02", "A03"]
    s, _ = run_tasks(s, Task("refresh"))
    assert sorted(s.sheet.hand) == ["A01", "A04"] and s.fight.discard == [] and s.fight.phase == FightPhase.CHARACTER
    last = state(board(3, 3), (0, 0), [(TOUGH, (2, 2))], hand=["A01"], phase=FightPhase.ENEMY)
    last, events = run_tasks(last, Task("damage", 1))
    assert last.fight.result == "defeat" and kinds(events, "combat_over")
    assert GAME.outcome(last).ranks == (2,)


def test_W_CRx_03_item_16_retreat_may_end_at_the_same_distance() -> None:
    """Item 16, W-CRx-03: Martha's Retreat must leave her "equal or greater" distance from the activated enemy
    (8.2.2.3.3), so a step need not gain distance: up, then back towards the enemy's column to the distance she
    started at. A step that would take her closer than that is refused."""
    s = state(board(4, 3), (2, 1), [(MOVER, (0, 1))], hand=["A04", "A01"], phase=FightPhase.ENEMY)
    s, _ = run_tasks(s, Task("enemy_phase"))
    assert s.fight.prompt == P_RETREAT
    s, _ = play(s, React("A04"))  # Retreat 2 MP; she stands at distance 2
    legal = GAME.legal_actions(s, 0)
    assert Step("left") not in legal and {Step("up"), Step("down"), Step("right"), Stop()} <= set(legal)
    s, _ = play(s, Step("up"))  # distance 3
    assert Step("left") in GAME.legal_actions(s, 0)  # back to distance 2: allowed (it was refused before item 16)
    s, events = play(s, Step("left"))
    assert [xy(s, e["cell"]) for e in kinds(events, "step")] == [(1, 2)]
