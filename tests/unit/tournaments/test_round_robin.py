"""Round robin: the published FIDE Berger tables, and every pair meeting exactly once."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.tournaments import BYE, standings
from gamehall.tournaments.round_robin import berger_rounds
from tests.unit.tournaments.helpers import build, play_out

FIDE_6 = [
    "1-6 2-5 3-4",
    "6-4 5-3 1-2",
    "2-6 3-1 4-5",
    "6-5 1-4 2-3",
    "3-6 4-2 5-1",
]
FIDE_4 = ["1-4 2-3", "4-3 1-2", "2-4 3-1"]


def _table(n: int) -> list[str]:
    return [" ".join(f"{a}-{b}" for a, b in rnd) for rnd in berger_rounds([str(k) for k in range(1, n + 1)])]


def test_berger_tables_match_fide() -> None:
    assert _table(4) == FIDE_4
    assert _table(6) == FIDE_6
    assert _table(5) == [line.replace("6", BYE) for line in FIDE_6]


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 20))
def test_every_pair_meets_exactly_once(n: int) -> None:
    players = [f"p{k}" for k in range(n)]
    rounds = berger_rounds(players)
    met = Counter(frozenset(pair) for rnd in rounds for pair in rnd if BYE not in pair)
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(met.values()) == {1}
    for rnd in rounds:
        seated = [p for pair in rnd if BYE not in pair for p in pair]
        assert len(seated) == len(set(seated)) == (n if n % 2 == 0 else n - 1)
    firsts = Counter(pair[0] for rnd in rounds for pair in rnd if BYE not in pair)
    games = Counter(p for rnd in rounds for pair in rnd for p in pair if BYE not in pair)
    assert all(abs(2 * firsts[p] - games[p]) <= 1 for p in players), "first seats are balanced"


def test_a_round_robin_tournament_plays_every_pair_once() -> None:
    t = play_out(build("round-robin", 7, seed=3), seed=3)
    assert t.status == "finished" and t.round == 7
    met = Counter(frozenset(p.players) for p in t.pairings if not p.is_bye)
    assert len(met) == 21 and set(met.values()) == {1}
    assert Counter(p.players[0] for p in t.pairings if p.is_bye) == Counter({e.player: 1 for e in t.entrants})
    table = standings(t)
    assert sum(row.points for row in table) == 21  # one point per game, the rest rounds score nothing
