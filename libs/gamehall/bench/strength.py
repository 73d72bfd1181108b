"""The bots' strength table (`make strength`): each claim settled by a sequential test on paired seeds.

    python -m gamehall.bench.strength [--quick] [--game ID] [--json]

Every row is a claim "level a scores at least p1 against level b" tested by Wald's SPRT
(H0: rate 0.5, H1: rate p1, alpha = beta = 0.05) over seeds played once per seat rotation;
it stops as soon as the evidence is in, or says "inconclusive" when its match budget is
spent. Dice Nim (a small game where skill decides) carries the whole ladder, each level
against the one below; every registered game shows `hard` against random play. The exit code is
1 when a claim is not confirmed, so the table is a check as well as a report. `make test`
runs the cheap rows of the same table (tests/unit/ai/test_strength*.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

from gamehall.ai import Sprt, sequential_pair
from gamehall.engine import Game, JsonDict, all_games, get_game
from gamehall.testing.dice_nim import GAME as DICE_NIM


@dataclass(frozen=True)
class Claim:
    """One row: `a` beats `b` on `game` at rate p1 or better, within `max_matches`."""

    game: str
    a: str
    b: str
    p1: float
    max_matches: int
    seats: int | None = None
    quick: bool = True
    """Part of the `--quick` table (the rows `make test` also checks)."""


CLAIMS: tuple[Claim, ...] = (
    Claim("dice-nim", "hard", "random", 0.75, 200),
    Claim("dice-nim", "easy", "random", 0.7, 200),
    Claim("dice-nim", "normal", "easy", 0.7, 300),
    Claim("dice-nim", "hard", "normal", 0.65, 400),
    Claim("dice-nim", "expert", "hard", 0.6, 600, quick=False),
    Claim("grimmoir", "hard", "random", 0.9, 16, seats=2),
    Claim("grimslingers", "hard", "random", 0.9, 30, seats=2),
    Claim("tiny-epic-quest", "hard", "random", 0.9, 8, seats=2),
    Claim("grimmoir", "normal", "random", 0.75, 40, seats=2, quick=False),
    Claim("grimslingers", "normal", "random", 0.75, 60, seats=2, quick=False),
    Claim("grimmoir", "expert", "hard", 0.6, 120, seats=2, quick=False),
)
SEED = 7
DEFAULT_BUDGET = 16
"""Matches allowed to a game that has no row of its own (a game registered after this table)."""


def all_claims() -> list[Claim]:
    """CLAIMS plus `hard` vs random for every registered game that has no row yet (full table only)."""
    listed = {c.game for c in CLAIMS}
    extra = [
        Claim(game.id, "hard", "random", 0.9, DEFAULT_BUDGET, quick=False)
        for game in all_games()
        if game.id not in listed
    ]
    return [*CLAIMS, *extra]


def _game(game_id: str) -> Game[Any]:
    return DICE_NIM if game_id == DICE_NIM.id else get_game(game_id)


def run_claim(claim: Claim, seed: int = SEED) -> JsonDict:
    """Play one claim's matches until its SPRT decides; the row also carries the seconds it took."""
    game = _game(claim.game)
    started = time.perf_counter()
    row = sequential_pair(
        game,
        game.configure(None, claim.seats),
        claim.a,
        claim.b,
        sprt=Sprt(p1=claim.p1),
        max_matches=claim.max_matches,
        seed=seed,
    )
    row["seconds"] = time.perf_counter() - started
    return row


def render(rows: list[JsonDict], console: Console) -> None:
    table = Table(title="Bot strength: SPRT H0 rate=0.5 vs H1 rate=p1, alpha=beta=0.05, paired seeds")
    for column in ("game", "a vs b", "p1", "matches", "a's rate", "Wilson 95%", "LLR", "decision", "s"):
        table.add_column(column, justify="left" if column in ("game", "a vs b", "decision") else "right")
    for r in rows:
        colour = "green" if r["decision"] == "H1" else "red"
        table.add_row(
            r["game"],
            f"{r['a']} vs {r['b']}",
            f"{r['p1']:.2f}",
            str(r["matches"]),
            f"{r['rate']:.3f}",
            f"{r['low']:.2f}-{r['high']:.2f}",
            f"{r['llr']:+.2f}",
            f"[{colour}]{r['decision']}[/{colour}]",
            f"{r['seconds']:.1f}",
        )
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="only the rows make test also checks")
    parser.add_argument("--game", action="append", help="only these games' rows")
    parser.add_argument("--json", action="store_true", help="print rows as JSON")
    args = parser.parse_args(argv)
    claims = [c for c in all_claims() if (c.quick or not args.quick) and (not args.game or c.game in args.game)]
    console = Console(stderr=args.json, width=None if sys.stdout.isatty() else 140)  # a log keeps whole rows
    rows = []
    with console.status("") as status:
        for i, claim in enumerate(claims, start=1):
            status.update(f"[{i}/{len(claims)}] {claim.game}: {claim.a} vs {claim.b}")
            rows.append(run_claim(claim))
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        render(rows, console)
    return 0 if all(r["decision"] == "H1" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
