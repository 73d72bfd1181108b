"""Faction balance by bot play: ``python -m gamehall.games.grimmoir.balance [--games N] [--bots random,greedy]``.

Plays a round-robin of faction mirror and cross matches: the harness fixes each seat's main
faction, the bots make every other choice (supporting faction, recruits, display, battle).
Cross matches use the default rules; mirrors need ``faction_exclusivity=none``. Seats alternate
between games. A faction's win rate counts every game it played (draws as half a win); the goal
is every faction within 45-55% for each bot (``--check`` exits 1 otherwise).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations_with_replacement

from gamehall.engine import Action, derive_seed
from gamehall.games.grimmoir.actions import PickFaction
from gamehall.games.grimmoir.bots import BOTS, Bot
from gamehall.games.grimmoir.catalog import FACTIONS
from gamehall.games.grimmoir.game import GAME
from gamehall.games.grimmoir.state import DRAW, Phase

Result = tuple[str, int, int, float, int]
"""(bot name, faction of seat 0, faction of seat 1, score of seat 0, rounds played)."""


def play_match(bot: Bot, mains: tuple[int, int], seed: int) -> tuple[float, int]:
    """One match with fixed main factions; returns (seat 0's score, rounds)."""
    flags = {"faction_exclusivity": "none"} if mains[0] == mains[1] else {}
    state = GAME.new_match(GAME.configure(flags=flags), seed)
    rng = random.Random(seed)
    while True:
        acting = GAME.to_act(state)
        if not acting:
            break
        seat = rng.choice(sorted(acting))
        action: Action
        if state.phase == Phase.DRAFT and state.step < 2:
            action = PickFaction(FACTIONS[mains[seat]])
        else:
            action = bot.choose(state, seat, GAME.legal_actions(state, seat), rng)
        state, _ = GAME.apply(state, seat, action, trusted=True)
    if state.winner == DRAW:
        return 0.5, state.round
    return (1.0 if state.winner == 0 else 0.0), state.round


def _run_chunk(task: tuple[str, int, int, int, int]) -> list[Result]:
    bot_name, a, b, start, count = task
    bot = BOTS[bot_name]()
    out: list[Result] = []
    for i in range(start, start + count):
        mains = (a, b) if i % 2 == 0 else (b, a)
        score, rounds = play_match(bot, mains, seed=derive_seed(0, bot_name, a, b, i))
        out.append((bot_name, mains[0], mains[1], score, rounds))
    return out


def tasks(bots: Iterable[str], games: int, chunk: int) -> list[tuple[str, int, int, int, int]]:
    out = []
    for bot in bots:
        for a, b in combinations_with_replacement(range(len(FACTIONS)), 2):
            for start in range(0, games, chunk):
                out.append((bot, a, b, start, min(chunk, games - start)))
    return out


def summarise(results: list[Result]) -> dict[str, dict[str, float]]:
    """Per bot: each faction's overall win rate (mirrors included)."""
    wins: dict[tuple[str, int], float] = defaultdict(float)
    played: dict[tuple[str, int], int] = defaultdict(int)
    for bot, f0, f1, score, _ in results:
        wins[bot, f0] += score
        wins[bot, f1] += 1.0 - score
        played[bot, f0] += 1
        played[bot, f1] += 1
    table: dict[str, dict[str, float]] = defaultdict(dict)
    for (bot, f), n in played.items():
        table[bot][FACTIONS[f]] = wins[bot, f] / n
    return table


def report(results: list[Result], elapsed: float) -> str:
    lines = []
    bots = sorted({r[0] for r in results}, key=list(BOTS).index)
    table = summarise(results)
    for bot in bots:
        mine = [r for r in results if r[0] == bot]
        lines.append(
            f"\n== {bot} vs {bot}: {len(mine)} games, mean rounds {sum(r[4] for r in mine) / len(mine):.1f}, "
            f"seat 0 score {sum(r[3] for r in mine) / len(mine):.3f}"
        )
        pair_w: dict[tuple[int, int], float] = defaultdict(float)
        pair_n: dict[tuple[int, int], int] = defaultdict(int)
        for _, f0, f1, score, _ in mine:
            pair_w[f0, f1] += score
            pair_w[f1, f0] += 1.0 - score
            pair_n[f0, f1] += 1
            pair_n[f1, f0] += 1
        header = "row beats column".ljust(12) + "".join(f[:9].rjust(10) for f in FACTIONS) + "   overall  cross-only"
        lines.append(header)
        for f in range(len(FACTIONS)):
            cells = "".join(
                (f"{pair_w[f, g] / pair_n[f, g]:10.2f}" if pair_n[f, g] else " " * 10) for g in range(len(FACTIONS))
            )
            cross_w = sum(pair_w[f, g] for g in range(len(FACTIONS)) if g != f)
            cross_n = sum(pair_n[f, g] for g in range(len(FACTIONS)) if g != f)
            lines.append(f"{FACTIONS[f]:<12}{cells}{table[bot][FACTIONS[f]]:10.3f}{cross_w / cross_n:12.3f}")
    lines.append(f"\n({elapsed:.0f}s)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per faction pairing (default 200)")
    parser.add_argument("--bots", default="random,greedy", help="comma-separated: random, greedy")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--check", action="store_true", help="exit 1 unless every faction is within 45-55%%")
    args = parser.parse_args(argv)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    unknown = [b for b in bots if b not in BOTS]
    if unknown:
        parser.error(f"unknown bots {unknown}; choose from {sorted(BOTS)}")
    started = time.perf_counter()
    work = tasks(bots, args.games, chunk=25)
    results: list[Result] = []
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for chunk in pool.map(_run_chunk, work):
                results.extend(chunk)
    else:
        for task in work:
            results.extend(_run_chunk(task))
    print(report(results, time.perf_counter() - started))
    table = summarise(results)
    off = [(bot, f, rate) for bot, rates in table.items() for f, rate in rates.items() if not 0.45 <= rate <= 0.55]
    if off:
        print("outside 45-55%: " + ", ".join(f"{bot}/{f} {rate:.3f}" for bot, f, rate in off))
    return 1 if (args.check and off) else 0


if __name__ == "__main__":
    sys.exit(main())
