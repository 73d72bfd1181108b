"""The `gamehall` command line, run in-process with typer's runner."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from gamehall.cli.main import app
from gamehall.engine import all_games, register, unregister
from tests.fixtures.dice_nim import GAME as DICE_NIM
from tests.fixtures.high_card import GAME as HIGH_CARD

runner = CliRunner()


@pytest.fixture(autouse=True)
def fixture_games() -> Iterator[None]:
    """Register the fixture games for a test, leaving the registry as it was found."""
    already = {g.id for g in all_games()}
    register(HIGH_CARD, replace=True)
    register(DICE_NIM, replace=True)
    yield
    for game in (HIGH_CARD, DICE_NIM):
        if game.id not in already:
            unregister(game.id)


def test_help_lists_the_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("run", "games", "simulate", "arena"):
        assert command in result.output


@pytest.mark.parametrize("command", ["run", "games", "simulate", "arena"])
def test_each_command_has_help(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0, result.output


def test_games_json_describes_modes_and_flags() -> None:
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0
    games = {g["id"]: g for g in json.loads(result.output)}
    assert games["high-card"]["modes"][0]["seats"] == [2]
    assert games["high-card"]["flags"][0]["name"] == "ties_score"


def test_simulate_reports_every_match() -> None:
    result = runner.invoke(
        app,
        [
            "simulate",
            "--game",
            "high-card",
            "--matches",
            "30",
            "--bots",
            "random,easy",
            "--flag",
            "ties_score=true",
            "--check",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["finished"] == 30 and summary["errors"] == []
    assert summary["config"]["flags"] == {"ties_score": True}
    assert summary["conformance"]["ok"] is True
    assert sum(summary["seat_wins"].values()) >= 30  # ties give both seats rank 1


def test_simulate_rejects_bad_input_clearly() -> None:
    unknown = runner.invoke(app, ["simulate", "--game", "nope"])
    assert unknown.exit_code == 2 and "no game 'nope'" in unknown.output
    bad_flag = runner.invoke(app, ["simulate", "--game", "high-card", "--flag", "nope=1"])
    assert bad_flag.exit_code == 2 and "nope" in bad_flag.output
    bad_bot = runner.invoke(app, ["simulate", "--game", "high-card", "--bots", "genius"])
    assert bad_bot.exit_code == 2 and "genius" in bad_bot.output


def test_arena_table_is_monotone_on_a_skill_game() -> None:
    result = runner.invoke(app, ["arena", "--game", "dice-nim", "--levels", "random,hard", "--matches", "30", "--json"])
    assert result.exit_code == 0, result.output
    table = json.loads(result.output)["table"]
    assert table["hard"]["random"]["rate"] > 0.7
