"""`gamehall tournament --simulate`: a whole tournament of bots through the real services.

Starts the embedded platform in a temporary folder (nats-server, persistence, matchmaking,
gateway, ai, the game's rules host), then acts as the operator over the public API: creates
the tournament, registers bot entrants (their seats are bot seats played by the ai service),
starts it and follows `WatchStandings` to the end, then prints the final standings.
"""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path
from typing import Annotated, Any

import grpc
import typer
from rich.console import Console
from rich.table import Table

from gamehall.ai.levels import LEVELS
from gamehall.cli.local_platform import temporary_platform
from gamehall.cli.ui import progress_bar
from gamehall.launcher.platform import Platform
from gamehall.launcher.processes import LaunchError
from gamehall_sdk.v1 import auth_pb2, auth_pb2_grpc, tournament_pb2, tournament_pb2_grpc

FORMATS = ("swiss", "single-elimination", "double-elimination", "round-robin", "pods")


def tournament(
    game: Annotated[str, typer.Option(help="Game id (see `gamehall games`).")],
    players: Annotated[int, typer.Option(min=2, help="How many bot entrants.")] = 8,
    format: Annotated[str, typer.Option("--format", help=f"One of {', '.join(FORMATS)}.")] = "swiss",
    rounds: Annotated[int, typer.Option(min=0, help="Swiss/pods rounds (0: from the field size).")] = 0,
    seats: Annotated[int, typer.Option(min=0, help="Seats per match (pods only; 0: 2).")] = 0,
    bots: Annotated[str, typer.Option(help=f"Bot levels, comma separated, cycled ({', '.join(LEVELS)}).")] = "random",
    simulate: Annotated[bool, typer.Option("--simulate", help="Run it with bots on a temporary platform.")] = False,
    timeout: Annotated[float, typer.Option(help="Give up after this many seconds.")] = 1800.0,
    keep: Annotated[Path | None, typer.Option(help="Keep the platform's data (logs, database) in this folder.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Run a whole tournament of bots through the real services and print the final standings."""
    console = Console(stderr=True)
    if not simulate:
        console.print("[red]only --simulate is available here; live tournaments use the TournamentService API[/red]")
        raise typer.Exit(2)
    if format not in FORMATS:
        console.print(f"[red]--format must be one of {', '.join(FORMATS)}[/red]")
        raise typer.Exit(2)
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    if not levels or any(level not in LEVELS for level in levels):
        console.print(f"[red]--bots takes levels among {', '.join(LEVELS)}[/red]")
        raise typer.Exit(2)
    password = secrets.token_urlsafe(18)
    with temporary_platform(game, keep=keep, prefix="gamehall-tournament-", operator_password=password) as platform:
        try:
            with console.status("starting the platform..."):
                platform.start()
            result = _run(platform, console, password, game, players, format, rounds, seats, levels, timeout, as_json)
        except LaunchError as exc:
            console.print(f"[red]could not start the platform:[/red] {exc}")
            raise typer.Exit(1) from exc
        except grpc.RpcError as exc:
            console.print(f"[red]{exc.code().name}: {exc.details()}[/red]")
            raise typer.Exit(1) from exc
    if as_json:
        typer.echo(json.dumps(result, indent=2))
    else:
        _print(result)
    if result["status"] != "finished":
        raise typer.Exit(1)


def _run(
    platform: Platform,
    console: Console,
    password: str,
    game: str,
    players: int,
    format: str,
    rounds: int,
    seats: int,
    levels: list[str],
    timeout: float,
    quiet: bool,
) -> dict[str, Any]:
    channel = grpc.insecure_channel(platform.service("gateway").address)
    login = auth_pb2_grpc.AuthServiceStub(channel).Login(
        auth_pb2.LoginRequest(username="operator", password=password), timeout=30
    )
    meta = (("authorization", f"Bearer {login.token}"),)
    stub = tournament_pb2_grpc.TournamentServiceStub(channel)
    pb = tournament_pb2
    wanted = pb.TournamentFormat.Value("TOURNAMENT_FORMAT_" + format.upper().replace("-", "_"))
    created = stub.CreateTournament(
        pb.CreateTournamentRequest(name=f"simulated {format}", game=game, format=wanted, rounds=rounds, seats=seats),
        metadata=meta,
        timeout=30,
    ).tournament
    for k in range(players):
        stub.RegisterPlayer(
            pb.RegisterPlayerRequest(tournament_id=created.id, bot=levels[k % len(levels)]), metadata=meta, timeout=30
        )
    started = time.perf_counter()
    stub.StartTournament(pb.StartTournamentRequest(tournament_id=created.id), metadata=meta, timeout=30)
    last = None
    with progress_bar(console, disable=quiet, elapsed=True) as progress:
        task = progress.add_task("round 1", total=None)
        watch = stub.WatchStandings(pb.WatchStandingsRequest(tournament_id=created.id), metadata=meta, timeout=timeout)
        for message in watch:
            last = message.standings
            t = stub.GetTournament(pb.GetTournamentRequest(tournament_id=created.id), metadata=meta, timeout=30)
            pairings = _pairings(stub, created.id, meta)
            done = sum(1 for p in pairings if p.ranks)
            finished = t.tournament.status == pb.TOURNAMENT_STATUS_FINISHED
            total = len(pairings) if finished else _expected_games(t.tournament, pairings)
            progress.update(
                task,
                description=f"round {last.round}/{last.rounds_planned or '?'}",
                completed=done,
                total=total,
            )
    assert last is not None
    return {
        "tournament": created.id,
        "game": game,
        "format": format,
        "status": pb.TournamentStatus.Name(last.status).removeprefix("TOURNAMENT_STATUS_").lower(),
        "rounds": last.round,
        "seconds": round(time.perf_counter() - started, 2),
        "tiebreak_order": list(last.tiebreak_order),
        "standings": [
            {
                "rank": r.rank,
                "player": r.player,
                "points": r.points,
                "games": r.games,
                "wins": r.wins,
                "tiebreaks": dict(r.tiebreaks),
            }
            for r in last.rows
        ],
    }


def _pairings(stub: Any, tournament_id: str, meta: Any) -> list[tournament_pb2.TournamentPairing]:
    """Every pairing so far (every page of ListPairings)."""
    request = tournament_pb2.ListPairingsRequest(tournament_id=tournament_id, page_size=500)
    found: list[tournament_pb2.TournamentPairing] = []
    while True:
        reply = stub.ListPairings(request, metadata=meta, timeout=30)
        found.extend(reply.pairings)
        if not reply.next_page_token:
            return found
        request.page_token = reply.next_page_token


def _expected_games(t: tournament_pb2.Tournament, pairings: list[tournament_pb2.TournamentPairing]) -> int | None:
    """Pairings a points format will have in all (None when unknown ahead, e.g. brackets)."""
    if not t.rounds_planned or not t.round:
        return None
    per_round = sum(1 for p in pairings if p.round == t.round)
    return per_round * t.rounds_planned


def _print(result: dict[str, Any]) -> None:
    out = Console(width=None if Console().is_terminal else 160)
    table = Table(
        title=f"{result['game']} {result['format']} · {len(result['standings'])} bots · "
        f"{result['rounds']} rounds · {result['status']} in {result['seconds']} s"
    )
    for column in ("rank", "player", "points", *result["tiebreak_order"], "games", "wins"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for row in result["standings"]:
        breaks = [f"{row['tiebreaks'].get(name, 0):g}" for name in result["tiebreak_order"]]
        table.add_row(
            str(row["rank"]), row["player"], f"{row['points']:g}", *breaks, str(row["games"]), str(row["wins"])
        )
    out.print(table)
