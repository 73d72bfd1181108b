"""Enemy movement: Move Towards / Move Away / Retreat with the Decision Compass (W-EP-05..07, W-DC-*, AMB-6/16/20).

Move Towards walks step by step along a cheapest route to a space adjacent to the character with line of
sight; at each step the Decision Compass picks among first steps that stay on some cheapest route (Figs
96-97). Move Away, Retreat and the Cover / Elevation suffixes choose a destination space: the farthest
(away) or nearest (towards) qualifying one; ties go to the space lying in the compass's best direction,
and a tie the compass cannot break is settled by an Enemy Deck draw (W-DC-03).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Mapping

from gamehall.games.grimm_world.board import DIRS, Board, can_stand, step_cost
from gamehall.games.grimm_world.sight import dodge_modifier, visible

Draw = Callable[[], int]


def compass_key(board: Board, start: int, dest: int, compass: Mapping[str, int]) -> int:
    """The best (lowest) priority among the compass directions in which `dest` lies from `start`."""
    sx, sy = board.xy(start)
    dx, dy = board.xy(dest)
    dirs = []
    if dx < sx:
        dirs.append("left")
    if dx > sx:
        dirs.append("right")
    if dy > sy:
        dirs.append("up")
    if dy < sy:
        dirs.append("down")
    return min(compass[d] for d in dirs) if dirs else 5


def random_pick(count: int, draw: Draw) -> int:
    """W-DC-03: spread the numbers 1-6 evenly over `count` candidates and draw a Reaction Value.

    With 3 candidates: 1-2, 3-4, 5-6. When 6 does not divide evenly the left-over numbers are drawn
    again; beyond 6 candidates, draws are combined as base-6 digits (same rule, more digits).
    """
    if count <= 1:
        return 0
    digits, span = 1, 6
    while span < count:
        digits += 1
        span *= 6
    share = span // count
    while True:
        value = 0
        for _ in range(digits):
            value = value * 6 + (draw() - 1)
        if value < share * count:
            return value // share


def _ordered_dirs(compass: Mapping[str, int]) -> list[str]:
    return sorted(DIRS, key=lambda d: compass[d])


def reach(board: Board, start: int, mp: int, skills: frozenset[str], character: int, compass: Mapping[str, int],
          away: bool = False) -> dict[int, list[int]]:
    """Cheapest paths within `mp` from `start` (never through the character; through other figures is fine;
    `away`: no step may bring the mover closer to the character). Ties go to the compass-preferred path."""
    order = _ordered_dirs(compass)
    best: dict[int, list[int]] = {}
    heap: list[tuple[int, tuple[int, ...], int, list[int]]] = [(0, (), start, [])]
    while heap:
        cost, prio, cell, path = heapq.heappop(heap)
        if cell in best:
            continue
        best[cell] = path
        for d in order:
            n = board.neighbour(cell, d)
            if n is None or n == character or n in best:
                continue
            c = step_cost(board, cell, n, skills)
            if c is None or cost + c > mp:
                continue
            if away and board.distance(n, character) < board.distance(cell, character):
                continue
            heapq.heappush(heap, (cost + c, (*prio, compass[d]), n, [*path, n]))
    best.pop(start, None)
    return best


def _standable(board: Board, cell: int, occupied: Collection[int]) -> bool:
    return can_stand(board, cell) and cell not in occupied


def plan_towards(board: Board, start: int, character: int, mp: int, skills: frozenset[str], occupied: Collection[int],
                 compass: Mapping[str, int], draw: Draw, suffix: str = "") -> list[int] | None:
    """The path of a Move Towards, or None when the action cannot be executed (W-EP-05/07)."""
    if mp < 1:
        return None
    before = board.distance(start, character)
    if suffix:
        paths = reach(board, start, mp, skills, character, compass)
        cands = [c for c in paths if board.terrain[c] == suffix and _standable(board, c, occupied)
                 and board.distance(c, character) <= before]
        if not cands:
            return None
        key = {c: (board.distance(c, character), not visible(board, c, character),
                   compass_key(board, start, c, compass)) for c in cands}
        top = min(key.values())
        tied = sorted(c for c in cands if key[c] == top)
        return paths[tied[random_pick(len(tied), draw)]]
    if before == 1 and visible(board, start, character):
        return None  # already adjacent with line of sight: nothing to do
    targets, dist = _towards_table(board, character, skills)
    if start not in dist:
        return None
    order = _ordered_dirs(compass)
    best: tuple[int, bool, int] | None = None
    best_path: list[int] | None = None
    counter = 0

    def dfs(cell: int, left: int, path: list[int]) -> None:
        nonlocal best, best_path, counter
        if path and _standable(board, cell, occupied) and board.distance(cell, character) <= before:
            score = (dist[cell], not visible(board, cell, character), counter)
            counter += 1
            if best is None or score < best:
                best, best_path = score, list(path)
        if cell in targets:
            return
        for d in order:
            n = board.neighbour(cell, d)
            if n is None or n == character or n not in dist:
                continue
            c = step_cost(board, cell, n, skills)
            if c is None or c > left or dist[n] + c != dist[cell]:
                continue
            path.append(n)
            dfs(n, left - c, path)
            path.pop()

    dfs(start, mp, [])
    return best_path


def _towards_table(board: Board, character: int, skills: frozenset[str]) -> tuple[frozenset[int], dict[int, int]]:
    """The spaces next to the character with line of sight to it, and every space's cheapest MP to reach one
    (terrain only, so cached per battlefield)."""
    key = ("towards", character, skills)
    cached: tuple[frozenset[int], dict[int, int]] | None = board.memo.get(key)
    if cached is None:
        targets = frozenset(n for _, n in board.neighbours(character) if can_stand(board, n)
                            and visible(board, n, character))
        cached = (targets, _cost_to(board, targets, skills, character))
        board.memo[key] = cached
    return cached


def _cost_to(board: Board, targets: frozenset[int], skills: frozenset[str], character: int) -> dict[int, int]:
    """Cheapest MP from every space to the nearest target (reverse Dijkstra; never through the character)."""
    dist: dict[int, int] = {}
    heap = [(0, t) for t in sorted(targets)]
    heapq.heapify(heap)
    while heap:
        cost, cell = heapq.heappop(heap)
        if cell in dist:
            continue
        dist[cell] = cost
        for _, prev in board.neighbours(cell):
            if prev in dist or prev == character:
                continue
            c = step_cost(board, prev, cell, skills)
            if c is not None:
                heapq.heappush(heap, (cost + c, prev))
    return dist


def plan_away(board: Board, start: int, character: int, mp: int, skills: frozenset[str], occupied: Collection[int],
              compass: Mapping[str, int], draw: Draw, suffix: str = "", retreat: bool = False) -> list[int] | None:
    """The path of a Move Away (W-EP-06/07) or a Retreat reaction (W-ER-03, AMB-20), or None if impossible.

    The mover only takes steps that do not bring it closer (it never goes around the character, W-DC-02)
    and ends as far as it can; a Retreat must also end with cover at least as good as where it stood.
    """
    if mp < 1:
        return None
    before = board.distance(start, character)
    paths = reach(board, start, mp, skills, character, compass, away=True)
    huge = "huge" in skills

    def cover(cell: int) -> int:
        mod = dodge_modifier(board, character, cell, huge=huge)
        return 99 if mod is None else mod

    here = cover(start) if retreat else 0
    cands = [c for c in paths if _standable(board, c, occupied) and board.distance(c, character) >= before
             and (not suffix or board.terrain[c] == suffix) and (not retreat or cover(c) >= here)]
    if not cands:
        return None
    key = {c: (-board.distance(c, character), compass_key(board, start, c, compass)) for c in cands}
    top = min(key.values())
    tied = sorted(c for c in cands if key[c] == top)
    return paths[tied[random_pick(len(tied), draw)]]
