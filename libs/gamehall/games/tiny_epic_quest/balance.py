"""Balance report: seat win rates of equal bots in 4-player games, and solo difficulty reached.

    python -m gamehall.games.tiny_epic_quest.balance --random 2000 --greedy 200 --solo 200
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from gamehall.games.tiny_epic_quest.bots import GreedyBot, RandomBot
from gamehall.games.tiny_epic_quest.game import GAME
from gamehall.games.tiny_epic_quest.scoring import victory_points
from gamehall.games.tiny_epic_quest.tables import DIFFICULTY_GOALS


def play(mode: str, seats: int, seed: int, bot_kind: str) -> tuple[tuple[int, ...], list[int]]:
    """One match between identical bots; returns (ranks, final VP per seat)."""
    rng = random.Random(seed)
    bot = GreedyBot(rng) if bot_kind == "greedy" else RandomBot(rng)
    state = GAME.new_match(GAME.configure(mode, seats), seed)
    while (outcome := GAME.outcome(state)) is None:
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, bot.choose(state, seat), trusted=True)
    return outcome.ranks, [victory_points(state, p) for p in range(seats)]


def seat_win_rates(
    games: int, bot_kind: str, mode: str = "standard", seats: int = 4, seed: int = 0
) -> dict[str, object]:
    """Share of wins per seat (a tie for first splits the win)."""
    wins = [0.0] * seats
    vps: list[int] = []
    for g in range(games):
        ranks, vp = play(mode, seats, seed + g, bot_kind)
        winners = [p for p, r in enumerate(ranks) if r == 1]
        for p in winners:
            wins[p] += 1.0 / len(winners)
        vps.extend(vp)
    return {"games": games, "win_rate": [w / games for w in wins], "mean_vp": sum(vps) / len(vps)}


def solo_levels(games: int, bot_kind: str, seed: int = 0) -> dict[str, object]:
    """Final VP distribution of solo games and the share reaching each difficulty goal."""
    finals = [play("solo", 1, seed + g, bot_kind)[1][0] for g in range(games)]
    reached = {d: sum(1 for vp in finals if vp >= goal) / games for d, goal in DIFFICULTY_GOALS.items()}
    return {"games": games, "mean_vp": sum(finals) / games, "max_vp": max(finals), "reached": reached,
            "vp_histogram": dict(sorted(Counter(5 * (vp // 5) for vp in finals).items()))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--random", type=int, default=2000, help="4-player games between random bots")
    parser.add_argument("--greedy", type=int, default=200, help="4-player games between greedy bots")
    parser.add_argument("--solo", type=int, default=200, help="solo games by the greedy bot")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for kind, games in (("random", args.random), ("greedy", args.greedy)):
        if games:
            t = time.perf_counter()
            report = seat_win_rates(games, kind, seed=args.seed)
            rates = " ".join(f"{r:.1%}" for r in report["win_rate"])  # type: ignore[attr-defined]
            print(f"4p {kind:6s} {games} games: seat win rates {rates}; mean VP {report['mean_vp']:.1f} "
                  f"({time.perf_counter() - t:.0f}s)")
    if args.solo:
        for kind in ("random", "greedy"):
            report = solo_levels(args.solo, kind, seed=args.seed)
            print(f"solo {kind:6s} {args.solo} games: mean VP {report['mean_vp']:.1f}, max {report['max_vp']}, "
                  f"reached {report['reached']}, histogram {report['vp_histogram']}")


if __name__ == "__main__":
    main()
