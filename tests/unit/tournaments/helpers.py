"""Shared test helpers: build a tournament with n players and play it out with results drawn from ratings."""

from __future__ import annotations

import random

from gamehall.tournaments import (
    Tournament,
    TournamentConfig,
    check_in,
    create,
    current_pairings,
    next_round,
    record_result,
    register,
    start,
)
from gamehall.tournaments.model import Format


def build(fmt: Format, n: int, seed: int = 0, seats: int = 2, rounds: int = 0, min_pod: int = 0) -> Tournament:
    """A started tournament of n checked-in players rated by a seeded generator."""
    rng = random.Random(seed)
    config = TournamentConfig(
        game="grimslingers",
        mode="versus-1v1" if seats == 2 else "versus-ffa",
        format=fmt,
        registration_opens=0.0,
        registration_closes=100.0,
        rounds=rounds,
        seats=seats,
        min_pod=min_pod,
    )
    t = create(f"t{seed}", config)
    for k in range(n):
        t = register(t, f"p{k:03d}", rng.gauss(1500, 200), now=float(k % 100))
        t = check_in(t, f"p{k:03d}")
    return start(t, now=100.0)


def rating_of(t: Tournament) -> dict[str, float]:
    return {e.player: e.rating for e in t.entrants}


def draw_ranks(players: list[str], ratings: dict[str, float], rng: random.Random, draws: bool) -> list[int]:
    """Ranks per seat: 2 players by an Elo expectation (10% draws if allowed); pods by noisy ratings."""
    if len(players) == 2:
        a, b = players
        if draws and rng.random() < 0.1:
            return [1, 1]
        expect = 1 / (1 + 10 ** ((ratings[b] - ratings[a]) / 400))
        return [1, 2] if rng.random() < expect else [2, 1]
    noisy = [ratings[p] + rng.gauss(0, 150) for p in players]
    order = sorted(range(len(players)), key=lambda k: -noisy[k])
    ranks = [0] * len(players)
    for place, k in enumerate(order):
        ranks[k] = place + 1
    return ranks


def play_round(t: Tournament, rng: random.Random, draws: bool = True) -> Tournament:
    ratings = rating_of(t)
    for pairing in current_pairings(t):
        t = record_result(t, pairing.id, draw_ranks(pairing.players, ratings, rng, draws))
    return t


def play_out(t: Tournament, seed: int = 0, draws: bool = True, max_rounds: int = 200) -> Tournament:
    """Play every round to the end; returns the finished tournament."""
    rng = random.Random(seed)
    for _ in range(max_rounds):
        if t.status != "running":
            return t
        t = play_round(t, rng, draws)
        t = next_round(t)
    raise AssertionError("the tournament did not finish")
