"""A static evaluator for bots: `evaluate(state, seat)` in [0, 1], higher is better for `seat`.

Material is what a side can still do: for each living character, strength left times
(attack + 1), discounted for a melee character stuck in the 2nd row, plus a little for
counters and coins. Before the battle it values the recruited teams the same way.
The share of material a seat owns is its score; a finished match scores 1, 0 or 0.5.
"""

from __future__ import annotations

from gamehall.games.grimmoir.catalog import CARDS, MELEE
from gamehall.games.grimmoir.state import DRAW, NOBODY, Phase, State

COIN_WEIGHT = 0.4
BACK_ROW_MELEE = 0.75
PEN_WEIGHT = 1.5
BOOK_WEIGHT = 1.0


def card_value(card_index: int) -> float:
    """A character's worth at full strength, before placement."""
    card = CARDS[card_index]
    return card.strength * (card.attack + 1.0) + PEN_WEIGHT * card.pens + (2.0 if card.has_book else 0.0)


def side_material(state: State, seat: int) -> float:
    if state.phase < Phase.BATTLE:
        return sum(card_value(c) for c in state.teams[seat]) + 1.0
    total = 0.0
    base = seat * 6
    for slot in range(base, base + 6):
        unit = state.board[slot]
        if unit is None:
            continue
        card = CARDS[unit.card]
        attack = max(0, card.attack + unit.plus - unit.minus)
        value = (card.strength - unit.wounds) * (attack + 1.0)
        if card.damage == MELEE and slot - base >= 3:
            value *= BACK_ROW_MELEE
        total += value + PEN_WEIGHT * unit.pens + (BOOK_WEIGHT if unit.book == 1 and not unit.exhausted else 0.0)
        if not unit.exhausted:
            total += 0.5 * (attack + 1.0)
    return total + COIN_WEIGHT * state.coins[seat]


ROLLOUT_DEPTH = 6
"""Search may stop random rollouts after this many actions and trust `evaluate`:
six random actions past a node, material and board still say who is ahead."""


def evaluate(state: State, seat: int) -> float:
    """The heuristic value of `state` for `seat`, in [0, 1]."""
    if state.phase == Phase.OVER:
        if state.winner in (DRAW, NOBODY):
            return 0.5
        return 1.0 if state.winner == seat else 0.0
    mine = side_material(state, seat)
    theirs = side_material(state, 1 - seat)
    return mine / (mine + theirs)
