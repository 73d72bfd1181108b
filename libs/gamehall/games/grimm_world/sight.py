"""Line of sight and the target's Dodge modifiers from terrain (W-LS-*, W-TT-*, AMB-15, AMB-21, AMB-23)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from gamehall.games.grimm_world.board import Board


@dataclass(frozen=True)
class Path:
    """What the centre-to-centre line between two spaces crosses (endpoint spaces excluded)."""

    cells: tuple[int, ...]
    corners: tuple[int, ...]
    """Spaces the line only touches at a corner (W-LS-04)."""
    lines: tuple[tuple[int, int], ...]
    """Lines (adjacent cell pairs) it crosses or touches at an end point."""


def path(board: Board, a: int, b: int) -> Path:
    """The geometry of the line from `a` to `b`, cached per battlefield (doubled coordinates, exact fractions)."""
    key = (a, b) if a <= b else (b, a)
    cached = board.sight_cache.get(key)
    if isinstance(cached, Path):
        return cached
    result = _trace(board, *key)
    board.sight_cache[key] = result
    return result


def _trace(board: Board, a: int, b: int) -> Path:
    ax, ay = board.xy(a)
    bx, by = board.xy(b)
    x0, y0, x1, y1 = 2 * ax + 1, 2 * ay + 1, 2 * bx + 1, 2 * by + 1
    dx, dy = x1 - x0, y1 - y0
    ts: set[Fraction] = {Fraction(0), Fraction(1)}
    for k in range(min(x0, x1) + 1, max(x0, x1)):
        if k % 2 == 0:
            ts.add(Fraction(k - x0, dx))
    for m in range(min(y0, y1) + 1, max(y0, y1)):
        if m % 2 == 0:
            ts.add(Fraction(m - y0, dy))
    order = sorted(ts)
    crossed: set[int] = set()
    for t0, t1 in pairwise(order):
        t = (t0 + t1) / 2
        mx, my = x0 + dx * t, y0 + dy * t
        crossed.add(board.at(int(mx // 2), int(my // 2)))
    corners: set[int] = set()
    lines: set[tuple[int, int]] = set()

    def add_line(p: tuple[int, int], q: tuple[int, int]) -> None:
        if board.inside(*p) and board.inside(*q):
            c, d = board.at(*p), board.at(*q)
            lines.add((min(c, d), max(c, d)))

    for t in order[1:-1]:
        px, py = x0 + dx * t, y0 + dy * t
        on_x = px.denominator == 1 and int(px) % 2 == 0
        on_y = py.denominator == 1 and int(py) % 2 == 0
        if on_x and on_y:  # exactly through a corner: the four spaces and four lines meeting there
            k, m = int(px) // 2, int(py) // 2
            for cx, cy in ((k - 1, m - 1), (k, m - 1), (k - 1, m), (k, m)):
                if board.inside(cx, cy):
                    cell = board.at(cx, cy)
                    if cell not in crossed:
                        corners.add(cell)
            add_line((k - 1, m - 1), (k, m - 1))
            add_line((k - 1, m), (k, m))
            add_line((k - 1, m - 1), (k - 1, m))
            add_line((k, m - 1), (k, m))
        elif on_x:
            k, row = int(px) // 2, int(py // 2)
            add_line((k - 1, row), (k, row))
        elif on_y:
            m, col = int(py) // 2, int(px // 2)
            add_line((col, m - 1), (col, m))
    crossed -= {a, b}
    corners -= {a, b}
    return Path(tuple(sorted(crossed)), tuple(sorted(corners)), tuple(sorted(lines)))


_BLOCKS_CROSSED = frozenset({"blocked", "cover", "elevation"})
_BLOCKS_CORNER = frozenset({"blocked", "elevation"})


def visible(board: Board, a: int, b: int, figures: Collection[int] = ()) -> bool:
    """Line of sight from `a` to `b` (W-LS-01..04). `figures`: spaces whose occupants block the view
    (the character's view is blocked by enemies; enemies' by none, W-LS-03)."""
    return sight(board, a, b, figures)[0]


def sight(board: Board, a: int, b: int, figures: Collection[int] = ()) -> tuple[bool, bool, bool]:
    """(visible, crosses an obstacle, touches a cover corner) for the line from `a` to `b`."""
    p = path(board, a, b)
    terrain = board.terrain
    obstacle = False
    cover_corner = False
    for cell in p.cells:
        kind = terrain[cell]
        if kind in _BLOCKS_CROSSED or cell in figures:
            return False, False, False
        if kind == "obstacle":
            obstacle = True
    for cell in p.corners:
        kind = terrain[cell]
        if kind in _BLOCKS_CORNER or cell in figures:
            return False, False, False
        if kind == "obstacle":
            obstacle = True
        elif kind == "cover":
            cover_corner = True
    for pair in p.lines:
        kind = board.lines.get(pair, "")
        if kind == "blocked":
            return False, False, False
        if kind == "obstacle":
            obstacle = True
    return True, obstacle, cover_corner


def dodge_modifier(board: Board, attacker: int, target: int, *, huge: bool = False,
                   figures: Collection[int] = ()) -> int | None:
    """The target's Dodge modifier from terrain, or None without line of sight (W-TT-02..06, W-LS-04).

    Each terrain type counts once; a Huge target ignores cover, obstacle and water but not the
    attacker's elevation (AMB-23); an elevated target below a plain attacker gets 0 (AMB-21).
    """
    seen, obstacle, cover_corner = sight(board, attacker, target, figures)
    if not seen:
        return None
    kind = board.terrain[target]
    mod = 0
    if not huge:
        if obstacle:
            mod += 1
        if kind == "cover" or cover_corner:
            mod += 1
        if kind == "water":
            mod -= 1
    if board.terrain[attacker] == "elevation" and kind != "elevation":
        mod -= 1
    return mod
