"""`gamehall`: the platform's command line for people (run, games, simulate, ...)."""

from __future__ import annotations

import typer

from gamehall.cli import (
    archive_cmd,
    arena_cmd,
    audit_cmd,
    backup_cmd,
    deadletter_cmd,
    games_cmd,
    play_cmd,
    replay_cmd,
    run_cmd,
    simulate_cmd,
    tournament_cmd,
    verify_cmd,
)

app = typer.Typer(
    name="gamehall",
    help="Host tabletop games online: run the platform, list games, simulate matches with bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
app.command("run")(run_cmd.run)
app.command("games")(games_cmd.games)
app.command("simulate")(simulate_cmd.simulate)
app.command("arena")(arena_cmd.arena)
app.command("replay")(replay_cmd.replay)
app.command("verify")(verify_cmd.verify)
app.command("tournament")(tournament_cmd.tournament)
app.command("play")(play_cmd.play)
app.command("audit")(audit_cmd.audit)
app.command("backup")(backup_cmd.backup)
app.command("restore")(backup_cmd.restore)
app.add_typer(archive_cmd.app, name="archive")
app.add_typer(deadletter_cmd.app, name="deadletter")

if __name__ == "__main__":
    app()
