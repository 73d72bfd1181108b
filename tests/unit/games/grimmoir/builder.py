"""Small helpers that build GrimmoiR states directly (scenario tests do not play from the start)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamehall.engine import Action
from gamehall.games.grimmoir import GAME
from gamehall.games.grimmoir.catalog import CARD_INDEX, CARDS, DAMAGE_TYPES, Card
from gamehall.games.grimmoir.state import BOOK_OPEN, NO_BOOK, Phase, State, Unit

Row = Sequence[str | None]


def quiet_cards(damage: str | None = None) -> list[Card]:
    """Cards (of a damage type, or any) that no skill changes when they attack, are attacked or fall
    (no on_attack, on_attacked, passive or on_death skill): a scenario's numbers are then printed
    values and counters only, whatever the designed content says."""
    kind = None if damage is None else DAMAGE_TYPES.index(damage)
    return [
        c
        for c in CARDS
        if (kind is None or c.damage == kind) and not (c.on_attack or c.on_attacked or c.passive or c.on_death)
    ]


def quiet(n: int = 1, damage: str | None = None, skip: Sequence[str] = ()) -> list[str]:
    """`n` distinct quiet card ids (of that damage type if given, not in `skip`)."""
    ids = [c.id for c in quiet_cards(damage) if c.id not in skip]
    assert len(ids) >= n, f"content has only {len(ids)} quiet {damage or ''} cards"
    return ids[:n]


def card(card_id: str) -> Card:
    return CARDS[CARD_INDEX[card_id]]


def battle_state(
    front: Sequence[Row],
    back: Sequence[Row] = ((None, None, None), (None, None, None)),
    *,
    coins: tuple[int, int] = (5, 5),
    turn: int = 0,
    initiative: int = 0,
    flags: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    units: dict[str, dict[str, Any]] | None = None,
    round_number: int = 1,
) -> State:
    """A battle-phase state with the given characters in place.

    `front[seat]` / `back[seat]` list card ids (or None) for columns 1..3 of that seat's 1st / 2nd
    row. Book counters start open and pen counters as printed; `units` overrides fields per card id
    (wounds, plus, minus, exhausted, book, pens). No automatic moves are applied.
    """
    state = GAME.new_match(GAME.configure(flags=flags or {}, options=options or {}), seed=1)
    state.phase = Phase.BATTLE
    state.first = state.initiative = initiative
    state.turn = turn
    state.round = round_number
    state.coins = list(coins)
    overrides = units or {}
    teams: list[list[int]] = [[], []]
    for seat in (0, 1):
        for row, cells in ((0, front[seat]), (1, back[seat])):
            for col, cid in enumerate(cells):
                if cid is None:
                    continue
                c = card(cid)
                unit = Unit(c.index, book=BOOK_OPEN if c.has_book else NO_BOOK, pens=c.pens)
                for key, value in overrides.get(cid, {}).items():
                    setattr(unit, key, value)
                state.board[seat * 6 + row * 3 + col] = unit
                teams[seat].append(c.index)
    state.teams = teams
    state.hands = [[], []]
    state.mains = [CARDS[t[0]].faction if t else 0 for t in teams]
    return state


def unit_at(state: State, seat: int, row: int, col: int) -> Unit | None:
    """The unit at 1-based row and column of `seat`'s side."""
    return state.board[seat * 6 + (row - 1) * 3 + col - 1]


def id_at(state: State, seat: int, row: int, col: int) -> str | None:
    unit = unit_at(state, seat, row, col)
    return None if unit is None else CARDS[unit.card].id


def act(state: State, seat: int, action: Action) -> State:
    """Apply with full validation and return the next state."""
    return GAME.apply(state, seat, action)[0]


def of_type(damage: str, n: int, skip: Sequence[str] = ()) -> list[str]:
    """`n` distinct card ids of that damage type (skills regardless)."""
    kind = DAMAGE_TYPES.index(damage)
    ids = [c.id for c in CARDS if c.damage == kind and c.id not in skip]
    return ids[:n]


def draft_state(first: int = 0, flags: dict[str, Any] | None = None) -> State:
    """A fresh match whose first player (P1) is `first`."""
    state = GAME.new_match(GAME.configure(flags=flags or {}), seed=1)
    state.first = state.initiative = state.turn = first
    return state
