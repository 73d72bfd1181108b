"""`gamehall audit` and `gamehall archive` on a store: the operators' table, filters, paging, JSON."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamehall.cli.audit_cmd import parse_time
from gamehall.cli.main import app
from gamehall.store import open_store

runner = CliRunner()


@pytest.fixture
def dsn(tmp_path: Path) -> str:
    url = f"sqlite://{tmp_path / 'g.db'}"

    async def fill() -> None:
        store = await open_store(url)
        try:
            for i, (name, action) in enumerate(
                [
                    ("olga", "TournamentService.CreateTournament"),
                    ("olga", "TournamentService.StartTournament"),
                    ("ivan", "MatchmakingService.EnqueueTicket"),
                ]
            ):
                await store.begin_audit_event(
                    f"e{i}",
                    actor=f"acc-{name}",
                    actor_name=name,
                    role="operator",
                    action=action,
                    target=f"tournament:t{i}",
                )
            await store.finish_audit_event("e0", "OK")
            await store.finish_audit_event("e1", "FAILED_PRECONDITION", "too few players")
        finally:
            await store.close()

    asyncio.run(fill())
    return url


def test_audit_lists_newest_first_with_outcomes(dsn: str) -> None:
    done = runner.invoke(app, ["audit", "--database-url", dsn], env={"COLUMNS": "220"})
    assert done.exit_code == 0, done.output
    lines = done.output
    assert lines.index("EnqueueTicket") < lines.index("StartTournament") < lines.index("CreateTournament")
    assert "outcome unknown" in lines and "FAILED_PRECONDITION" in lines and "too few players" in lines


def test_audit_filters_by_actor_and_action_and_pages(dsn: str) -> None:
    done = runner.invoke(app, ["audit", "--database-url", dsn, "--actor", "olga", "--json"])
    assert [e["id"] for e in json.loads(done.output)["events"]] == ["e1", "e0"]
    done = runner.invoke(app, ["audit", "--database-url", dsn, "--action", "MatchmakingService.", "--json"])
    assert [e["id"] for e in json.loads(done.output)["events"]] == ["e2"]
    first = json.loads(runner.invoke(app, ["audit", "--database-url", dsn, "--limit", "2", "--json"]).output)
    assert len(first["events"]) == 2 and first["next_page_token"]
    rest = runner.invoke(
        app, ["audit", "--database-url", dsn, "--limit", "2", "--json", "--page-token", first["next_page_token"]]
    )
    assert [e["id"] for e in json.loads(rest.output)["events"]] == ["e0"]
    future = runner.invoke(app, ["audit", "--database-url", dsn, "--since", "2999-01-01", "--json"])
    assert json.loads(future.output)["events"] == []


def test_times_are_iso_or_an_age() -> None:
    now = datetime(2030, 1, 2, tzinfo=UTC)
    assert parse_time("2h", now) == now - timedelta(hours=2)
    assert parse_time("7d", now) == now - timedelta(days=7)
    assert parse_time("2030-01-01T00:00:00") == datetime(2030, 1, 1, tzinfo=UTC)
    assert parse_time("") is None
    done = runner.invoke(app, ["audit", "--database-url", "sqlite:///nowhere/x.db", "--since", "yesterday"])
    assert done.exit_code == 2


def test_archive_says_when_a_match_is_not_archived(dsn: str) -> None:
    listed = runner.invoke(app, ["archive", "list", "--database-url", dsn, "--json"])
    assert listed.exit_code == 0 and json.loads(listed.output) == []
    shown = runner.invoke(app, ["archive", "show", "no-such-match", "--database-url", dsn])
    assert shown.exit_code == 2 and "no archived match" in shown.output
