"""`gamehall run`: the whole platform on embedded defaults, until Ctrl-C or SIGTERM."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from gamehall.launcher.platform import Platform
from gamehall.launcher.processes import LaunchError
from gamehall.launcher.security import trust_instructions
from gamehall.launcher.supervisor import GaveUp, Supervisor
from gamehall.runtime import embedded_secrets
from gamehall.runtime.settings import Settings


class _Stop(Exception):
    pass


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    raise _Stop(signal.Signals(signum).name)


def run(
    data_dir: Annotated[Path, typer.Option(help="Where the SQLite file, JetStream store and logs live.")] = Path("var"),
    game: Annotated[list[str] | None, typer.Option("--game", help="Host only these games (repeatable).")] = None,
    free_ports: Annotated[bool, typer.Option(help="Pick free ports instead of the documented defaults.")] = False,
    rules_replicas: Annotated[
        int, typer.Option(min=1, max=8, help="Replicas of each game's rules service (matches spread over them).")
    ] = 1,
    tls: Annotated[
        bool,
        typer.Option(help="mTLS between services, TLS on the gateway and NATS (certificates in <data dir>/tls)."),
    ] = True,
) -> None:
    """Start nats-server and every service as child processes; stop them all on Ctrl-C/SIGTERM."""
    console = Console(stderr=True)
    platform = Platform(
        data_dir=data_dir, games=game or None, fixed_ports=not free_ports, rules_replicas=rules_replicas, secure=tls
    )
    signal.signal(signal.SIGTERM, _raise_stop)
    signal.signal(signal.SIGINT, _raise_stop)
    code = 0
    # before the services start, so that this process makes the password (and knows it did: shown once)
    login = operator_login(data_dir, terminal=console.is_terminal)
    try:
        with console.status("starting nats-server and services..."):
            platform.start()
        table = Table(title="gamehall is running", caption=f"logs: {data_dir / 'logs'}  ·  Ctrl-C stops everything")
        for column in ("service", "gRPC", "metrics"):
            table.add_column(column)
        table.add_row("nats-server", platform.nats_url, "-")
        for s in platform.services:
            table.add_row(s.definition.name, s.address, f"http://127.0.0.1:{s.metrics_port}/metrics")
        Console(width=None if Console().is_terminal else 160).print(table)
        if platform.web_url:
            console.print(f"web pages: {platform.web_url}")
        console.print(login, highlight=False, soft_wrap=True)
        if platform.security is not None:
            console.print(
                trust_instructions(platform.security, platform.service("gateway").address),
                highlight=False,
                soft_wrap=True,
            )
        console.print("a service that exits is restarted (see logs/supervisor.log); Ctrl-C stops everything")
        Supervisor(platform, report=lambda text: console.print(f"[yellow]supervisor:[/yellow] {text}")).run()
    except GaveUp as exc:
        console.print(f"[red]giving up:[/red] {exc}; shutting down")
        code = 1
    except LaunchError as exc:
        console.print(f"[red]could not start the platform:[/red] {exc}")
        code = 1
    except _Stop as stop:
        console.print(f"{stop}: stopping...")
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        platform.stop()
        console.print("all processes stopped")
    sys.exit(code)


def operator_login(data_dir: Path, *, terminal: bool = True) -> str:
    """How to log in as the operator on this platform. An embedded start generates the password: it is shown
    once, when it is made, and only on a terminal (never into a log a supervisor keeps); later starts and
    non-terminal output name the file that holds it."""
    try:
        secret = embedded_secrets.operator_password(Settings(data_dir=data_dir.resolve()))
    except embedded_secrets.MissingSecret as exc:
        return f"operator: no bootstrap account ({exc})"
    if secret is None:
        return "operator: no bootstrap account (set GAMEHALL_OPERATOR_PASSWORD to create one)"
    if secret.source == "environment":
        return "operator: log in as 'operator' with the password in GAMEHALL_OPERATOR_PASSWORD"
    if secret.created and terminal:
        return (
            f"operator: log in as 'operator' with password {secret.value}  (generated now, shown only this once; "
            f"kept in {secret.source})"
        )
    return f"operator: log in as 'operator' with the password kept in {secret.source} (`cat` it; it is never logged)"
