"""Seating parties into teams: feasibility while a group grows, and the fairest final assignment."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product

from gamehall.matchmaking.ratings import Rating, predict_draw
from gamehall.matchmaking.tickets import MatchShape

_MAX_ENUMERATION = 4096


@lru_cache(maxsize=4096)
def packable(sizes: tuple[int, ...], teams: int, team_size: int) -> bool:
    """Can parties of `sizes` (sorted descending) share `teams` teams of `team_size` without splitting?"""
    loads = [0] * teams

    def place(k: int) -> bool:
        if k == len(sizes):
            return True
        tried: set[int] = set()
        for t in range(teams):
            if loads[t] in tried or loads[t] + sizes[k] > team_size:
                continue
            tried.add(loads[t])
            loads[t] += sizes[k]
            if place(k + 1):
                return True
            loads[t] -= sizes[k]
        return False

    return place(0)


def fits(sizes: Sequence[int], shape: MatchShape) -> bool:
    """Whether parties of `sizes` can all sit in one match of `shape` (maybe with seats to spare)."""
    if sum(sizes) > shape.seats:
        return False
    if shape.free_for_all:
        return True
    return packable(tuple(sorted(sizes, reverse=True)), shape.teams, shape.team_size)


def assign_teams(parties: Sequence[Sequence[Rating]], shape: MatchShape) -> tuple[list[int], float]:
    """The team index of each party maximising predicted draw (ties: first found); and that quality.

    Parties must fill the shape exactly. Free-for-all gives each player its own team in order.
    """
    if shape.free_for_all:
        flat = [[r] for party in parties for r in party]
        return list(range(len(parties))), predict_draw(flat)
    best: tuple[list[int], float] | None = None
    count = 0
    # The first party sits on team 0: teams are interchangeable, this halves the search.
    for rest in product(range(shape.teams), repeat=len(parties) - 1):
        choice = [0, *rest]
        loads = [0] * shape.teams
        for party, team in zip(parties, choice, strict=True):
            loads[team] += len(party)
        if any(load != shape.team_size for load in loads):
            continue
        grouped: list[list[Rating]] = [[] for _ in range(shape.teams)]
        for party, team in zip(parties, choice, strict=True):
            grouped[team].extend(party)
        quality = predict_draw(grouped)
        if best is None or quality > best[1]:
            best = (choice, quality)
        count += 1
        if count >= _MAX_ENUMERATION:
            break
    if best is None:
        raise ValueError("parties do not fill the match shape")
    return best
