"""The effect-language interpreter: skills from the content pack applied to the battlefield.

A skill fires on its trigger when its condition holds and its character can pay its pen cost.
Its effects run in order; each picks its units with a selector relative to the skill's owner
(and the other party: the target, the attacker or the killer). Passive skills are never run:
`effective_attack` and `armor_against` read them on demand.
"""

from __future__ import annotations

import msgspec

from gamehall.engine import Event
from gamehall.games.grimmoir.catalog import CARDS, DAMAGE_TYPES, HAS_PASSIVE
from gamehall.games.grimmoir.content.schema import Condition, Skill
from gamehall.games.grimmoir.state import BOOK_CLOSED, BOOK_OPEN, NO_BOOK, State, Unit

Board = list[Unit | None]
_ROW_NAMES = ("front", "back")


def find(board: Board, unit: Unit | None) -> int:
    """The slot of this very unit (identity), or -1 when it is no longer on the battlefield."""
    if unit is None:
        return -1
    for i in range(12):
        if board[i] is unit:
            return i
    return -1


# ------------------------------------------------------------------ selectors
def select(board: Board, selector: str, seat: int, me: Unit | None, here: int, other: Unit | None) -> list[int]:
    """Slots picked by `selector` for a skill owned by `me` (of `seat`, at or last at `here`)."""
    base = seat * 6
    foe = (1 - seat) * 6
    col = here % 3
    row = (here % 6) // 3
    if selector == "self":
        return [here] if me is not None and board[here] is me else []
    if selector in ("target", "attacker", "killer"):
        slot = find(board, other)
        return [slot] if slot >= 0 else []
    if selector == "allies":
        return [i for i in range(base, base + 6) if board[i] is not None]
    if selector == "other_allies":
        return [i for i in range(base, base + 6) if board[i] is not None and i != here]
    if selector == "enemies":
        return [i for i in range(foe, foe + 6) if board[i] is not None]
    if selector == "column_allies":
        return [i for i in (base + col, base + 3 + col) if board[i] is not None and i != here]
    if selector == "column_enemies":
        return [i for i in (foe + col, foe + 3 + col) if board[i] is not None]
    if selector == "row_allies":
        start = base + row * 3
        return [i for i in range(start, start + 3) if board[i] is not None and i != here]
    if selector == "adjacent_allies":
        near = [base + (1 - row) * 3 + col]
        if col > 0:
            near.append(base + row * 3 + col - 1)
        if col < 2:
            near.append(base + row * 3 + col + 1)
        return sorted(i for i in near if board[i] is not None)
    if selector == "front_enemy":
        return [foe + col] if board[foe + col] is not None else []
    if selector == "behind":
        return [base + 3 + col] if row == 0 and board[base + 3 + col] is not None else []
    if selector == "weakest_enemy":
        return _best(board, range(foe, foe + 6), lambda u: u.wounds - CARDS[u.card].strength)
    if selector == "most_wounded_ally":
        return _best(board, range(base, base + 6), lambda u: u.wounds)
    raise ValueError(f"unknown selector {selector}")


def _best(board: Board, slots: range, score: object) -> list[int]:
    best, best_score = -1, None
    for i in slots:
        unit = board[i]
        if unit is None:
            continue
        value = score(unit)  # type: ignore[operator]
        if best_score is None or value > best_score:
            best, best_score = i, value
    return [best] if best >= 0 else []


# ------------------------------------------------------------------ conditions
def holds(when: Condition, board: Board, here: int, me: Unit, other: Unit | None, killed: bool = False) -> bool:
    """Whether every field of `when` holds for `me` at `here` against `other`."""
    if when.self_row is not None and _ROW_NAMES[(here % 6) // 3] != when.self_row:
        return False
    if when.self_wounded is not None and (me.wounds > 0) != when.self_wounded:
        return False
    if when.outnumbered is not None:
        seat = here // 6
        mine = sum(1 for i in range(seat * 6, seat * 6 + 6) if board[i] is not None)
        theirs = sum(1 for i in range((1 - seat) * 6, (1 - seat) * 6 + 6) if board[i] is not None)
        if (mine < theirs) != when.outnumbered:
            return False
    if when.killed is not None and killed != when.killed:
        return False
    if (
        when.other_exhausted is None
        and when.other_wounded is None
        and when.other_type is None
        and when.other_row is None
    ):
        return True
    if other is None:
        return False
    if when.other_exhausted is not None and other.exhausted != when.other_exhausted:
        return False
    if when.other_wounded is not None and (other.wounds > 0) != when.other_wounded:
        return False
    if when.other_type is not None and DAMAGE_TYPES[CARDS[other.card].damage] != when.other_type:
        return False
    if when.other_row is not None:
        slot = find(board, other)
        if slot < 0 or _ROW_NAMES[(slot % 6) // 3] != when.other_row:
            return False
    return True


# ------------------------------------------------------------------ passives
def _passive_total(board: Board, slot: int, op: str, damage: int = -1) -> int:
    total = 0
    for owner_slot in range(12):
        owner = board[owner_slot]
        if owner is None or owner.card not in HAS_PASSIVE:
            continue
        seat = owner_slot // 6
        for skill in CARDS[owner.card].passive:
            if not holds(skill.when, board, owner_slot, owner, None):
                continue
            for effect in skill.effects:
                if effect.op != op:
                    continue
                if op == "armor" and effect.vs and DAMAGE_TYPES[damage] not in effect.vs:
                    continue
                if slot in select(board, effect.to, seat, owner, owner_slot, None):
                    total += effect.amount
    return total


def effective_attack(board: Board, slot: int) -> int:
    """Printed attack + strengthening - weakening + passive bonuses (may be negative; G-ST-02)."""
    unit = board[slot]
    assert unit is not None
    return CARDS[unit.card].attack + unit.plus - unit.minus + _passive_total(board, slot, "attack_bonus")


def armor_against(board: Board, slot: int, damage: int) -> int:
    """Wounds prevented on the unit at `slot` by passive armor against damage type `damage`."""
    return _passive_total(board, slot, "armor", damage)


# ------------------------------------------------------------------ wounds and defeat
def wound(state: State, slot: int, amount: int, source: Unit | None, events: list[Event]) -> bool:
    """Place `amount` wounds on the unit at `slot`; defeat it (and fire on_death) at its strength."""
    unit = state.board[slot]
    assert unit is not None
    if amount <= 0:
        return False
    unit.wounds += amount
    card = CARDS[unit.card]
    if unit.wounds < card.strength:
        return False
    seat = slot // 6
    state.board[slot] = None
    state.fallen[seat].append(unit.card)
    events.append(
        Event("defeated", {"seat": seat, "character": card.id, "row": (slot % 6) // 3 + 1, "column": slot % 3 + 1})
    )
    for skill in card.on_death:
        if unit.pens >= skill.pen_cost and holds(skill.when, state.board, slot, unit, source):
            unit.pens -= skill.pen_cost
            run_skill(state, skill, seat, unit, slot, source, events)
    return True


# ------------------------------------------------------------------ running effects
def run_skill(
    state: State, skill: Skill, seat: int, me: Unit, origin: int, other: Unit | None, events: list[Event]
) -> None:
    """Run every effect of `skill` except `damage` (attack resolution reads that one itself)."""
    board = state.board
    for effect in skill.effects:
        op = effect.op
        if op == "damage":
            continue
        if op == "gain_coins":
            state.coins[seat] += effect.amount
            continue
        if op == "drain_coins":
            foe = 1 - seat
            state.coins[foe] -= min(effect.amount, state.coins[foe])
            continue
        here = find(board, me)
        if here < 0:
            here = origin
        targets = select(board, effect.to, seat, me, here, other)
        for slot in targets:
            unit = board[slot]
            if unit is None:
                continue  # defeated by an earlier target of this same effect
            if op == "wound":
                wound(state, slot, effect.amount, me, events)
            elif op == "heal":
                unit.wounds = max(0, unit.wounds - effect.amount)
            elif op == "strengthen":
                unit.plus += effect.amount
            elif op == "weaken":
                unit.minus += effect.amount
            elif op == "cleanse":
                unit.minus = 0
            elif op == "prepare":
                unit.exhausted = False
            elif op == "exhaust":
                unit.exhausted = True
            elif op == "add_pen":
                pens = max(0, unit.pens + effect.amount)
                unit.pens = min(pens, effect.cap) if effect.cap > 0 else pens
            elif op == "open_book":
                if unit.book == BOOK_CLOSED:
                    unit.book = BOOK_OPEN
            elif op == "swap_rows":
                mate = slot + 3 if (slot % 6) < 3 else slot - 3
                if board[mate] is not None:
                    board[slot], board[mate] = board[mate], board[slot]
            # attack_bonus / armor are passive-only (validated by the schema)
    events.append(Event("skill", {"seat": seat, "character": CARDS[me.card].id, "text": skill.text}))


def resolve_attack(state: State, attacker_slot: int, target_slot: int, events: list[Event]) -> None:
    """Wounds = effective attack + skill changes - armor, at least 0 (AMB-5); then after-effects."""
    board = state.board
    attacker = board[attacker_slot]
    target = board[target_slot]
    assert attacker is not None and target is not None
    a_card, t_card = CARDS[attacker.card], CARDS[target.card]
    seat = attacker_slot // 6
    amount = effective_attack(board, attacker_slot)
    fired: list[Skill] = []
    for skill in a_card.on_attack:
        if skill.when.killed is not None:
            continue
        if attacker.pens >= skill.pen_cost and holds(skill.when, board, attacker_slot, attacker, target):
            attacker.pens -= skill.pen_cost
            amount += sum(e.amount for e in skill.effects if e.op == "damage")
            fired.append(skill)
    reactions: list[Skill] = []
    for skill in t_card.on_attacked:
        if target.pens >= skill.pen_cost and holds(skill.when, board, target_slot, target, attacker):
            target.pens -= skill.pen_cost
            amount += sum(e.amount for e in skill.effects if e.op == "damage")
            reactions.append(skill)
    amount = max(0, amount - armor_against(board, target_slot, a_card.damage))
    events.append(Event("attack", {"seat": seat, "attacker": a_card.id, "target": t_card.id, "wounds": amount}))
    killed = wound(state, target_slot, amount, attacker, events)
    for skill in fired:
        if any(e.op != "damage" for e in skill.effects):
            run_skill(state, skill, seat, attacker, attacker_slot, target, events)
    for skill in a_card.on_attack:
        if skill.when.killed is None:
            continue
        here = find(board, attacker)
        if here >= 0 and attacker.pens >= skill.pen_cost and holds(skill.when, board, here, attacker, target, killed):
            attacker.pens -= skill.pen_cost
            run_skill(state, skill, seat, attacker, here, target, events)
    if not killed:
        for skill in reactions:
            if any(e.op != "damage" for e in skill.effects):
                run_skill(state, skill, 1 - seat, target, target_slot, attacker, events)


def resolve_special(state: State, slot: int, target_slot: int, events: list[Event]) -> None:
    """The special skill of the unit at `slot` (costs already paid), aimed at `target_slot` or none (-1)."""
    unit = state.board[slot]
    assert unit is not None
    skill = CARDS[unit.card].special
    assert skill is not None
    target = state.board[target_slot] if target_slot >= 0 else None
    run_skill(state, skill, slot // 6, unit, slot, target, events)


def would_change(state: State, skill: Skill, seat: int, here: int) -> bool:
    """Whether running `skill` for the unit at `here` now changes the state at all (a dry run on a copy)."""
    trial = msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=State)
    before = msgspec.msgpack.encode(trial)
    unit = trial.board[here]
    assert unit is not None
    run_skill(trial, skill, seat, unit, here, None, [])
    return msgspec.msgpack.encode(trial) != before


def end_of_round(state: State, events: list[Event]) -> None:
    """Every end-of-round skill (pen counters and the rest; G-ER-01), initiative holder's side first.

    Reading of G-PN-01 (stated in content/README.md): a skill that costs pen counters is a choice its
    owner makes, so it is not used, and keeps its pen, when it would change nothing (no one to heal).
    """
    board = state.board
    for seat in (state.initiative, 1 - state.initiative):
        snapshot = [(i, board[i]) for i in range(seat * 6, seat * 6 + 6) if board[i] is not None]
        for _slot, unit in snapshot:
            assert unit is not None
            for skill in CARDS[unit.card].end_of_round:
                here = find(board, unit)
                if here < 0:
                    break
                if unit.pens < skill.pen_cost or not holds(skill.when, board, here, unit, None):
                    continue
                if skill.pen_cost and not would_change(state, skill, seat, here):
                    continue
                unit.pens -= skill.pen_cost
                run_skill(state, skill, seat, unit, here, None, events)


def reset_for_round(board: Board) -> None:
    """New round steps 1-2: prepare every character and open every book (G-NR-01, G-NR-02)."""
    for unit in board:
        if unit is not None:
            unit.exhausted = False
            if unit.book != NO_BOOK:
                unit.book = BOOK_OPEN
