"""Matchmaking rows: queue passes (100k 1v1, 10k 4-seat FFA), Swiss pairing of 4,096 players, rating updates/s.

Times are CPU milliseconds of this process (`time.process_time`), so a busy machine does not inflate them.
"""

from __future__ import annotations

import random
import time

from gamehall.bench.rows import Row
from gamehall.matchmaking import MatchPolicy, MatchShape, Member, Rating, Ticket, match_pass, update
from gamehall.tournaments import Entrant, TournamentConfig, create, current_pairings, next_round, record_results, start


def queued_tickets(count: int, seed: int = 1) -> list[Ticket]:
    """Solo tickets with skills ~ N(25, 6), sigmas 1.5..8.3 and waits of 0..90 s at now=100."""
    rng = random.Random(seed)
    return [
        Ticket(
            f"t{k}",
            "bench",
            "m",
            (Member(f"p{k}", Rating(rng.gauss(25, 6), rng.uniform(1.5, 8.3))),),
            100.0 - rng.uniform(0, 90),
        )
        for k in range(count)
    ]


def pass_seconds(count: int, shape: MatchShape, repeats: int = 3) -> tuple[float, int, int]:
    """Best CPU milliseconds of a matching pass over `count` tickets; matches made and tickets left."""
    tickets = queued_tickets(count)
    best = float("inf")
    made = left = 0
    for _ in range(repeats):
        start_t = time.process_time()
        result = match_pass(tickets, shape, 100.0, MatchPolicy())
        best = min(best, (time.process_time() - start_t) * 1000)
        made, left = len(result.matches), len(result.remaining)
    return best, made, left


def swiss_seconds(players: int = 4096, rounds: int = 12, seed: int = 1) -> tuple[float, float]:
    """Worst and mean CPU milliseconds of `next_round` (standings from results + Swiss pairing) over a full event."""
    rng = random.Random(seed)
    config = TournamentConfig("bench", "m", "swiss", 0.0, 1.0, rounds=rounds)
    ratings = {f"p{k}": rng.gauss(1500, 200) for k in range(players)}
    t = create("bench", config)
    # Registered as data in one step (4,096 `register` transitions would each copy the field).
    t.entrants = [Entrant(p, r, 0.5, checked_in=True) for p, r in ratings.items()]
    t = start(t, now=1.0)
    times = []
    while t.status == "running":
        results = []
        for pairing in current_pairings(t):
            a, b = pairing.players
            expect = 1 / (1 + 10 ** ((ratings[b] - ratings[a]) / 400))
            roll = rng.random()
            results.append((pairing.id, [1, 1] if roll < 0.1 else [1, 2] if roll < 0.1 + 0.9 * expect else [2, 1]))
        t = record_results(t, results)
        start_t = time.process_time()
        t = next_round(t)
        if t.status == "running":
            times.append((time.process_time() - start_t) * 1000)
    return max(times), sum(times) / len(times)


def rating_updates_per_s(seconds: float = 0.5) -> tuple[float, float]:
    """Rating updates per CPU second: 1v1 matches and 4-player free-for-all matches."""
    ratings = {f"p{k}": Rating(25 + k % 7, 8 - k % 5) for k in range(8)}
    out = []
    for teams, ranks in (([["p0"], ["p1"]], [1, 2]), ([["p0"], ["p1"], ["p2"], ["p3"]], [2, 1, 4, 3])):
        count = 0
        start_t = time.process_time()
        while time.process_time() - start_t < seconds:
            for _ in range(100):
                update(ratings, teams, ranks)
            count += 100
        out.append(count / (time.process_time() - start_t))
    return out[0], out[1]


def matchmaking_rows(quick: bool = False) -> list[Row]:
    rows = []
    one, made, left = pass_seconds(100_000, MatchShape(2), repeats=1 if quick else 3)
    rows.append(
        Row(
            "matchmaking pass 100,000 1v1 tickets",
            one,
            "ms (CPU)",
            baseline="cpu baseline",
            goal="≤ 1,000 ms (1 core)",
            extra=f"{made:,} matches, {left:,} left",
        )
    )
    ffa, made, left = pass_seconds(10_000, MatchShape(4), repeats=1 if quick else 3)
    rows.append(
        Row(
            "matchmaking pass 10,000 4-seat FFA tickets",
            ffa,
            "ms (CPU)",
            baseline="cpu baseline",
            extra=f"{made:,} matches, {left:,} left",
        )
    )
    worst, mean = swiss_seconds(1024 if quick else 4096, rounds=12)
    rows.append(
        Row(
            f"swiss pairing {1024 if quick else 4096:,} players (worst round of 12)",
            worst,
            "ms (CPU)",
            baseline="cpu baseline",
            goal="≤ 2,000 ms",
            extra=f"mean {mean:,.0f} ms/round, includes standings",
        )
    )
    duel, ffa4 = rating_updates_per_s(0.2 if quick else 0.5)
    rows.append(Row("rating updates 1v1", duel, "updates/s", baseline="cpu baseline"))
    rows.append(Row("rating updates 4-player FFA", ffa4, "updates/s", baseline="cpu baseline"))
    return rows
