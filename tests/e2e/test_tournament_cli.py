"""`gamehall tournament --simulate`: a whole Swiss of bots on its own temporary platform."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gamehall.cli.main import app
from tests.support.processes import repo_env


def test_simulate_runs_a_whole_swiss_and_prints_the_standings(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in repo_env().items():
        monkeypatch.setenv(key, value)
    args = ["tournament", "--simulate", "--game", "high-card", "--players", "6", "--format", "swiss", "--json"]
    result = CliRunner().invoke(app, [*args, "--rounds", "3"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["status"] == "finished" and report["rounds"] == 3
    rows = report["standings"]
    assert [r["rank"] for r in rows] == list(range(1, 7))
    assert sum(r["games"] for r in rows) == 18 and sum(r["points"] for r in rows) == pytest.approx(9.0)


def test_without_simulate_it_refuses() -> None:
    result = CliRunner().invoke(app, ["tournament", "--game", "high-card"])
    assert result.exit_code == 2
