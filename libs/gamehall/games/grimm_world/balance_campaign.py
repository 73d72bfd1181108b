"""Campaign balance report: whole campaigns played by bot levels, and the outcome distribution per level
(campaigns won and lost, median steps, fights won and lost, chapters lost, main-quest stage reached, CPU seconds
per campaign). Heavy, so it is kept out of the test suite:

    python -m gamehall.games.grimm_world.balance_campaign --levels random,easy,normal,hard --campaigns 10

`--max-seconds` bounds each level's run (CPU time; the campaign under way is finished). Seeds are 0..N-1 plus
`--seed`, the same for every level. The note of issue 16 records the tables.

Issue 40 (14 chapters, content of commit aedaf86), normal bots, 20 campaigns (seeds 0-2, 5, 6, 10, 11, 15-17, 20-22,
25, 26, 30, 33, 36, 37, 39; ten processes cut at a deadline on a machine at load 15-20, about 67 CPU s a campaign):
won 12 (60 %), lost 8 (7 at the Epilogue holding the spring water, 1 with the curse broken but not home); fights
won / lost 75 / 101; median 760 steps; victories in chapters 6, 6, 7, 10, 13 (six times), 14, 14. The first cut
(the lake freezing in chapter 7, the witch's checks at 8+ / 7+) won 2 of 2 by chapter 9.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass

from gamehall.ai.levels import make_bot
from gamehall.games.grimm_world.game import GAME
from gamehall.games.grimm_world.state import State

STAGE_FLAGS = ("told", "water", "curse")


@dataclass
class Campaign:
    """One finished campaign: its result and the numbers the table sums up."""

    result: str
    steps: int
    won: int
    beaten: int
    lost: int
    stage: int
    chapter: int
    score: float
    cpu: float


def play(level: str, seed: int) -> tuple[State, int]:
    """One campaign played on views by a bot (one-option menus taken without thinking): final state, steps."""
    state = GAME.new_match(GAME.configure("campaign", 1, {}), seed)
    bot = make_bot(level)
    rng = random.Random(seed)
    steps = 0
    while GAME.outcome(state) is None:
        legal = GAME.legal_actions(state, 0)
        action = legal[0] if len(legal) == 1 else bot.choose(GAME, GAME.view(state, 0), 0, legal, rng)
        state, _ = GAME.apply(state, 0, action)
        steps += 1
    return state, steps


def campaign(level: str, seed: int) -> Campaign:
    started = time.process_time()
    state, steps = play(level, seed)
    j = state.journey
    assert j is not None
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores is not None
    return Campaign(j.result, steps, j.won, j.beaten, j.lost, sum(f in j.flags for f in STAGE_FLAGS), state.chapter,
                    outcome.scores[0], time.process_time() - started)


def summary(level: str, rows: list[Campaign]) -> str:
    """One table row: | level | played | won | lost | median steps | fights won/lost | chapters lost | stage | CPU |."""
    won = sum(r.result == "victory" for r in rows)
    lost_chapters = Counter(r.lost for r in rows)
    stages = Counter(r.stage for r in rows)
    return (f"| {level} | {len(rows)} | {won} ({won / len(rows):.0%}) | {len(rows) - won} | "
            f"{statistics.median(r.steps for r in rows):.0f} | {sum(r.won for r in rows)} / "
            f"{sum(r.beaten for r in rows)} | {dict(sorted(lost_chapters.items()))} | {dict(sorted(stages.items()))} | "
            f"{statistics.mean(r.cpu for r in rows):.1f} |")


HEADER = ("| bots | campaigns | won | lost | median steps | fights won / lost | chapters lost: campaigns | "
          "main-quest stage reached: campaigns | CPU s per campaign |\n|---|---|---|---|---|---|---|---|---|")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="hard", help="comma-separated bot levels")
    parser.add_argument("--campaigns", type=int, default=6, help="campaigns per level")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=None, help="CPU seconds per level (bounds the run)")
    parser.add_argument("--quiet", action="store_true", help="only the table")
    args = parser.parse_args()
    lines = []
    for level in args.levels.split(","):
        rows: list[Campaign] = []
        started = time.process_time()
        for k in range(args.campaigns):
            if rows and args.max_seconds is not None and time.process_time() - started > args.max_seconds:
                break
            rows.append(campaign(level, args.seed + k))
            if not args.quiet:
                print(level, args.seed + k, rows[-1], flush=True)
        lines.append(summary(level, rows))
        if not args.quiet:
            print(lines[-1], flush=True)
    print(HEADER)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
