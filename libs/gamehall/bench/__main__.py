"""Run every benchmark and print the table: `python -m gamehall.bench [--quick] [--game ID]`."""

from __future__ import annotations

import argparse
import json

from gamehall.bench.baselines import BASELINE_RUNS, cpu_baseline, echo_baseline
from gamehall.bench.bots import ai_service_rows, think_rows
from gamehall.bench.e2e import e2e_rows
from gamehall.bench.engines import engine_rows
from gamehall.bench.floor import floor_rows
from gamehall.bench.matchmaking import matchmaking_rows
from gamehall.bench.matchmaking_store import matchmaking_store_rows
from gamehall.bench.move_path import move_path_rows
from gamehall.bench.rows import print_rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller samples (a smoke run)")
    parser.add_argument("--game", action="append", help="only these games' rows")
    parser.add_argument("--json", action="store_true", help="print rows as JSON")
    args = parser.parse_args()
    rows = [cpu_baseline(0.5 if args.quick else 1.0)]
    rows += echo_baseline(calls=1200 if args.quick else 6000)
    runs = 1 if args.quick else BASELINE_RUNS
    rows += e2e_rows(matches=50 if args.quick else 200, runs=runs)
    rows += move_path_rows(matches=50 if args.quick else 100, quick=args.quick)
    rows += floor_rows(matches=50 if args.quick else 100, quick=args.quick)
    rows += ai_service_rows(matches=50 if args.quick else 200, runs=runs)
    rows += engine_rows(args.game, quick=args.quick)
    rows += think_rows(positions=3 if args.quick else 7, games=args.game)
    rows += matchmaking_rows(quick=args.quick)
    rows += matchmaking_store_rows(queued=4_000 if args.quick else 20_000)
    if args.json:
        print(json.dumps([r.__dict__ for r in rows], indent=2))
    else:
        print_rows(rows)


if __name__ == "__main__":
    main()
