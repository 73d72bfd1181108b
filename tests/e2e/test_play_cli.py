"""`gamehall play`: a person's seat against a bot, on its own temporary platform, read from stdin."""

from __future__ import annotations

import re
import time

import pytest
from typer.testing import CliRunner

from gamehall.cli.main import app
from tests.support.processes import repo_env


def test_play_local_high_card_against_an_easy_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in repo_env().items():
        monkeypatch.setenv(key, value)
    result = CliRunner().invoke(
        app,
        ["play", "--local", "--game", "high-card", "--against", "easy"],
        input="1\n" * 40,  # more than enough: a re-read after a version conflict asks again
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "playing seat 0 of high-card" in out and "bot easy" in out
    assert "your moves" in out and "you played play(card=" in out
    assert "match over: all cards played" in out  # not "resigned": the input did not run out
    assert re.search(r"seat 0 \(you\): [12](st|nd), score \d", out)
    assert re.search(r"you (won|tied for first|finished 2nd of 2)", out)
    match = re.search(r"match id: (\S+)", out)
    assert match is not None and f"gamehall replay {match.group(1)} --seat 0" in out


def test_play_leaves_when_told(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in repo_env().items():
        monkeypatch.setenv(key, value)
    result = CliRunner().invoke(app, ["play", "--local", "--game", "high-card"], input="v\nq\n")
    assert result.exit_code == 0, result.output
    assert "you left the match" in result.stdout
    assert "match over: forfeit" in result.stdout and "you finished 2nd of 2" in result.stdout


def test_unreachable_gateway_is_one_line_and_exit_1() -> None:
    started = time.perf_counter()
    result = CliRunner().invoke(
        app,
        ["play", "--game", "high-card", "--gateway", "127.0.0.1:1", "--register", "--connect-timeout", "1"],
    )
    assert result.exit_code == 1, result.output
    assert "cannot reach the gateway at 127.0.0.1:1" in result.output
    assert "--ca-file" in result.output, "without a CA, TLS is named as the likely cause"
    assert "Traceback" not in result.output
    assert time.perf_counter() - started < 10


def test_unknown_game_and_bad_levels_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in repo_env().items():
        monkeypatch.setenv(key, value)
    unknown = CliRunner().invoke(app, ["play", "--local", "--game", "no-such-game"])
    assert unknown.exit_code == 2 and "no-such-game" in unknown.output
    levels = CliRunner().invoke(app, ["play", "--local", "--game", "high-card", "--against", "grandmaster"])
    assert levels.exit_code == 2 and "--against" in levels.output
