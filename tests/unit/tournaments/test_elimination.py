"""Single and double elimination: published seeding order, byes to top seeds, consistent brackets."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.tournaments import (
    IllegalTransition,
    Tournament,
    adjudicate,
    current_pairings,
    drop,
    next_round,
    record_result,
    standings,
)
from gamehall.tournaments.elimination import seed_order
from tests.unit.tournaments.helpers import build, play_out


def test_seed_order_is_the_standard_bracket() -> None:
    assert seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_byes_go_to_the_top_seeds() -> None:
    t = build("single-elimination", 13)
    seeds = {e.player: e.seed for e in t.entrants}
    first_round = {p for pairing in current_pairings(t) for p in pairing.players}
    assert {seeds[p] for p in seeds if p not in first_round} == {1, 2, 3}
    assert sorted(tuple(sorted(seeds[p] for p in x.players)) for x in current_pairings(t)) == [
        (4, 13),
        (5, 12),
        (6, 11),
        (7, 10),
        (8, 9),
    ]


def _played(t: Tournament) -> list[tuple[str, str, str]]:
    """(bracket match id, winner, loser) of every played pairing."""
    out = []
    for p in t.pairings:
        assert p.result is not None
        k = p.result.ranks.index(1)
        out.append((p.bracket, p.players[k], p.players[1 - k]))
    return out


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 40), st.integers(0, 10_000))
def test_single_elimination_is_consistent(n: int, seed: int) -> None:
    t = play_out(build("single-elimination", n, seed=seed), seed=seed, draws=False)
    played = _played(t)
    assert len(played) == n - 1
    losses = Counter(loser for _, _, loser in played)
    champion = standings(t)[0].player
    assert losses[champion] == 0
    assert all(losses[e.player] == 1 for e in t.entrants if e.player != champion)
    by_id = {m.id: m for m in t.bracket}
    for match_id, winner, _ in played:
        nxt = by_id[match_id].win_to
        if nxt:
            assert by_id[nxt].players.count(winner) == 1, "the winner advances exactly once"
        else:
            assert winner == champion
    # A player plays again only after winning.
    appearances = Counter(p for pairing in t.pairings for p in pairing.players)
    wins = Counter(winner for _, winner, _ in played)
    for player, count in appearances.items():
        assert count == wins[player] + (0 if player == champion else 1)


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 33), st.integers(0, 10_000))
def test_double_elimination_is_consistent(n: int, seed: int) -> None:
    t = play_out(build("double-elimination", n, seed=seed), seed=seed, draws=False)
    played = _played(t)
    champion = standings(t)[0].player
    losses = Counter(loser for _, _, loser in played)
    assert losses[champion] <= 1
    assert all(losses[e.player] == 2 for e in t.entrants if e.player != champion), "two losses eliminate"
    by_id = {m.id: m for m in t.bracket}
    for match_id, winner, loser in played:
        match = by_id[match_id]
        if match.win_to:
            assert by_id[match.win_to].players.count(winner) == 1
        if match.section == "W":
            assert not match.lose_to or by_id[match.lose_to].players.count(loser) == 1, "a loser drops to the LB"
    # Once in the losers bracket, never back in the winners bracket.
    first_loss: dict[str, int] = {}
    for k, (_, _, loser) in enumerate(played):
        first_loss.setdefault(loser, k)
    for k, (match_id, winner, loser) in enumerate(played):
        if by_id[match_id].section == "W":
            assert first_loss.get(winner, k + 1) > k and first_loss[loser] == k
    gf, reset = by_id["GF"], by_id["GF2"]
    lb_champion = gf.players[1]
    assert reset.void == (gf.winner != lb_champion), "the reset is played only if the LB champion wins the final"
    assert len(played) == 2 * n - 2 + (0 if reset.void else 1)


def test_a_dropped_player_lets_the_opponent_advance() -> None:
    t = build("single-elimination", 8)
    pairing = current_pairings(t)[0]
    t = drop(t, pairing.players[1])
    assert all(p.id != pairing.id for p in current_pairings(t))
    rng = random.Random(1)
    for p in current_pairings(t):
        t = record_result(t, p.id, [1, 2] if rng.random() < 0.5 else [2, 1])
    t = next_round(t)
    assert any(pairing.players[0] in p.players for p in current_pairings(t))


def test_elimination_adjudication_is_refused_once_the_next_match_started() -> None:
    t = build("single-elimination", 4)
    first, second = current_pairings(t)
    t = record_result(t, first.id, [1, 2])
    t = adjudicate(t, first.id, [2, 1])  # allowed: the final has not been released
    t = record_result(t, second.id, [1, 2])
    t = next_round(t)
    try:
        adjudicate(t, first.id, [1, 2])
    except IllegalTransition:
        pass
    else:
        raise AssertionError("adjudicating a result whose next match started must be refused")
    final = current_pairings(t)[0]
    assert first.players[1] in final.players


def test_a_double_forfeit_sends_the_better_seed_through() -> None:
    from gamehall.tournaments import record_forfeit

    t = build("single-elimination", 4)
    seeds = {e.player: e.seed for e in t.entrants}
    pairing = current_pairings(t)[0]
    t = record_forfeit(t, pairing.id, list(pairing.players), "no-show")
    by_id = {m.id: m for m in t.bracket}
    final = by_id[by_id[pairing.bracket].win_to]
    assert min(pairing.players, key=seeds.__getitem__) in final.players
