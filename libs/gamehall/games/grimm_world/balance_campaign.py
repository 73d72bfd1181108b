"""Campaign balance report: whole campaigns played by a bot level, with the outcome distribution, chapters
reached and lost, fights won and lost, the main-quest stage reached and the steps taken (kept out of the tests).

    python -m gamehall.games.grimm_world.balance_campaign --level hard --campaigns 6 --seed 0

Hard bots need several minutes a campaign on a busy 2-core machine; the note of issue 16 records the tables.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from gamehall.ai.levels import make_bot
from gamehall.games.grimm_world.game import GAME
from gamehall.games.grimm_world.state import State

STAGE_FLAGS = ("told", "water", "curse")


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


def row(state: State, steps: int) -> dict[str, object]:
    j = state.journey
    assert j is not None
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores is not None
    return {"result": j.result, "score": outcome.scores[0], "stage": sum(f in j.flags for f in STAGE_FLAGS),
            "chapter": state.chapter, "lost": j.lost, "won": j.won, "beaten": j.beaten, "rounds": j.round,
            "steps": steps}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--campaigns", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    results: Counter[str] = Counter()
    for k in range(args.campaigns):
        started = time.perf_counter()
        data = row(*play(args.level, args.seed + k))
        results[str(data["result"])] += 1
        print({**data, "seconds": round(time.perf_counter() - started)}, flush=True)
    print(f"{args.level}: {dict(results)} over {args.campaigns} campaigns")


if __name__ == "__main__":
    main()
