"""G-PN-01 / G-ER-01 (end-of-round pen skills), G-MV-01 (a move into any blank), the factions' own identities.

Spec: ../shared/rules/grimmoir.md sections 1.9, 1.10 and 2; rulebook ../shared/rulebooks/grimmoir.txt, "Move".
"""

from __future__ import annotations

from collections import defaultdict

import msgspec

from gamehall.games.grimmoir.actions import Move, Pass
from gamehall.games.grimmoir.battle import paid_actions
from gamehall.games.grimmoir.catalog import CARDS, DAMAGE_TYPES, FACTIONS

from .builder import act, battle_state, id_at, quiet

P1, P2 = 0, 1


def _end_round(state):  # type: ignore[no-untyped-def]
    state = act(state, P1, Pass())
    return act(state, P2, Pass())


def _pen_healer() -> str:
    """A character whose end-of-round skill spends a pen to heal."""
    for c in CARDS:
        for skill in c.end_of_round:
            if skill.pen_cost and any(e.op == "heal" for e in skill.effects):
                return c.id
    raise AssertionError("no end-of-round pen healer in the pack")


def test_G_PN_01_a_pen_skill_with_nothing_to_do_keeps_its_pen() -> None:
    """Reading: spending a pen is the owner's choice, so a skill that would change nothing is not used."""
    healer = _pen_healer()
    others = quiet(4, skip=(healer,))
    state = battle_state(front=[(others[0], healer, others[1]), (others[2], others[3], None)])
    pens = state.board[1].pens  # type: ignore[union-attr]
    state = _end_round(state)
    assert state.round == 2
    assert state.board[1].pens == pens  # type: ignore[union-attr]  # no one was wounded: the pen stays


def test_G_PN_01_a_pen_skill_that_helps_spends_its_pen() -> None:
    healer = _pen_healer()
    others = quiet(4, skip=(healer,))
    state = battle_state(
        front=[(others[0], healer, others[1]), (others[2], others[3], None)],
        units={others[0]: {"wounds": 2}, others[1]: {"wounds": 2}, healer: {"wounds": 2}},
    )
    pens = state.board[1].pens  # type: ignore[union-attr]
    wounds_before = sum(u.wounds for u in state.board[:6] if u is not None)
    state = _end_round(state)
    assert state.board[1].pens == pens - 1  # type: ignore[union-attr]
    assert sum(u.wounds for u in state.board[:6] if u is not None) < wounds_before


def test_G_MV_01_a_front_character_may_move_into_the_blank_behind_it() -> None:
    """The book allows a move into any blank: the character steps back, then forward again at once
    (G-AU-01), so the move costs a coin and changes no place (a way to spend a turn)."""
    a, b, c, x, y = quiet(5)
    state = battle_state(front=[(a, b, c), (x, y, None)], back=[(None, None, None), (None, None, None)])
    behind = Move(a, 2, 1)
    assert behind in paid_actions(state, P1)
    after = act(state, P1, behind)
    assert after.coins[P1] == state.coins[P1] - 1
    assert id_at(after, P1, 1, 1) == a and id_at(after, P1, 2, 1) is None
    assert after.turn == P2


def _skill_key(card) -> bytes:  # type: ignore[no-untyped-def]
    skills = [*card.on_attack, *card.on_attacked, *card.end_of_round, *card.on_death, *card.passive]
    if card.special is not None:
        skills.append(card.special)
    return msgspec.json.encode([(s.trigger, s.effects, s.when, s.pen_cost, s.choose) for s in skills])


def test_no_two_characters_share_a_skill() -> None:
    owners: dict[bytes, list[str]] = defaultdict(list)
    for c in CARDS:
        owners[_skill_key(c)].append(c.id)
    assert [ids for ids in owners.values() if len(ids) > 1] == []


def test_magic_users_differ_by_faction() -> None:
    """Magic attack is part of a faction's identity: not one value everywhere (14 of 15 were 2)."""
    magic = DAMAGE_TYPES.index("magic")
    by_faction: dict[int, list[int]] = defaultdict(list)
    for c in CARDS:
        if c.damage == magic:
            by_faction[c.faction].append(c.attack)
    assert len(by_faction) == len(FACTIONS)
    means = {f: sum(a) / len(a) for f, a in by_faction.items()}
    assert max(means.values()) - min(means.values()) >= 1.0
    all_attacks = [a for attacks in by_faction.values() for a in attacks]
    assert len(set(all_attacks)) >= 3 and max(map(all_attacks.count, all_attacks)) <= 0.6 * len(all_attacks)
