"""`gamehall simulate`: bots play matches in-process; outcomes and invariant checks are reported."""

from __future__ import annotations

import json
import time
import traceback
from collections import Counter
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from gamehall.ai.arena import play_match
from gamehall.ai.levels import LEVELS, make_bot
from gamehall.cli.ui import progress_bar
from gamehall.engine import ConfigError, GameError, derive_seed, get_game
from gamehall.engine.conformance import ConformanceError, check_game


def simulate(
    game: Annotated[str, typer.Option(help="Game id (see `gamehall games`).")],
    mode: Annotated[str | None, typer.Option(help="Mode id (default: the game's first mode).")] = None,
    seats: Annotated[int | None, typer.Option(help="Seat count (default: the mode's first).")] = None,
    matches: Annotated[int, typer.Option(min=1, help="How many matches to play.")] = 100,
    bots: Annotated[
        str, typer.Option(help=f"Bot level per seat, comma separated, cycled ({', '.join(LEVELS)}).")
    ] = "random",
    option: Annotated[list[str] | None, typer.Option("--option", help="Match option NAME=JSON (repeatable).")] = None,
    flag: Annotated[list[str] | None, typer.Option("--flag", help="Rule flag NAME=JSON (repeatable).")] = None,
    seed: Annotated[int, typer.Option(help="Base seed; match i uses a seed derived from it.")] = 0,
    check: Annotated[
        bool, typer.Option(help="Also run the conformance kit's invariant checks on random matches.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Play MATCHES matches between bots and report outcomes, seat win rates and errors."""
    console = Console(stderr=True)
    try:
        engine = get_game(game)
        config = engine.configure(mode, seats, _pairs(option), _pairs(flag))
        levels = [b.strip() for b in bots.split(",") if b.strip()]
        players = [make_bot(levels[s % len(levels)]) for s in range(config.seats)]
    except (GameError, ValueError) as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from exc

    wins: Counter[int] = Counter()
    reasons: Counter[str] = Counter()
    errors: list[dict[str, Any]] = []
    steps = 0
    started = time.perf_counter()
    with progress_bar(console, disable=as_json) as progress:
        task = progress.add_task(f"{engine.id} {config.mode}/{config.seats}", total=matches)
        for i in range(matches):
            match_seed = derive_seed(seed, "simulate", i)
            try:
                result = play_match(engine, config, players, match_seed)
            except Exception as exc:
                errors.append(
                    {"match": i, "seed": match_seed, "error": repr(exc), "trace": traceback.format_exc(limit=4)}
                )
            else:
                steps += result.steps
                reasons[result.outcome.reason or "-"] += 1
                for seat in result.outcome.winners():
                    wins[seat] += 1
            progress.advance(task)
    elapsed = time.perf_counter() - started
    conformance: dict[str, Any] | None = None
    if check:
        try:
            report = check_game(engine, matches=min(matches, 200), configs=[config], seed=seed, deep_every=3)
            conformance = {"ok": True, "matches": report.matches, "steps": report.steps}
        except ConformanceError as exc:
            conformance = {"ok": False, "error": str(exc)}

    finished = matches - len(errors)
    summary = {
        "game": engine.id,
        "config": config.to_json(),
        "bots": [p.name for p in players],
        "matches": matches,
        "finished": finished,
        "errors": errors,
        "seat_wins": {str(s): wins[s] for s in range(config.seats)},
        "outcome_reasons": dict(reasons),
        "mean_actions": steps / finished if finished else 0,
        "actions_per_second": steps / elapsed if elapsed else 0,
        "conformance": conformance,
    }
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
    else:
        _print(console, summary)
    if errors or (conformance is not None and not conformance["ok"]):
        raise typer.Exit(1)


def _pairs(items: list[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items or ():
        name, sep, raw = item.partition("=")
        if not sep:
            raise ConfigError(f"expected NAME=JSON, got {item!r}")
        try:
            out[name] = json.loads(raw)
        except ValueError:
            out[name] = raw  # a bare word is a string
    return out


def _print(console: Console, s: dict[str, Any]) -> None:
    out = Console()
    table = Table(title=f"{s['game']} {s['config']['mode']} · {s['matches']} matches · bots {', '.join(s['bots'])}")
    table.add_column("seat")
    table.add_column("bot")
    table.add_column("wins (rank 1)", justify="right")
    table.add_column("rate", justify="right")
    for seat, count in s["seat_wins"].items():
        rate = count / s["finished"] if s["finished"] else 0
        table.add_row(seat, s["bots"][int(seat)], str(count), f"{rate:.1%}")
    out.print(table)
    out.print(
        f"finished {s['finished']}/{s['matches']}, errors {len(s['errors'])}, "
        f"mean actions {s['mean_actions']:.1f}, {s['actions_per_second']:.0f} actions/s"
    )
    out.print("outcomes: " + ", ".join(f"{k}: {v}" for k, v in sorted(s["outcome_reasons"].items())))
    for e in s["errors"][:5]:
        console.print(f"[red]match {e['match']} (seed {e['seed']}): {e['error']}[/red]")
    if s["conformance"] is not None:
        c = s["conformance"]
        out.print("conformance: " + ("ok" if c["ok"] else f"FAILED {c['error']}"))
