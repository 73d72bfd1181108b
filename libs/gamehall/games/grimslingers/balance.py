"""Balance runs: simple bots play 1v1 matches; report each signature spell's (and item's) win-rate swing.

    python -m gamehall.games.grimslingers.balance [--matches N] [--seed S] [--items]

The swing of a card is P(win | the seat drafted it) - P(win | it did not), over greedy-vs-greedy
matches (both seats the same bot, so seat strength cancels out). With `--items` the items module
is on and each item design gets the same measure, "held" meaning it was in the seat's hand at
some point. Designed cards are held to |swing| <= BAND; rulebook cards are reported but not tuned
(their FX are the publisher's).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict

from gamehall.engine.protocol import Action
from gamehall.games.grimslingers import GAME, machine
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.bots import default_action
from gamehall.games.grimslingers.content.schema import CardDef
from gamehall.games.grimslingers.heuristic import evaluate
from gamehall.games.grimslingers.state import Phase, State

BAND = 0.12
"""Allowed |win-rate swing| for a designed signature spell (about two standard errors at 1,000 matches)."""


def greedy_action(s: State, seat: int, rng: random.Random) -> Action:
    """One ply: try each legal action on a determinized state, finish the turn with default play
    for everyone, and keep the action whose result the heuristic likes best."""
    legal = list(machine.legal(s, seat))
    if len(legal) == 1:
        return legal[0]
    world = GAME.determinize(GAME.view(s, seat), seat, rng)
    best, best_value = legal[0], -1.0
    for action in legal:
        state, _ = GAME.apply(world, seat, action, trusted=True)
        turn = state.turn
        for _ in range(60):
            if state.phase == Phase.OVER or state.turn != turn:
                break
            acting = sorted(machine.to_act(state))
            if not acting:
                break
            other = acting[0]
            choice = default_action(state, other)
            if choice is None:
                break
            state, _ = GAME.apply(state, other, choice, trusted=True)
        value = evaluate(state, seat) + rng.random() * 1e-6
        if value > best_value:
            best, best_value = action, value
    return best


def play_match(
    seed: int, bots: tuple[str, str], options: dict[str, object]
) -> tuple[list[list[str]], tuple[int, ...], list[set[str]]]:
    """One match: the signatures each seat drafted, the ranks, and the items each seat held."""
    rng = random.Random(seed)
    s = GAME.new_match(GAME.configure("versus-1v1", 2, options=options), seed)
    drafted: list[list[str]] = [[], []]
    items: list[set[str]] = [set(), set()]
    for _ in range(GAME.max_steps):
        if s.phase == Phase.OVER:
            break
        for seat, x in enumerate(s.seats):
            items[seat].update(cat.CARDS[c].key for c in x.hand if cat.IS_ITEM[c])  # the design, not the copy
        if s.phase != Phase.DRAFT and not drafted[0]:
            drafted = [[cat.KEYS[c] for c in x.hand if cat.CARDS[c].kind == "signature"] for x in s.seats]
        seat = rng.choice(sorted(machine.to_act(s)))
        if s.phase == Phase.DRAFT or bots[seat] == "random":
            action = rng.choice(list(machine.legal(s, seat)))
        else:
            action = greedy_action(s, seat, rng)
        s, _ = GAME.apply(s, seat, action, trusted=True)
    outcome = GAME.outcome(s)
    return drafted, outcome.ranks if outcome else (1, 1), items


def run(matches: int, seed: int, options: dict[str, object]) -> dict[str, object]:
    held: dict[str, list[float]] = defaultdict(list)
    not_held: dict[str, list[float]] = defaultdict(list)
    greedy_vs_random = []
    item_keys = sorted({c.key for c in cat.ITEM_PACK.cards}) if options.get("items") else []
    for i in range(matches):
        drafted, ranks, items = play_match(seed + i, ("greedy", "greedy"), options)
        for seat in (0, 1):
            score = 1.0 if ranks[seat] == 1 and ranks[1 - seat] == 2 else (0.5 if ranks[0] == ranks[1] else 0.0)
            for key in (c.key for c in cat.SIGNATURE_PACK.cards):
                (held if key in drafted[seat] else not_held)[key].append(score)
            for key in item_keys:
                (held if key in items[seat] else not_held)[key].append(score)
    for i in range(max(1, matches // 5)):
        _, ranks, _ = play_match(
            seed + 10_000 + i, ("greedy", "random") if i % 2 == 0 else ("random", "greedy"), options
        )
        g = 0 if i % 2 == 0 else 1
        greedy_vs_random.append(1.0 if ranks[g] == 1 and ranks[1 - g] == 2 else (0.5 if ranks[0] == ranks[1] else 0.0))

    def swings(cards: list[CardDef]) -> dict[str, dict[str, object]]:
        rows: dict[str, dict[str, object]] = {}
        for card in cards:
            if card.key in rows:
                continue  # several copies of one design
            h, n = held[card.key], not_held[card.key]
            swing = (sum(h) / len(h) if h else 0.5) - (sum(n) / len(n) if n else 0.5)
            rows[card.key] = {
                "source": card.provenance.source,
                "held": len(h),
                "swing": round(swing, 3),
                "in_band": card.provenance.source != "designed" or abs(swing) <= BAND,
            }
        return rows

    report: dict[str, object] = {
        "matches": matches,
        "band": BAND,
        "greedy_vs_random": round(sum(greedy_vs_random) / len(greedy_vs_random), 3),
        "signatures": swings(list(cat.SIGNATURE_PACK.cards)),
    }
    if item_keys:
        report["items"] = swings(list(cat.ITEM_PACK.cards))
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--items", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = run(args.matches, args.seed, {"items": args.items})
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"{args.matches} greedy-vs-greedy 1v1 matches; greedy beats random {report['greedy_vs_random']:.0%}; "
        f"band for designed spells: |swing| <= {BAND:.0%}"
    )
    for section in ("signatures", "items"):
        rows = report.get(section)
        if not isinstance(rows, dict):
            continue
        print(f"{section}:")
        for key, row in sorted(rows.items(), key=lambda kv: -kv[1]["swing"]):
            flag = "" if row["in_band"] else "  OUT OF BAND"
            print(f"  {key:18s} {row['source']:9s} held {row['held']:4d}  swing {row['swing']:+.3f}{flag}")


if __name__ == "__main__":
    main()
