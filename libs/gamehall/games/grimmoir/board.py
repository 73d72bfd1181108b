"""Battlefield geometry: attack reach, column occupancy and the automatic moves (G-AU-01..03)."""

from __future__ import annotations

from gamehall.engine import Event
from gamehall.games.grimmoir.catalog import CARDS, MAGIC, MELEE
from gamehall.games.grimmoir.state import CENTRE, SIDE_COLUMNS, State, Unit


def units_of(board: list[Unit | None], seat: int) -> list[int]:
    """Occupied slots of `seat`, in board order (front row columns 1-3, then back row)."""
    base = seat * 6
    return [i for i in range(base, base + 6) if board[i] is not None]


def count_units(board: list[Unit | None], seat: int) -> int:
    return 6 - board[seat * 6 : seat * 6 + 6].count(None)


def column_occupied(board: list[Unit | None], seat: int, col: int) -> bool:
    base = seat * 6 + col
    return board[base] is not None or board[base + 3] is not None


def reach(board: list[Unit | None], slot: int) -> list[int]:
    """Opponent slots the unit at `slot` may attack (G-RC-01..06)."""
    unit = board[slot]
    assert unit is not None
    kind = CARDS[unit.card].damage
    foe = (1 - slot // 6) * 6
    col = slot % 3
    if kind == MELEE:
        if slot % 6 >= 3:
            return []  # a back-row melee character has its own ally in front of it (G-RC-02)
        return [foe + col] if board[foe + col] is not None else []
    if kind == MAGIC:
        return [i for i in range(foe, foe + 6) if board[i] is not None]
    return [i for i in (foe + col, foe + 3 + col) if board[i] is not None]


def shift_candidates(board: list[Unit | None], seat: int) -> list[int]:
    """Side columns of `seat` that must shift to its empty centre (G-AU-02): `seat` has none in the
    centre, has characters in that side column, and the opponent has none in it."""
    if column_occupied(board, seat, CENTRE):
        return []
    foe = 1 - seat
    return [c for c in SIDE_COLUMNS if column_occupied(board, seat, c) and not column_occupied(board, foe, c)]


def shift_column(board: list[Unit | None], seat: int, col: int, events: list[Event]) -> None:
    """Move `seat`'s characters in side column `col` to the centre column, each keeping its row."""
    base = seat * 6
    for row in (0, 3):
        board[base + row + CENTRE] = board[base + row + col]
        board[base + row + col] = None
    events.append(Event("column_shift", {"seat": seat, "from_column": col + 1, "to_column": CENTRE + 1}))


def step_forward(board: list[Unit | None], events: list[Event]) -> bool:
    """Every back-row character with a blank in front of it moves forward (G-AU-01). True if any moved."""
    moved = False
    for seat in (0, 1):
        base = seat * 6
        for col in range(3):
            front, back = base + col, base + 3 + col
            if board[front] is None and board[back] is not None:
                board[front], board[back] = board[back], None
                moved = True
                unit = board[front]
                assert unit is not None
                events.append(Event("advanced", {"seat": seat, "character": CARDS[unit.card].id, "column": col + 1}))
    return moved


def settle(state: State, events: list[Event]) -> int:
    """Apply automatic moves until nothing changes: forward moves first, then column shifts.

    Returns the seat that must choose a column (AMB-2, flag shift_choice=owner), or -1.
    """
    board = state.board
    while True:
        step_forward(board, events)
        if count_units(board, 0) == 0 or count_units(board, 1) == 0:
            return -1  # the game is over; nothing faces anything any more
        shifted = False
        for seat in (0, 1):
            candidates = shift_candidates(board, seat)
            if not candidates:
                continue
            if len(candidates) == 2:
                if state.rules.shift_choice == "owner":
                    return seat
                candidates = candidates[:1]
            shift_column(board, seat, candidates[0], events)
            shifted = True
            break
        if not shifted:
            return -1
