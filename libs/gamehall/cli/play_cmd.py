"""`gamehall play`: play one seat of a match from the terminal, through the public gateway.

Connects to a gateway (or, with `--local`, starts a temporary embedded platform hosting only the
game), signs in, creates a match with bot seats for the other seats (or joins an existing one)
and plays the seat on its play stream (MatchService.PlaySeat): each update brings the seat's view and,
on its turn, the numbered legal actions; the choice read from stdin goes back on the stream with
`expected_version`, and the stream carries the others' moves meanwhile.

What it shows is in `play_render` (pure functions), and line reading is injectable
(`ReadLine`), so both are tested without a terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import typer
from rich.console import Console

from gamehall.ai.levels import LEVELS
from gamehall.cli import gateway_options
from gamehall.cli.local_platform import temporary_platform
from gamehall.cli.play_render import (
    ENDED,
    describe_seat,
    parse_choice,
    render_events,
    render_legal,
    render_outcome,
    render_status,
    render_view,
)
from gamehall.engine import UnknownGame as EngineUnknownGame
from gamehall.engine import get_game
from gamehall.launcher.processes import LaunchError
from gamehall_sdk import (
    GamehallError,
    IllegalAction,
    InvalidRequest,
    MatchOver,
    NotFound,
    NotYourTurn,
    Unauthenticated,
    Unavailable,
    UnknownGame,
    VersionConflict,
    bot_seat,
    open_seat,
)
from gamehall_sdk.client import Gamehall
from gamehall_sdk.models import SeatTurn, View
from gamehall_sdk.seat_stream import SeatStream
from gamehall_sdk.v1 import match_pb2

ReadLine = Callable[[str], str | None]
"""Reads one answer after showing a prompt; None when the input is exhausted (EOF)."""

DEFAULT_GATEWAY = gateway_options.DEFAULT_GATEWAY
MAX_RECONNECTS = 5


class PlayError(Exception):
    """A failure to report in one line, with the exit code to use."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def stdin_reader(prompt: str) -> str | None:
    """Read a line from stdin after `prompt` (None at EOF)."""
    try:
        return input(prompt)
    except EOFError:
        return None


@dataclass
class Seating:
    """How the player takes part: a match to create against bots, or one to join."""

    game: str
    mode: str = ""
    against: tuple[str, ...] = ("easy",)
    join: str | None = None
    seat: int | None = None


async def connect(
    target: str, connect_timeout: float, ca_file: Path | None = None, system_trust: bool = False
) -> Gamehall:
    """A session on the gateway at `target`, once its channel is ready (PlayError if it never is, saying the
    likely TLS mismatch); over TLS trusting `ca_file` (the gateway's certificate or its CA), or the system's
    store with `system_trust`."""
    try:
        return await gateway_options.connect(
            target, ca_file=ca_file, system_trust=system_trust, wait=connect_timeout
        )
    except gateway_options.GatewayUnreachable as exc:
        raise PlayError(str(exc)) from exc


async def sign_in(hall: Gamehall, username: str | None, password: str | None, register: bool) -> str:
    """Log in (or register); a throwaway account when registering without a name. Returns the username."""
    if register and not username:
        username = f"player-{secrets.token_hex(4)}"
        password = password or secrets.token_urlsafe(18)
    if not username or not password:
        raise PlayError("give --username and --password (or --register, or --local)", code=2)
    try:
        if register:
            await hall.register(username, password)
        else:
            await hall.login(username, password)
    except Unauthenticated as exc:
        raise PlayError(f"login refused: {exc.message}") from exc
    except Unavailable:
        raise
    except GamehallError as exc:
        raise PlayError(f"could not {'register' if register else 'log in'}: {exc.message}") from exc
    return username


async def seat_count(hall: Gamehall, game: str, mode: str, bots: int) -> tuple[str, int]:
    """The mode (default: the game's first) and seat count: 1 + bots when the mode allows it, else its first."""
    games = await hall.games()
    descriptor = next((g for g in games if g.id == game), None)
    if descriptor is None:
        raise PlayError(f"unknown game {game!r}; games: {', '.join(sorted(g.id for g in games))}", code=2)
    modes = {m.id: m for m in descriptor.modes}
    chosen = modes.get(mode) if mode else (descriptor.modes[0] if descriptor.modes else None)
    if chosen is None:
        raise PlayError(f"unknown mode {mode!r} for {game}; modes: {', '.join(modes)}", code=2)
    counts = list(chosen.seats)
    if not counts:
        raise PlayError(f"mode {chosen.id} of {game} lists no seat counts", code=2)
    return chosen.id, (1 + bots if 1 + bots in counts else counts[0])


async def take_seat(hall: Gamehall, seating: Seating) -> tuple[match_pb2.Match, int]:
    """Join `seating.join`, or create a match with bot seats around the player's seat; (match, seat)."""
    try:
        if seating.join:
            joined = await hall.matches.join(seating.join, seating.seat)
            return joined.match, joined.seat
        mode, seats = await seat_count(hall, seating.game, seating.mode, len(seating.against))
        mine = seating.seat or 0
        if not 0 <= mine < seats:
            raise PlayError(f"--seat must be in 0..{seats - 1} for {seating.game} {mode}", code=2)
        levels = iter(seating.against * seats)
        specs = [open_seat() if n == mine else bot_seat(next(levels)) for n in range(seats)]
        match = await hall.matches.create(seating.game, mode=mode, seats=seats, seat_specs=specs, join_seat=mine)
        return match, mine
    except UnknownGame as exc:
        raise PlayError(exc.message, code=2) from exc
    except (InvalidRequest, NotFound) as exc:
        raise PlayError(exc.message, code=2) from exc


async def take_turn(
    hall: Gamehall,
    match_id: str,
    seat: int,
    out: Console,
    read: ReadLine,
    *,
    compact: bool,
    turn: SeatTurn | None = None,
    stream: SeatStream | None = None,
    game: str | None = None,
) -> Literal["played", "moved", "left"]:
    """Show the view and legal actions, ask for a choice and submit it (re-reading when the match moved).

    On the seat's play stream (`turn` and `stream` given) the view and legal actions came with the update and
    the choice goes back on the stream: one round trip per move; else they are read with the unary calls."""
    if turn is not None and turn.legal is not None:
        view: View = turn
        legal = turn.legal
    else:
        legal = await hall.matches.legal(match_id, seat)
        if not legal.actions:
            return "moved"
        view = await hall.matches.view(match_id, seat)
        if view.finished or view.version != legal.version:
            return "moved"
    out.print(render_view(view, compact=compact, game=game))
    out.print(render_legal(legal))
    while True:
        line = read(f"move 1-{len(legal)}, v: view, q: leave > ")
        if line is None:
            out.print("input closed: leaving the match")
            return await leave(hall, match_id, out)
        choice = parse_choice(line, legal)
        if choice == "quit":
            return await leave(hall, match_id, out)
        if choice == "view":
            out.print(render_view(await hall.matches.view(match_id, seat), compact=compact, game=game))
            out.print(render_legal(legal))
            continue
        if choice is None:
            out.print(f"[yellow]type a number from 1 to {len(legal)}, v or q[/yellow]")
            continue
        break
    try:
        if stream is not None:
            played = await stream.act(choice, expected_version=legal.version)
        else:
            played = await hall.matches.submit(match_id, seat, choice, expected_version=legal.version)
    except (VersionConflict, NotYourTurn):
        out.print("[yellow]the match moved on meanwhile: reading it again[/yellow]")
        return "moved"
    except IllegalAction as exc:
        out.print(f"[yellow]illegal: {exc.message}[/yellow]")
        return "moved"
    except MatchOver:
        return "moved"
    out.print(f"you played {played.action.label or played.action.id} (v{played.version})")
    return "played"


async def leave(hall: Gamehall, match_id: str, out: Console) -> Literal["left"]:
    """Resign the seat (the match records it as a forfeit)."""
    with contextlib.suppress(MatchOver):
        await hall.matches.leave(match_id)
        out.print("you left the match")
    return "left"


async def play_match(
    hall: Gamehall, match: match_pb2.Match, seat: int, out: Console, read: ReadLine, *, compact: bool = False
) -> match_pb2.Match:
    """Play `seat` of `match` to its end (or until the player leaves); the final match record."""
    out.print(render_status(match, seat))
    reconnects, seen = 0, 0
    left = False
    while not left:
        try:
            async with hall.matches.play_stream(match.id, seat, from_version=seen) as updates:
                first = seen == 0
                async for update in updates:
                    seen = max(seen, update.version)
                    if not first:
                        for line in render_events(update):
                            out.print(f"[dim]{line}[/dim]", highlight=False)
                    first = False
                    if update.finished:
                        break
                    if update.legal is not None and update.legal.actions:
                        done = await take_turn(
                            hall,
                            match.id,
                            seat,
                            out,
                            read,
                            compact=compact,
                            turn=update,
                            stream=updates,
                            game=match.game,
                        )
                        if done == "left":
                            left = True
                            break
                    elif update.to_act and seat not in update.to_act:
                        out.print(f"[dim]waiting for seat {', '.join(str(s) for s in update.to_act)}...[/dim]")
        except MatchOver:
            pass
        except Unavailable:
            if reconnects >= MAX_RECONNECTS:
                raise
        current = await hall.matches.get(match.id)
        if current.status in ENDED:
            return current
        if left:
            return current
        reconnects += 1
        if reconnects > MAX_RECONNECTS:
            raise PlayError(f"the play stream of match {match.id} kept ending before the match did")
    return await hall.matches.get(match.id)


async def session(
    target: str,
    seating: Seating,
    out: Console,
    read: ReadLine,
    *,
    username: str | None,
    password: str | None,
    register: bool,
    connect_timeout: float,
    compact: bool,
    ca_file: Path | None = None,
    system_trust: bool = False,
) -> match_pb2.Match:
    """Connect, sign in, take a seat and play it; the final match record."""
    hall = await connect(target, connect_timeout, ca_file, system_trust)
    try:
        name = await sign_in(hall, username, password, register)
        match, seat = await take_seat(hall, seating)
        seats = ", ".join(describe_seat(s, seat) for s in match.seats)
        out.print(f"signed in as {name}; playing seat {seat} of {match.game} ({seats})")
        final = await play_match(hall, match, seat, out, read, compact=compact)
        out.print()
        out.print(render_outcome(final, seat), highlight=False)
        return final
    except Unavailable as exc:
        raise PlayError(f"lost the gateway at {target}: {exc.message}") from exc
    finally:
        await hall.close()


# ----------------------------------------------------------------------------- the command


def parse_levels(against: str) -> tuple[str, ...]:
    levels = tuple(level.strip() for level in against.split(",") if level.strip())
    if not levels or any(level not in LEVELS for level in levels):
        raise PlayError(f"--against takes bot levels among {', '.join(LEVELS)}", code=2)
    return levels


def play(
    game: Annotated[str, typer.Option(help="Game id (see `gamehall games`).")] = "",
    mode: Annotated[str, typer.Option(help="Game mode (default: the game's first).")] = "",
    gateway: gateway_options.Gateway = DEFAULT_GATEWAY,
    username: Annotated[str | None, typer.Option(help="Account to log in as.")] = None,
    password: Annotated[str | None, typer.Option(help="Its password.", envvar="GAMEHALL_PASSWORD")] = None,
    register: Annotated[
        bool, typer.Option("--register", help="Create the account first (a throwaway one without --username).")
    ] = False,
    against: Annotated[str, typer.Option(help=f"Bot levels for the other seats, cycled ({', '.join(LEVELS)}).")] = (
        "easy"
    ),
    join: Annotated[str | None, typer.Option("--join", help="Join this existing match instead.")] = None,
    seat: Annotated[int | None, typer.Option(min=0, help="Seat to take (default: 0, or any open one).")] = None,
    local: Annotated[
        bool, typer.Option("--local", help="Play on a temporary platform hosting only this game.")
    ] = False,
    compact: Annotated[bool, typer.Option("--compact", help="Show views as key=value lines.")] = False,
    connect_timeout: Annotated[float, typer.Option(help="Seconds to wait for the gateway.")] = 5.0,
    keep: Annotated[Path | None, typer.Option(help="With --local, keep the platform's data in this folder.")] = None,
    ca_file: gateway_options.CaFile = None,
    system_trust: gateway_options.SystemTrust = False,
) -> None:
    """Play a match from the terminal against bots or other people, through the public gateway."""
    out = Console(highlight=False)
    err = Console(stderr=True)
    try:
        if not game and not join:
            raise PlayError("give --game (or --join MATCH_ID)", code=2)
        seating = Seating(game=game, mode=mode, against=parse_levels(against), join=join, seat=seat)
        if local:
            _play_local(seating, out, err, compact=compact, keep=keep)
        else:
            asyncio.run(
                session(
                    gateway,
                    seating,
                    out,
                    stdin_reader,
                    username=username,
                    password=password,
                    register=register,
                    connect_timeout=connect_timeout,
                    compact=compact,
                    ca_file=ca_file,
                    system_trust=system_trust,
                )
            )
    except PlayError as exc:
        err.print(f"[red]error:[/red] {exc.message}", highlight=False)
        raise typer.Exit(exc.code) from exc
    except GamehallError as exc:
        err.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(1) from exc
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None


def _play_local(seating: Seating, out: Console, err: Console, *, compact: bool, keep: Path | None) -> match_pb2.Match:
    """Start a temporary platform hosting only the game (like `tournament --simulate`) and play on it."""
    if seating.join:
        raise PlayError("--local creates its own match; --join needs a gateway", code=2)
    try:
        get_game(seating.game)
    except EngineUnknownGame as exc:
        raise PlayError(str(exc), code=2) from exc
    with temporary_platform(seating.game, keep=keep, prefix="gamehall-play-") as platform:
        try:
            with err.status("starting a local platform..."):
                platform.start()
        except LaunchError as exc:
            raise PlayError(f"could not start the platform: {exc}") from exc
        address = platform.service("gateway").address
        err.print(f"local platform up (gateway {address})", highlight=False)
        return asyncio.run(
            session(
                address,
                seating,
                out,
                stdin_reader,
                username=None,
                password=None,
                register=True,
                connect_timeout=30.0,
                compact=compact,
            )
        )
