"""Land-map geometry (AMB-1, data-driven): for each travel method, where a hero may go and what it passes.

`MOVES[method][slot]` lists `(destination, moved_through, via)`; `via` tells the two Ship directions
apart (0 clockwise along the coast ring, 1 counter-clockwise) and is 0 otherwise.
"""

from __future__ import annotations

from gamehall.games.tiny_epic_quest.content import PACK
from gamehall.games.tiny_epic_quest.content.schema import Layout
from gamehall.games.tiny_epic_quest.tables import FOOT, GRYPHON, HORSE, RAFT, SHIP

Route = tuple[int, tuple[int, ...], int]


def _line_moves(lines: list[list[int]], n: int) -> list[list[Route]]:
    out: list[list[Route]] = [[] for _ in range(n)]
    for line in lines:
        for i, src in enumerate(line):
            for j, dst in enumerate(line):
                if i != j:
                    lo, hi = min(i, j), max(i, j)
                    between = line[lo + 1 : hi]
                    out[src].append((dst, tuple(between if i < j else reversed(between)), 0))
    return out


def _ship_moves(ring: list[int], n: int) -> list[list[Route]]:
    out: list[list[Route]] = [[] for _ in range(n)]
    m = len(ring)
    for i, src in enumerate(ring):
        for step in range(1, m):
            cw = ring[(i + step) % m]
            out[src].append((cw, tuple(ring[(i + k) % m] for k in range(1, step)), 0))
            ccw = ring[(i - step) % m]
            out[src].append((ccw, tuple(ring[(i - k) % m] for k in range(1, step)), 1))
    return out


def _adjacent(layout: Layout, diagonal: bool) -> list[list[int]]:
    pos = {s.id: (s.row, s.col) for s in layout.slots}
    out: list[list[int]] = [[] for _ in range(len(pos))]
    for a, (ra, ca) in pos.items():
        for b, (rb, cb) in pos.items():
            dr, dc = abs(ra - rb), abs(ca - cb)
            if a != b and max(dr, dc) == 1 and (diagonal or dr + dc == 1):
                out[a].append(b)
    return out


class Geometry:
    """Routes per method and slot, the coast, and card adjacency, for one layout."""

    def __init__(self, layout: Layout) -> None:
        n = len(layout.slots)
        self.n_slots = n
        self.coast = frozenset(layout.coast_ring)
        self.ring = tuple(layout.coast_ring)
        self.role = tuple(s.role for s in sorted(layout.slots, key=lambda s: s.id))
        self.adjacent = tuple(tuple(a) for a in _adjacent(layout, diagonal=True))
        self.adjacent_orth = tuple(tuple(a) for a in _adjacent(layout, diagonal=False))
        no_cards: tuple[int, ...] = ()
        foot: list[list[Route]] = [[(b, no_cards, 0) for b in a] for a in self.adjacent]
        foot_orth: list[list[Route]] = [[(b, no_cards, 0) for b in a] for a in self.adjacent_orth]
        moves: dict[int, list[list[Route]]] = {
            HORSE: _line_moves(layout.roads, n),
            RAFT: _line_moves(layout.rivers, n),
            GRYPHON: _line_moves(layout.diagonals, n),
            SHIP: _ship_moves(layout.coast_ring, n),
            FOOT: foot,
        }
        self.moves: tuple[tuple[tuple[Route, ...], ...], ...] = tuple(
            tuple(tuple(r) for r in moves[m]) for m in range(5)
        )
        self.foot_orth: tuple[tuple[Route, ...], ...] = tuple(tuple(r) for r in foot_orth)
        self.cross = tuple(s.id for s in layout.slots if s.role == "cross")
        self.castles = tuple(s.id for s in layout.slots if s.role == "castle")
        self.outer = tuple(s.id for s in layout.slots if s.role == "coast")

    def routes(self, method: int, slot: int, foot_diagonal: bool) -> tuple[Route, ...]:
        if method == FOOT and not foot_diagonal:
            return self.foot_orth[slot]
        return self.moves[method][slot]


GEOMETRY = Geometry(PACK.layout)
