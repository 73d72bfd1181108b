"""A simulated 64-player Swiss: standings and tie-breakers recomputed independently from the raw results."""

from __future__ import annotations

import itertools
from collections import defaultdict

import pytest

from gamehall.tournaments import Tournament, standings
from tests.unit.tournaments.helpers import build, play_out


def _independent_table(t: Tournament) -> dict[str, dict[str, float]]:
    """Points, Buchholz, Buchholz cut-1 and Sonneborn-Berger straight from the pairings (FIDE definitions)."""
    points: dict[str, float] = defaultdict(float)
    results: dict[str, list[tuple[str, float]]] = defaultdict(list)  # (opponent, my score in that game)
    for pairing in t.pairings:
        assert pairing.result is not None
        if pairing.is_bye:
            points[pairing.players[0]] += 1.0
            continue
        a, b = pairing.players
        ra, rb = pairing.result.ranks
        sa = 1.0 if ra < rb else 0.5 if ra == rb else 0.0
        points[a] += sa
        points[b] += 1.0 - sa
        results[a].append((b, sa))
        results[b].append((a, 1.0 - sa))
    table = {}
    for e in t.entrants:
        opp = [points[o] for o, _ in results[e.player]]
        table[e.player] = {
            "points": points[e.player],
            "buchholz": sum(opp),
            "buchholz-cut1": sum(opp) - min(opp),
            "sonneborn-berger": sum(points[o] * s for o, s in results[e.player]),
        }
    return table


@pytest.mark.parametrize("seed", [1, 2])
def test_simulated_64_player_swiss(seed: int) -> None:
    t = play_out(build("swiss", 64, seed=seed, rounds=6), seed=seed)
    assert t.status == "finished" and t.round == 6
    pairs = [frozenset(p.players) for p in t.pairings if not p.is_bye]
    assert len(pairs) == len(set(pairs)) == 6 * 32, "no rematch, everyone paired every round"
    expected = _independent_table(t)
    rows = standings(t)
    assert [r.rank for r in rows] == list(range(1, 65))
    for row in rows:
        mine = expected[row.player]
        assert row.points == pytest.approx(mine["points"])
        for name in ("buchholz", "buchholz-cut1", "sonneborn-berger"):
            assert row.tiebreaks[name] == pytest.approx(mine[name]), (row.player, name)
    seeds = {e.player: e.seed for e in t.entrants}
    for upper, lower in itertools.pairwise(rows):
        key_u = (upper.points, *(upper.tiebreaks[n] for n in ("buchholz-cut1", "buchholz", "sonneborn-berger")))
        key_l = (lower.points, *(lower.tiebreaks[n] for n in ("buchholz-cut1", "buchholz", "sonneborn-berger")))
        assert key_u >= key_l
        if key_u == key_l and upper.tiebreaks["head-to-head"] == lower.tiebreaks["head-to-head"]:
            assert seeds[upper.player] < seeds[lower.player]
    # Ratings drive results, so the top of the table should be stronger than the bottom on average.
    ratings = {e.player: e.rating for e in t.entrants}
    top = sum(ratings[r.player] for r in rows[:16]) / 16
    bottom = sum(ratings[r.player] for r in rows[-16:]) / 16
    assert top > bottom


def test_head_to_head_breaks_a_two_way_tie_between_players_who_met() -> None:
    from gamehall.tournaments.standings import Game, head_to_head

    games = {
        "a": [Game("a", ("b",), 1.0, 1.0, True), Game("a", ("c",), 0.0, 0.0, False)],
        "b": [Game("b", ("a",), 0.0, 0.0, False), Game("b", ("d",), 1.0, 1.0, True)],
    }
    assert head_to_head("a", games, ["a", "b"]) == 1.0
    assert head_to_head("b", games, ["a", "b"]) == 0.0
    assert head_to_head("a", games, ["a", "b", "c"]) == 0.0  # b never met c: not applicable
