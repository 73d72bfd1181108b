"""The effect-language interpreter, on synthetic skills and on the triggers the content uses."""

from __future__ import annotations

from gamehall.games.grimmoir import GAME
from gamehall.games.grimmoir.actions import Attack, Pass, Special
from gamehall.games.grimmoir.battle import flow
from gamehall.games.grimmoir.catalog import CARDS, MELEE
from gamehall.games.grimmoir.content.schema import Condition, Effect, Skill
from gamehall.games.grimmoir.effects import armor_against, effective_attack, holds, run_skill, select
from gamehall.games.grimmoir.state import BOOK_CLOSED, BOOK_OPEN

from .builder import act, battle_state, card, id_at, of_type, quiet

P1, P2 = 0, 1


def _full_board() -> object:
    q = quiet(12)
    return battle_state(front=[q[0:3], q[6:9]], back=[q[3:6], q[9:12]]), q


def test_selectors_pick_the_right_slots() -> None:
    state, _q = _full_board()  # type: ignore[misc]
    board = state.board  # type: ignore[attr-defined]
    me, here = board[1], 1  # P1 front centre
    assert select(board, "self", P1, me, here, None) == [1]
    assert select(board, "allies", P1, me, here, None) == [0, 1, 2, 3, 4, 5]
    assert select(board, "other_allies", P1, me, here, None) == [0, 2, 3, 4, 5]
    assert select(board, "enemies", P1, me, here, None) == [6, 7, 8, 9, 10, 11]
    assert select(board, "column_allies", P1, me, here, None) == [4]
    assert select(board, "column_enemies", P1, me, here, None) == [7, 10]
    assert select(board, "row_allies", P1, me, here, None) == [0, 2]
    assert select(board, "adjacent_allies", P1, me, here, None) == [0, 2, 4]
    assert select(board, "front_enemy", P1, me, here, None) == [7]
    assert select(board, "behind", P1, me, here, None) == [4]
    assert select(board, "target", P1, me, here, board[9]) == [9]
    board[10].wounds = 1
    assert select(board, "weakest_enemy", P1, me, here, None) == [
        min(range(6, 12), key=lambda i: (CARDS[board[i].card].strength - board[i].wounds, i))
    ]
    assert select(board, "most_wounded_ally", P1, me, here, None) == [0]
    board[3].wounds = 2
    assert select(board, "most_wounded_ally", P1, me, here, None) == [3]


def test_every_operation() -> None:
    state, _q = _full_board()  # type: ignore[misc]
    board = state.board  # type: ignore[attr-defined]
    me = board[0]

    def run(*effects: Effect, other: object = None) -> None:
        run_skill(state, Skill(trigger="special", text="t", effects=effects, choose="enemy"), P1, me, 0, other, [])  # type: ignore[arg-type]

    foe = board[6]
    run(Effect(op="wound", amount=2, to="target"), other=foe)
    assert foe.wounds == 2
    run(Effect(op="heal", amount=1, to="target"), other=foe)
    assert foe.wounds == 1
    run(Effect(op="strengthen", amount=2, to="row_allies"))
    assert board[1].plus == 2 and board[2].plus == 2 and me.plus == 0
    run(Effect(op="weaken", amount=3, to="target"), other=foe)
    assert foe.minus == 3
    run(Effect(op="cleanse", to="target"), other=foe)
    assert foe.minus == 0
    run(Effect(op="gain_coins", amount=2), Effect(op="drain_coins", amount=9))
    assert state.coins == [7, 0]  # type: ignore[attr-defined]
    run(Effect(op="exhaust", to="enemies"))
    assert all(board[i].exhausted for i in range(6, 12))
    run(Effect(op="prepare", to="target"), other=foe)
    assert not foe.exhausted
    run(Effect(op="add_pen", amount=5, cap=3))
    assert me.pens == 3
    run(Effect(op="add_pen", amount=-9))
    assert me.pens == 0
    board[2].book = BOOK_CLOSED
    run(Effect(op="open_book", to="row_allies"))
    assert board[2].book == BOOK_OPEN and board[1].book in (0, BOOK_OPEN)
    front, back = board[6], board[9]
    run(Effect(op="swap_rows", to="target"), other=front)
    assert board[6] is back and board[9] is front


def test_wound_effects_defeat_and_fire_on_death() -> None:
    avenger = next(c for c in CARDS if any(e.to == "killer" for s in c.on_death for e in s.effects))
    (x,) = quiet(1, "magic")
    y = quiet(1, skip=(x,))[0]
    state = battle_state(
        front=[(x, y, None), (avenger.id, None, None)], units={avenger.id: {"wounds": avenger.strength - 1}}
    )
    me = state.board[0]
    run_skill(
        state,
        Skill(trigger="special", text="t", effects=(Effect(op="wound", amount=1, to="target"),), choose="enemy"),
        P1,
        me,
        0,
        state.board[6],
        [],
    )  # type: ignore[arg-type]
    assert state.board[6] is None and avenger.index in state.fallen[P2]
    assert me is not None and me.wounds > 0  # the killer took the on_death wounds


def test_conditions() -> None:
    state, _ = _full_board()  # type: ignore[misc]
    board = state.board  # type: ignore[attr-defined]
    me, foe = board[0], board[9]
    assert holds(Condition(self_row="front", other_row="back"), board, 0, me, foe)
    assert not holds(Condition(other_exhausted=True), board, 0, me, foe)
    foe.exhausted = True
    assert holds(Condition(other_exhausted=True), board, 0, me, foe)
    assert not holds(Condition(outnumbered=True), board, 0, me, foe)
    board[2] = None
    assert holds(Condition(outnumbered=True), board, 0, me, foe)
    assert not holds(Condition(other_wounded=True), board, 0, me, None)


def _with_skill(trigger: str, predicate: object = None) -> object:
    for c in CARDS:
        for s in getattr(c, trigger) if trigger != "special" else ([c.special] if c.special else []):
            if predicate is None or predicate(c, s):  # type: ignore[operator]
                return c
    raise AssertionError(f"no character has a {trigger} skill of that kind")


def test_on_attack_damage_bonus_with_pen_cost() -> None:
    gunner = _with_skill("on_attack", lambda c, s: s.pen_cost > 0 and any(e.op == "damage" for e in s.effects))
    bonus = next(e.amount for s in gunner.on_attack if s.pen_cost for e in s.effects if e.op == "damage")  # type: ignore[attr-defined]
    (t,) = quiet(1, skip=(gunner.id,))  # type: ignore[attr-defined]
    state = battle_state(front=[(gunner.id, None, None), (t, None, None)], units={t: {"wounds": -20}})  # type: ignore[attr-defined]
    base = effective_attack(state.board, 0)
    after = act(state, P1, Attack(gunner.id, t))  # type: ignore[attr-defined]
    assert after.board[6].wounds == -20 + base + bonus  # type: ignore[union-attr]
    assert after.board[0].pens == gunner.pens - 1  # type: ignore[attr-defined,union-attr]
    dry = battle_state(
        front=[(gunner.id, None, None), (t, None, None)], units={t: {"wounds": -20}, gunner.id: {"pens": 0}}
    )  # type: ignore[attr-defined]
    after = act(dry, P1, Attack(gunner.id, t))  # type: ignore[attr-defined]
    assert after.board[6].wounds == -20 + base  # type: ignore[union-attr]


def test_passive_armor_reduces_attacks() -> None:
    wall = _with_skill("passive", lambda c, s: any(e.op == "armor" and e.to == "self" and not e.vs for e in s.effects))
    (x,) = quiet(1, "magic")
    state = battle_state(front=[(x, None, None), (wall.id, None, None)], units={x: {"plus": 3}})  # type: ignore[attr-defined]
    armor = armor_against(state.board, 6, card(x).damage)
    assert armor >= 1
    after = act(state, P1, Attack(x, wall.id))  # type: ignore[attr-defined]
    assert after.board[6].wounds == effective_attack(state.board, 0) - armor  # type: ignore[union-attr]


def test_passive_attack_aura() -> None:
    aura = _with_skill(
        "passive", lambda c, s: any(e.op == "attack_bonus" and e.to == "column_allies" for e in s.effects)
    )
    (x,) = quiet(1, "magic")
    state = battle_state(front=[(x, None, None), of_type("melee", 1)], back=[(aura.id, None, None), (None, None, None)])  # type: ignore[attr-defined]
    assert effective_attack(state.board, 0) == card(x).attack + 1
    state.board[3], state.board[4] = None, state.board[3]
    assert effective_attack(state.board, 0) == card(x).attack


def test_special_with_enemy_target_runs_its_effects() -> None:
    witch = _with_skill("special", lambda c, s: s.choose == "enemy" and any(e.op == "weaken" for e in s.effects))
    (t,) = quiet(1, skip=(witch.id,))  # type: ignore[attr-defined]
    state = battle_state(front=[(witch.id, None, None), (t, None, None)])  # type: ignore[attr-defined]
    after = act(state, P1, Special(witch.id, t))  # type: ignore[attr-defined]
    assert after.board[6].minus >= 1  # type: ignore[union-attr]
    assert after.board[0].book == BOOK_CLOSED and after.board[0].exhausted  # type: ignore[union-attr]


def test_end_of_round_skills_resolve_at_round_end() -> None:
    scholar = _with_skill("end_of_round", lambda c, s: any(e.op == "wound" and "enemies" in e.to for e in s.effects))
    y, z = quiet(2, skip=(scholar.id,))  # type: ignore[attr-defined]
    state = battle_state(front=[(scholar.id, None, None), (y, z, None)])  # type: ignore[attr-defined]
    state = act(state, P1, Pass())
    state = act(state, P2, Pass())
    assert state.round == 2
    assert state.board[6].wounds >= 1  # type: ignore[union-attr]  # the enemy in its column, at least
    assert state.board[0].pens == scholar.pens - 1  # type: ignore[attr-defined,union-attr]


def test_on_attacked_reaction_hits_the_attacker() -> None:
    matron = _with_skill("on_attacked", lambda c, s: any(e.op == "wound" and e.to == "attacker" for e in s.effects))
    attacker = next(c.id for c in CARDS if c.damage == MELEE and not (c.on_attack or c.passive) and c.id != matron.id)  # type: ignore[attr-defined]
    state = battle_state(front=[(attacker, None, None), (matron.id, None, None)], units={matron.id: {"wounds": -20}})  # type: ignore[attr-defined]
    after = act(state, P1, Attack(attacker, matron.id))  # type: ignore[attr-defined]
    assert after.board[0].wounds >= 1  # type: ignore[union-attr]
    assert id_at(after, P2, 1, 1) == matron.id  # type: ignore[attr-defined]


def test_flow_helper_is_usable_on_built_states() -> None:
    state = battle_state(front=[of_type("melee", 1), of_type("ranged", 1)])
    state.passed = [True, True]
    flow(state, P1, [])
    assert state.round == 2 and GAME.to_act(state)
