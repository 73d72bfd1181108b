"""Balance runs for the Tall Tale's designed content: the campaign's win rate by difficulty and
seat count, the one-ply greedy bot of `balance.py` in the duels and the default adventure policy
(`tale_bots`) between them.

    python -m gamehall.games.grimslingers.balance_tale [--matches N] [--seats 1,2] [--json] [--check]

Bands aimed for, 1 and 2 players pooled (the designed values: event and landmark outcomes,
creature rewards, the perk schedule, the chapter's boss and turn limit, are tuned until the table
lands in them): easy 55-90%, normal 30-65%, hard 10-40%, impossible 0-20%. Solo runs about 30
points below co-op at every difficulty (two Grimslingers share the creature's attention).

Measured (--matches 40, seed 1): easy 42.5% solo / 82.5% co-op (62.5% pooled), normal 27.5 / 65
(46%), hard 12.5 / 32.5 (22.5%), impossible 2.5 / 15 (9%).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from gamehall.engine.protocol import Action
from gamehall.engine.rng import derive_seed
from gamehall.games.grimslingers import GAME, machine
from gamehall.games.grimslingers.heuristic import duel_strength
from gamehall.games.grimslingers.state import Phase, State

DIFFICULTIES = ("easy", "normal", "hard", "impossible")
BANDS: dict[str, tuple[float, float]] = {
    "easy": (0.55, 0.90),
    "normal": (0.30, 0.65),
    "hard": (0.10, 0.40),
    "impossible": (0.0, 0.20),
}
MAX_STEPS = 20_000


FLED_VALUE = 0.3
"""A fled duel is worth this much to the duel policy: it flees only from a duel going badly."""


def _duel_value(s: State, seat: int, won_before: int) -> float:
    t = s.tale
    assert t is not None
    if s.ranks is not None:
        return 1.0 if s.ranks[seat] == 1 else 0.0
    if s.creature < 0:
        return 1.0 if t.duels_won > won_before else (FLED_VALUE if t.duel_outcome in ("", "fled") else 0.0)
    return duel_strength(s, seat)


def duel_action(s: State, seat: int, rng: random.Random) -> Action:
    """One ply in a campaign duel: each legal action, then default play to the end of the duel
    turn; valued by the duel's strength balance, a won duel 1, a lost one 0, a fled one 0.3."""
    legal = list(machine.legal(s, seat))
    if len(legal) == 1:
        return legal[0]
    assert s.tale is not None
    won_before = s.tale.duels_won
    world = GAME.determinize(GAME.view(s, seat), seat, rng)
    best, best_value = legal[0], -1.0
    for action in legal:
        state, _ = GAME.apply(world, seat, action, trusted=True)
        turn = state.turn
        for _ in range(60):
            if state.phase in (Phase.OVER, Phase.ADVENTURE) or state.turn != turn:
                break
            acting = sorted(machine.to_act(state))
            if not acting:
                break
            choice = GAME.default_action(state, acting[0])
            if choice is None:
                break
            state, _ = GAME.apply(state, acting[0], choice, trusted=True)
        value = _duel_value(state, seat, won_before) + rng.random() * 1e-6
        if value > best_value:
            best, best_value = action, value
    return best


def play(seats: int, difficulty: str, seed: int, chapter: int = 0) -> tuple[bool, int, str]:
    """One campaign: (won, adventure turns, reason). With `chapter` > 0 the group starts at that
    chapter (R-066: a group may choose its chapter) and the run stops at the chapter's end (a won
    chapter counts as a win): the designed chapters are balanced one at a time."""
    s = GAME.new_match(GAME.configure("tall-tale", seats, options={"difficulty": difficulty}), seed)
    rng = random.Random(seed)
    jumped = False
    for _ in range(MAX_STEPS):
        if GAME.outcome(s) is not None:
            break
        if chapter and not jumped and s.phase == Phase.ADVENTURE and s.tale is not None:
            from gamehall.games.grimslingers.tale_story import start_chapter

            start_chapter(s, chapter, [])
            jumped = True
        if jumped and s.tale is not None and s.tale.chapter > chapter:
            return True, s.tale.turn, "chapter done"
        seat = min(machine.to_act(s))
        duel = s.phase not in (Phase.ADVENTURE, Phase.ARCHETYPE)
        action = duel_action(s, seat, rng) if duel else GAME.default_action(s, seat)
        assert action is not None
        s, _ = GAME.apply(s, seat, action, trusted=True)
    assert s.tale is not None
    return s.ranks is not None and s.ranks[0] == 1, s.tale.turn, s.reason


def run(matches: int, seed: int, seat_counts: tuple[int, ...], chapter: int = 0) -> dict[str, Any]:
    table: dict[str, Any] = {"bands": BANDS, "matches_per_cell": matches, "win_rate": {}, "reasons": {}}
    for difficulty in DIFFICULTIES:
        for n in seat_counts:
            wins = 0
            reasons: dict[str, int] = {}
            for i in range(matches):
                won, _, reason = play(n, difficulty, derive_seed(seed, difficulty, n, i), chapter)
                wins += won
                reasons[reason] = reasons.get(reason, 0) + 1
            cell = f"{difficulty}/{n}p"
            table["win_rate"][cell] = round(wins / matches, 3)
            table["reasons"][cell] = reasons
            print(cell, table["win_rate"][cell], reasons, file=sys.stderr, flush=True)
    return table


def misses(table: dict[str, Any]) -> list[str]:
    """Difficulties whose pooled win rate (every seat count run) falls outside its band, and an
    ordering that is not Easy high to Impossible low."""
    pooled: dict[str, float] = {}
    for difficulty in DIFFICULTIES:
        rates = [r for cell, r in table["win_rate"].items() if cell.startswith(f"{difficulty}/")]
        pooled[difficulty] = sum(rates) / len(rates)
    out = [f"{d}: {r:.3f} outside {BANDS[d]}" for d, r in pooled.items() if not BANDS[d][0] <= r <= BANDS[d][1]]
    order = [pooled[d] for d in DIFFICULTIES]
    if order != sorted(order, reverse=True):
        out.append(f"not monotone: {order}")
    table["pooled"] = pooled
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", default="1,2")
    parser.add_argument("--chapter", type=int, default=0, help="play one chapter (0-based; 0: the campaign)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--check", action="store_true", help="exit 1 when a pooled rate misses its band")
    args = parser.parse_args()
    report = run(args.matches, args.seed, tuple(int(n) for n in args.seats.split(",")), args.chapter)
    failed = misses(report)
    print(json.dumps(report, indent=2 if not args.json else None))
    if args.check and failed:
        print("\n".join(failed), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
