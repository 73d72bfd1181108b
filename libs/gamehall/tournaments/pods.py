"""Pods for multi-seat games: groups of N seated by standings, points by placement.

Players in standings order fill pods top down; each pod takes the best-placed free player,
then the next free players it has shared the fewest pods with (looking a few places ahead), so
repeat meetings are avoided when a near neighbour allows it. Pods have `size` seats, some one
smaller if that lets everyone play (down to `min_size`); any remainder gets a bye.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

LOOKAHEAD = 6


def pod_sizes(n: int, size: int, min_size: int) -> tuple[list[int], int]:
    """Pod sizes (largest first) for n players and how many players get a bye."""
    for short in range(0, size):
        smaller = size - 1
        if smaller < min_size and short:
            break
        rest = n - short * smaller
        if rest >= 0 and rest % size == 0:
            return [size] * (rest // size) + [smaller] * short, 0
    return [size] * (n // size), n % size


def seat_pods(
    order: Sequence[str], size: int, min_size: int, met: Mapping[str, Mapping[str, int]], first_seats: Mapping[str, int]
) -> tuple[list[list[str]], list[str]]:
    """Pods (players in seat order) and bye players, from players in standings order."""
    sizes, byes = pod_sizes(len(order), size, min_size)
    bye_players = list(order[len(order) - byes :]) if byes else []
    free = list(order[: len(order) - byes])
    pods: list[list[str]] = []
    for pod_size in sizes:
        pod = [free.pop(0)]
        while len(pod) < pod_size:
            window = free[:LOOKAHEAD]
            best = min(range(len(window)), key=lambda k: (sum(met.get(window[k], {}).get(p, 0) for p in pod), k))
            pod.append(free.pop(best))
        pods.append(sorted(pod, key=lambda p: (first_seats.get(p, 0), order.index(p))))
    return pods, bye_players


def placement_points(ranks: Sequence[int], table: Sequence[float]) -> list[float]:
    """Points per seat from ranks (1 best); tied seats share the mean of the places they cover."""
    points = []
    for r in ranks:
        tied = sum(1 for x in ranks if x == r)
        places = [table[k] if k < len(table) else 0.0 for k in range(r - 1, r - 1 + tied)]
        points.append(sum(places) / tied)
    return points
