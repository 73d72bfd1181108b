"""Swiss pairing against the (simplified) Dutch rules, and its properties over many random tournaments."""

from __future__ import annotations

import random
from itertools import combinations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.tournaments import next_round, round_pairings
from gamehall.tournaments.swiss import SwissPlayer, pair_round
from tests.unit.tournaments.helpers import build, play_round


def fresh(n: int) -> list[SwissPlayer]:
    return [SwissPlayer(f"s{k + 1}", 0.0, k + 1, frozenset()) for k in range(n)]


def test_round_one_is_top_half_against_bottom_half_with_alternating_seats() -> None:
    pairs, bye = pair_round(fresh(8))
    assert bye is None
    assert pairs == [("s1", "s5"), ("s6", "s2"), ("s3", "s7"), ("s8", "s4")]


def test_round_one_bye_goes_to_the_lowest_seed() -> None:
    pairs, bye = pair_round(fresh(7))
    assert bye == "s7"
    assert {frozenset(p) for p in pairs} == {frozenset(x) for x in (("s1", "s4"), ("s2", "s5"), ("s3", "s6"))}


def test_score_groups_pair_top_half_against_bottom_half() -> None:
    # After round 1 (1-5, 2-6, 3-7, 4-8, higher seeds won): winners 1..4, losers 5..8.
    opponents = {1: 5, 2: 6, 3: 7, 4: 8, 5: 1, 6: 2, 7: 3, 8: 4}
    players = [
        SwissPlayer(f"s{k}", 1.0 if k <= 4 else 0.0, k, frozenset({f"s{opponents[k]}"}), seat_balance=0)
        for k in range(1, 9)
    ]
    pairs, _ = pair_round(players)
    assert {frozenset(p) for p in pairs} == {
        frozenset(x) for x in (("s1", "s3"), ("s2", "s4"), ("s5", "s7"), ("s6", "s8"))
    }


def test_a_rematch_is_avoided_by_transposing_the_bottom_half() -> None:
    players = fresh(4)
    players[0] = players[0]._replace(opponents=frozenset({"s3"}))
    players[2] = players[2]._replace(opponents=frozenset({"s1"}))
    pairs, _ = pair_round(players)
    assert {frozenset(p) for p in pairs} == {frozenset(("s1", "s4")), frozenset(("s2", "s3"))}


def test_an_odd_score_group_floats_its_lowest_player_down() -> None:
    players = [
        SwissPlayer("a", 1.0, 1, frozenset()),
        SwissPlayer("b", 1.0, 2, frozenset()),
        SwissPlayer("c", 1.0, 3, frozenset()),
        SwissPlayer("d", 0.0, 4, frozenset()),
    ]
    pairs, _ = pair_round(players)
    assert {frozenset(p) for p in pairs} == {frozenset(("a", "b")), frozenset(("c", "d"))}


def test_bye_skips_players_who_already_had_one() -> None:
    players = fresh(5)
    players[4] = players[4]._replace(had_bye=True)
    _, bye = pair_round(players)
    assert bye == "s4"


def _rematch_free_pairing_exists(active: list[str], met: dict[str, set[str]], byes: set[str]) -> bool:
    """Brute force: is there a pairing of `active` (with a bye to someone without one, if odd) with no rematch?"""
    graph = nx.Graph()
    graph.add_nodes_from(active)
    for a, b in combinations(active, 2):
        if b not in met[a]:
            graph.add_edge(a, b)
    if len(active) % 2:
        for p in active:
            if p not in byes:
                graph.add_edge(p, "BYE")
        graph.add_node("BYE")
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return bool(2 * len(matching) == graph.number_of_nodes())


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 24), st.integers(0, 10_000), st.booleans())
def test_swiss_properties_over_random_tournaments(n: int, seed: int, draws: bool) -> None:
    rng = random.Random(seed)
    rounds = min(n - 1 if n % 2 == 0 else n, 9)
    t = build("swiss", n, seed=seed, rounds=rounds)
    met: dict[str, set[str]] = {e.player: set() for e in t.entrants}
    byes: set[str] = set()
    while t.status == "running":
        pairings = round_pairings(t)
        seen = [p for pairing in pairings for p in pairing.players]
        assert sorted(seen) == sorted(met), "every player is paired exactly once per round"
        rematch = any(b in met[a] for pairing in pairings if not pairing.is_bye for a, b in [pairing.players])
        if rematch:
            assert not _rematch_free_pairing_exists(list(met), met, byes), "a rematch that could be avoided"
        for pairing in pairings:
            if pairing.is_bye:
                player = pairing.players[0]
                assert player not in byes or all(p in byes for p in met), "a repeated bye while avoidable"
                byes.add(player)
            else:
                a, b = pairing.players
                met[a].add(b)
                met[b].add(a)
        t = next_round(play_round(t, rng, draws))
    assert t.round == rounds
