"""The battlefield: Terrain Cards laid out by a Conflict Card (orientation, space numbering) and movement costs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from gamehall.games.grimm_world.catalog import CONFLICTS, TERRAIN

DIRS: dict[str, tuple[int, int]] = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}
DIR_ORDER = ("up", "down", "left", "right")


class BoardError(ValueError):
    """A conflict names a space or Terrain Card the battlefield does not have."""


@dataclass
class Board:
    """A width x height grid, (0, 0) bottom-left, y pointing up; cells are indexed y * width + x.

    `terrain` is one terrain type per cell; `lines` maps an ordered pair of adjacent cells to 'obstacle' or 'blocked'.
    """

    width: int
    height: int
    terrain: list[str]
    lines: dict[tuple[int, int], str] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    sight_cache: dict[tuple[int, int], object] = field(default_factory=dict, repr=False)
    memo: dict[Any, Any] = field(default_factory=dict, repr=False)
    """Terrain-only results of movement planning, per battlefield."""
    _adj: list[list[tuple[str, int]]] | None = field(default=None, repr=False)
    _nbr: list[dict[str, int]] | None = field(default=None, repr=False)
    _costs: dict[frozenset[str], dict[tuple[int, int], int | None]] = field(default_factory=dict, repr=False)

    def invalidate(self) -> None:
        """Forget cached geometry after the terrain changed (fixtures build boards step by step)."""
        self.sight_cache.clear()
        self.memo.clear()
        self._adj = None
        self._nbr = None
        self._costs.clear()

    @classmethod
    def fixture(cls, width: int, height: int, cells: Mapping[tuple[int, int], str] | None = None,
                lines: Iterable[tuple[tuple[int, int], tuple[int, int], str]] = (),
                origin: tuple[int, int] = (0, 0)) -> Board:
        """A test battlefield from (x, y) coordinates relative to `origin` (the scenario fixtures' notation)."""
        ox, oy = origin
        board = cls(width, height, ["open"] * (width * height))
        for (x, y), kind in (cells or {}).items():
            board.terrain[board.at(x - ox, y - oy)] = kind
        board.invalidate()
        for (a, b, kind) in lines:
            board.set_line(board.at(a[0] - ox, a[1] - oy), board.at(b[0] - ox, b[1] - oy), kind)
        return board

    def at(self, x: int, y: int) -> int:
        if not self.inside(x, y):
            raise BoardError(f"({x}, {y}) is outside the {self.width}x{self.height} battlefield")
        return y * self.width + x

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def set_line(self, a: int, b: int, kind: str) -> None:
        self.lines[(min(a, b), max(a, b))] = kind
        self.invalidate()

    def line(self, a: int, b: int) -> str:
        return self.lines.get((min(a, b), max(a, b)), "")

    def neighbour(self, cell: int, direction: str) -> int | None:
        if self._nbr is None:
            self._nbr = [dict(self.neighbours(c)) for c in range(self.width * self.height)]
        return self._nbr[cell].get(direction)

    def neighbours(self, cell: int) -> list[tuple[str, int]]:
        """(direction, cell) of the orthogonal neighbours on the field, in DIR_ORDER (precomputed)."""
        if self._adj is None:
            adj = []
            for c in range(self.width * self.height):
                x, y = self.xy(c)
                adj.append([(d, self.at(x + dx, y + dy)) for d in DIR_ORDER
                            for dx, dy in (DIRS[d],) if self.inside(x + dx, y + dy)])
            self._adj = adj
        return self._adj[cell]

    def distance(self, a: int, b: int) -> int:
        """Range, counted orthogonally space by space (W-LS-05)."""
        w = self.width
        return abs(a % w - b % w) + abs(a // w - b // w)

    def cell_of(self, space: str) -> int:
        for cell, name in self.names.items():
            if name == space:
                return cell
        raise BoardError(f"space {space} is not on this battlefield")


def step_cost(board: Board, a: int, b: int, skills: frozenset[str] = frozenset()) -> int | None:
    """MP to step from `a` into the adjacent `b` (W-MV-01, W-TT-*, W-SK-01), or None if it cannot be done.

    Each terrain type counts once (W-TT-06, AMB-8). A flying figure may pass over a blocked space (the
    caller forbids ending there) but never crosses a blocked line.
    """
    table = board._costs.get(skills)
    if table is None:
        table = board._costs[skills] = {}
    key = (a, b)
    if key in table:
        return table[key]
    cost = _step_cost(board, a, b, skills)
    table[key] = cost
    return cost


def _step_cost(board: Board, a: int, b: int, skills: frozenset[str]) -> int | None:
    line = board.line(a, b)
    if line == "blocked":
        return None
    kind = board.terrain[b]
    if kind == "blocked" and "flying" not in skills:
        return None
    light = bool(skills & {"flying", "huge"})
    cost = 1
    if (line == "obstacle" or kind == "obstacle") and not (light or "agile" in skills):
        cost += 1
    if kind == "water" and not light:
        cost += 1
    if kind == "elevation" and board.terrain[a] != "elevation" and not (light or "agile" in skills):
        cost += 1
    return cost


def can_stand(board: Board, cell: int) -> bool:
    return board.terrain[cell] != "blocked"


def card_cells(up: bool) -> list[tuple[int, int]]:
    """Local (x, y) of spaces 1-6 on a Terrain Card (3 wide, 2 tall, reading order; y up).

    Pointing down is a 180 degree turn, so the numbering runs reversed (W-CO-12, AMB-7).
    """
    cells = []
    for i in range(6):
        lx, ly = i % 3, 1 - i // 3
        cells.append((lx, ly) if up else (2 - lx, 1 - ly))
    return cells


def build(grid: tuple[tuple[str, ...], ...]) -> Board:
    """Lay out Terrain Cards: `grid` rows top first, each entry 'NN^' (pointing up) or 'NNv' (down)."""
    rows, cols = len(grid), len(grid[0])
    board = Board(3 * cols, 2 * rows, ["open"] * (6 * rows * cols))
    for r, row in enumerate(grid):
        if len(row) != cols:
            raise BoardError("every row of a conflict's grid needs the same number of cards")
        for c, code in enumerate(row):
            number, arrow = code[:2], code[2:]
            if number not in TERRAIN or arrow not in ("^", "v"):
                raise BoardError(f"bad terrain card code {code!r}")
            card = TERRAIN[number]
            local = card_cells(arrow == "^")
            cell_of_space = []
            for i, (lx, ly) in enumerate(local):
                cell = board.at(3 * c + lx, 2 * (rows - 1 - r) + ly)
                board.terrain[cell] = card.spaces[i]
                board.names[cell] = f"{number}/{i + 1}"
                cell_of_space.append(cell)
            for key, kind in card.lines.items():
                s, t = (int(v) - 1 for v in key.split("-"))
                board.set_line(cell_of_space[s], cell_of_space[t], kind)
    return board


@cache
def conflict_board(conflict: str) -> Board:
    """The battlefield of a Conflict Card (built once per process)."""
    return build(CONFLICTS[conflict].grid)
