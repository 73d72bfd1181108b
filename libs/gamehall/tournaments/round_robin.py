"""Round robin by the FIDE Berger tables: every pair meets exactly once; a dummy bye for odd counts."""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.tournaments.model import BYE


def berger_rounds(players: Sequence[str]) -> list[list[tuple[str, str]]]:
    """Rounds of (first seat, second seat) pairs in Berger order for players listed by seed.

    With n (even, a BYE added when odd) numbered 1..n, round r pairs i and j when
    i + j ≡ r + 1 (mod n-1) and player n with i where 2i ≡ r + 1; the first seat is i when
    (j - i) mod (n-1) is odd, and player n takes the first seat in even rounds (FIDE C.05 Annex 1).
    """
    field = list(players)
    if len(field) % 2:
        field.append(BYE)
    n = len(field)
    if n < 2:
        return []
    m = n - 1
    rounds: list[list[tuple[str, str]]] = []
    for r in range(1, n):
        target = (r + 1) % m
        pairs: list[tuple[str, str]] = []
        fixed = next(i for i in range(1, n) if (2 * i) % m == target)
        last = field[n - 1]
        pairs.append((last, field[fixed - 1]) if r % 2 == 0 else (field[fixed - 1], last))
        for i in range(1, n):
            j = (target - i) % m or m
            if i < j and i != fixed:
                first, second = (i, j) if (j - i) % m % 2 == 1 else (j, i)
                pairs.append((field[first - 1], field[second - 1]))
        rounds.append(_table_order(pairs, field, fixed))
    return rounds


def _table_order(pairs: list[tuple[str, str]], field: list[str], fixed: int) -> list[tuple[str, str]]:
    """Tables in Berger-table order: player n's table first, then first-seat numbers rising from its partner."""
    number = {p: k + 1 for k, p in enumerate(field)}
    m = len(field) - 1
    head, rest = pairs[0], pairs[1:]
    return [head, *sorted(rest, key=lambda pair: (number[pair[0]] - fixed) % m)]
