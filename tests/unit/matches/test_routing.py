"""Rendezvous routing: every gateway picks the same owner, and a replica leaving moves only its matches."""

from __future__ import annotations

from collections import Counter

import pytest

from gamehall.matches.routing import owner_of, rank_replicas

REPLICAS = ["10.0.0.1:50051", "10.0.0.2:50051", "10.0.0.3:50051"]
MATCHES = [f"match-{n}" for n in range(3000)]


def test_the_owner_does_not_depend_on_the_order_replicas_are_listed() -> None:
    for match in MATCHES[:200]:
        assert owner_of(match, REPLICAS) == owner_of(match, list(reversed(REPLICAS)))
        assert rank_replicas(match, REPLICAS)[0] == owner_of(match, REPLICAS)


def test_matches_spread_over_replicas() -> None:
    counts = Counter(owner_of(m, REPLICAS) for m in MATCHES)
    assert set(counts) == set(REPLICAS)
    assert min(counts.values()) > len(MATCHES) / len(REPLICAS) * 0.8


def test_a_replica_leaving_moves_only_its_own_matches_to_their_successor() -> None:
    before = {m: rank_replicas(m, REPLICAS) for m in MATCHES}
    gone = REPLICAS[1]
    remaining = [r for r in REPLICAS if r != gone]
    for match, ranked in before.items():
        after = owner_of(match, remaining)
        if ranked[0] != gone:
            assert after == ranked[0]
        else:
            assert after == ranked[1]  # the successor in its rank takes it over


def test_no_replica_is_an_error() -> None:
    with pytest.raises(ValueError):
        owner_of("m", [])
