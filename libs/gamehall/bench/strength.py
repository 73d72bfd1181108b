"""The bots' strength table (`make strength`): each claim settled by a sequential test on paired seeds.

    python -m gamehall.bench.strength [--quick] [--game ID] [--row TEXT] [--list] [--json]

Every row is a claim tested by Wald's SPRT (H0: rate p0, 0.5 unless said, H1: rate p1, alpha = beta = 0.05);
it stops as soon as the evidence is in, or says "inconclusive" when its match budget is spent. A versus row
("level a scores at least p1 against level b") plays each seed once per seat rotation. Solo and co-op modes
have no opponent to beat: their rows are paired ("level a does better than level b": each seed played by
every seat at a and by every seat at b, a sign test over the seeds whose results differ) or count one level's
defeats ("a wins at most 1 - p0", for a setting no level wins in the budget). Dice Nim (a small game where
skill decides) carries the whole ladder, each level against the one below; every registered game shows
`hard` against random play; Tiny Epic Quest and Grimm World their levels above random; Grimslingers its
creature duels and the Witch King's four difficulties. The exit code is 1 when a claim is not confirmed, so
the table is a check as well as a report. `make test` runs the cheap rows of the same table
(tests/unit/ai/test_strength*.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Any, Literal

from rich.console import Console
from rich.table import Table

from gamehall.ai import Sprt, sequential_cooperative, sequential_pair
from gamehall.engine import Game, JsonDict, all_games, get_game
from gamehall.testing.dice_nim import GAME as DICE_NIM


@dataclass(frozen=True)
class Claim:
    """One row: `a` beats `b` on `game` at rate p1 or better, within `max_matches`.

    `kind` says how: "versus" (the default) plays `a` in each seat in turn against `b` in the others;
    "paired" (solo and co-op modes) plays each seed once with every seat `a` and once with every seat
    `b`, and tests "a wins more often than b" on the seeds where the two differ (a sign test; with
    `by_score`, an equal result is ordered by the score); "rate" plays every seat `a` and tests its
    win rate: H0 rate p0 against H1 rate p1, so a confirmed row says the rate is at least about p0; "losses"
    tests its defeats the same way (a setting no level wins in the budget: "a wins at most 1 - p0").
    """

    game: str
    a: str
    b: str
    p1: float
    max_matches: int
    seats: int | None = None
    quick: bool = True
    """Part of the `--quick` table (the rows `make test` also checks)."""
    mode: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    kind: Literal["versus", "paired", "rate", "losses"] = "versus"
    p0: float = 0.5
    by_score: bool = False
    b_options: tuple[tuple[str, Any], ...] | None = None
    """A paired row's options for `b`'s matches (None: the same as `a`'s), e.g. a harder difficulty."""

    @property
    def label(self) -> str:
        """The game and, where it is not the default, the mode and options: `grimslingers witch-king hard`."""
        parts = [self.game, *([self.mode] if self.mode else []), *(str(v) for _, v in self.options)]
        if self.b_options is not None:
            parts.append("vs " + " ".join(str(v) for _, v in self.b_options))
        if self.seats and self.kind != "versus":
            parts.append(f"{self.seats}p")
        return " ".join(parts)


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
    # Grimm World is solo: there is no opponent for "hard vs random" to beat, so the row paired hard's skirmish
    # with random play's on the same seeds (hard wins about 3 in 4, random about 1 in 6); ordered by the result,
    # then the score (the share of the enemies' HP dealt).
    Claim("grimm-world", "hard", "random", 0.9, 24, mode="skirmish", kind="paired", by_score=True, quick=False),
    Claim("grimm-world", "easy", "random", 0.8, 60, mode="skirmish", kind="paired", by_score=True, quick=False),
    Claim("grimm-world", "normal", "random", 0.8, 40, mode="skirmish", kind="paired", by_score=True, quick=False),
    Claim("tiny-epic-quest", "easy", "random", 0.8, 24, seats=2, quick=False),
    Claim("tiny-epic-quest", "normal", "random", 0.9, 12, seats=2, quick=False),
    Claim("tiny-epic-quest", "easy", "random", 0.9, 20, seats=1, mode="solo", kind="paired", by_score=True,
          quick=False),
    # Grimslingers' co-op modes: every Grimslinger played by the same level, against the creature.
    Claim("grimslingers", "easy", "random", 0.8, 40, seats=2, mode="creature-duel", kind="paired", quick=False),
    # The Witch King's difficulties: at easy the easy level beats random play; normal is harder than easy for
    # it (the same seeds at both); at hard and impossible no level within the budget wins (normal and hard lost
    # every probe at normal), so the claim is that they hold: the easy level wins at most 30%.
    Claim("grimslingers", "easy", "random", 0.8, 40, seats=2, mode="witch-king", options=(("difficulty", "easy"),),
          kind="paired", quick=False),
    Claim("grimslingers", "easy", "easy", 0.8, 40, seats=2, mode="witch-king", options=(("difficulty", "easy"),),
          b_options=(("difficulty", "normal"),), kind="paired", quick=False),
    *(
        Claim("grimslingers", "easy", "-", 0.95, 30, seats=2, mode="witch-king", options=(("difficulty", d),),
              kind="losses", p0=0.7, quick=False)
        for d in ("hard", "impossible")
    ),
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
    config = game.configure(claim.mode, claim.seats, dict(claim.options))
    sprt = Sprt(p0=claim.p0, p1=claim.p1)
    started = time.perf_counter()
    config_b = None if claim.b_options is None else game.configure(config.mode, config.seats, dict(claim.b_options))
    if claim.kind == "versus":
        row = sequential_pair(
            game, config, claim.a, claim.b, sprt=sprt, max_matches=claim.max_matches, seed=seed
        )
    else:
        row = sequential_cooperative(
            game,
            config,
            claim.a,
            claim.b if claim.kind == "paired" else None,
            losses=claim.kind == "losses",
            sprt=sprt,
            max_matches=claim.max_matches,
            seed=seed,
            by_score=claim.by_score,
            config_b=config_b,
        )
    row["seconds"] = time.perf_counter() - started
    row["label"] = claim.label
    row["kind"] = claim.kind
    if claim.b_options is not None:
        row["b_setting"] = " ".join(str(v) for _, v in claim.b_options)
        row["a_setting"] = " ".join(str(v) for _, v in claim.options)
    return row


def claim_text(row: JsonDict) -> str:
    """`hard vs random` (versus), `hard > random, paired` (solo and co-op; `easy@easy > easy@normal, paired` across
    two settings), `hard wins >= 0.50` (a rate), `easy wins <= 0.30` (losses)."""
    if row["kind"] == "paired" and "b_setting" in row:
        return f"{row['a']}@{row['a_setting']} > {row['b']}@{row['b_setting']}, paired"
    if row["kind"] == "paired":
        return f"{row['a']} > {row['b']}, paired"
    if row["kind"] == "rate":
        return f"{row['a']} wins >= {row['p0']:.2f}"
    if row["kind"] == "losses":
        return f"{row['a']} wins <= {1 - row['p0']:.2f}"
    return f"{row['a']} vs {row['b']}"


def render(rows: list[JsonDict], console: Console) -> None:
    table = Table(
        title="Bot strength: SPRT H0 rate=p0 (0.5 unless a rate claim) vs H1 rate=p1, alpha=beta=0.05, paired seeds"
    )
    for column in ("game", "claim", "p1", "matches", "rate", "Wilson 95%", "LLR", "decision", "s"):
        table.add_column(column, justify="left" if column in ("game", "claim", "decision") else "right")
    for r in rows:
        colour = "green" if r["decision"] == "H1" else "red"
        matches = str(r["matches"]) if r["kind"] != "paired" else f"{r['matches']} ({r['trials']})"
        table.add_row(
            r["label"],
            claim_text(r),
            f"{r['p1']:.2f}",
            matches,
            f"{r['rate']:.3f}",
            f"{r['low']:.2f}-{r['high']:.2f}",
            f"{r['llr']:+.2f}",
            f"[{colour}]{r['decision']}[/{colour}]",
            f"{r['seconds']:.1f}",
        )
    console.print(table)
    console.print(
        "versus: `a` in each seat in turn against `b`, rate = a's score; paired (solo and co-op): each seed played "
        "by every seat `a` and by every seat `b`, matches (seeds where the two differ), rate = share of those `a` did "
        "better on; rate: every seat `a`, its win rate; losses: every seat `a`, rate = its share of defeats."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="only the rows make test also checks")
    parser.add_argument("--game", action="append", help="only these games' rows")
    parser.add_argument("--json", action="store_true", help="print rows as JSON")
    parser.add_argument("--row", action="append", help="only rows whose label (game, mode, options) contains this")
    parser.add_argument("--list", action="store_true", help="list the rows and exit")
    args = parser.parse_args(argv)
    claims = [
        c
        for c in all_claims()
        if (c.quick or not args.quick)
        and (not args.game or c.game in args.game)
        and (not args.row or any(r in f"{c.label} {c.a} {c.b}" for r in args.row))
    ]
    if args.list:
        for c in claims:
            print(f"{c.label}: {c.kind} {c.a} {c.b} p0={c.p0} p1={c.p1} max={c.max_matches} quick={c.quick}")
        return 0
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
