"""Pods for multi-seat games: sizes, everyone seated once per round, placement points, few repeat meetings."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.tournaments import next_round, round_pairings
from gamehall.tournaments.pods import placement_points, pod_sizes
from tests.unit.tournaments.helpers import build, play_round


def test_pod_sizes_prefer_full_pods_then_one_seat_short() -> None:
    assert pod_sizes(16, 4, 4) == ([4, 4, 4, 4], 0)
    assert pod_sizes(11, 4, 3) == ([4, 4, 3], 0)
    assert pod_sizes(9, 4, 3) == ([3, 3, 3], 0)
    assert pod_sizes(10, 4, 4) == ([4, 4], 2)


def test_placement_points_share_ties() -> None:
    assert placement_points([1, 2, 3, 4], (3, 2, 1, 0)) == [3, 2, 1, 0]
    assert placement_points([1, 1, 3, 4], (3, 2, 1, 0)) == [2.5, 2.5, 1, 0]
    assert placement_points([2, 1, 2], (5, 3, 1, 0)) == [2, 5, 2]


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 30), st.integers(0, 10_000))
def test_every_player_sits_once_per_round(n: int, seed: int) -> None:
    t = build("pods", n, seed=seed, seats=4, rounds=4, min_pod=3)
    rng = random.Random(seed)
    meetings: Counter[frozenset[str]] = Counter()
    while t.status == "running":
        pairings = round_pairings(t)
        seated = [p for pairing in pairings for p in pairing.players]
        assert sorted(seated) == sorted(e.player for e in t.entrants)
        assert all(len(p.players) in (3, 4) or p.is_bye for p in pairings)
        for pairing in pairings:
            meetings.update(frozenset(pair) for pair in combinations(pairing.players, 2))
        t = next_round(play_round(t, rng))
    assert t.round == 4
    if n >= 16:
        assert sum(count - 1 for count in meetings.values()) <= len(meetings) // 2, "repeat meetings stay rare"
