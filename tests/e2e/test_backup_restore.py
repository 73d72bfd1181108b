"""Operator safety end to end (issue 20): a running platform's store is backed up with `gamehall backup`,
restored with `gamehall restore` into a fresh data dir, and a platform started there serves the matches:
the finished one replays and verifies, the running one plays on to its end. The operator's tournament
creation on the first platform is in the audit log the restored store carries."""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import pytest
from typer.testing import CliRunner, Result

from gamehall.cli.main import app
from gamehall_sdk.v1 import auth_pb2, match_pb2, tournament_pb2
from tests.e2e.client import Client
from tests.e2e.conftest import AUTH_UNLIMITED, OPERATOR_PASSWORD, TOKEN_KEY, Running
from tests.e2e.helpers import projected
from tests.e2e.mm_helpers import tournaments
from tests.support.stack import Stack, running_stack

GAME = "high-card"
runner = CliRunner()
ENV = {
    "GAMEHALL_TOKEN_KEY": TOKEN_KEY,
    "GAMEHALL_OPERATOR_PASSWORD": OPERATOR_PASSWORD,
    "GAMEHALL_LOG_LEVEL": "warning",
    **AUTH_UNLIMITED,
}


def _cli(*args: str) -> Result:
    """The command line in this process (the platform's services are separate processes anyway)."""
    return runner.invoke(app, list(args))


def _client(stack: Stack) -> Client:
    return Client(grpc.insecure_channel(stack.gateway))


def _move(players: tuple[Client, Client], match_id: str) -> bool:
    """One move by whoever is to act; False when nobody is (the match is over)."""
    for client in players:
        legal = client.legal(match_id)
        if legal.actions:
            client.submit(match_id, next(a for a in legal.actions if a.id != "resign").id)
            return True
    return False


def _signed_in(stack: Stack, token: str) -> Client:
    client = _client(stack)
    client.token = token
    return client


@pytest.mark.slow
def test_backup_of_a_running_platform_restores_into_a_fresh_data_dir(platform: Running, tmp_path: Path) -> None:
    """The shared platform is backed up while it runs (a backup only reads it); a second platform starts on
    the restored copy."""
    fresh, folder = tmp_path / "fresh", tmp_path / "backup"
    stack = platform.stack
    if stack.platform is None:
        pytest.skip("needs the local-process backend (it backs up the SQLite file)")
    alice, bob = platform.player(), platform.player()
    done_match = alice.create(GAME, join_seat=0, public=True).id
    bob.join(done_match)
    while _move((alice, bob), done_match):
        pass
    live_match = alice.create(GAME, join_seat=0, public=True).id
    bob.join(live_match)
    assert _move((alice, bob), live_match) and _move((alice, bob), live_match)
    boss = platform.client()
    boss.token = boss.auth.Login(auth_pb2.LoginRequest(username="operator", password=OPERATOR_PASSWORD)).token
    cup = tournaments(boss).CreateTournament(
        tournament_pb2.CreateTournamentRequest(name="Backup Cup", game=GAME, mode="duel"), metadata=boss.metadata
    )
    projected(stack.nats_url)
    cluster_url = f"nats://127.0.0.1:1,{stack.nats_url}"  # a cluster's list, its first server down: any live one
    backed = _cli("backup", str(folder), "--data-dir", str(platform.data_dir), "--nats-url", cluster_url)
    assert backed.exit_code == 0, backed.output
    tokens = (alice.token, bob.token)
    live_version = alice.match(live_match).version
    assert json.loads((folder / "manifest.json").read_text())["matchlog"] == "projected"

    restored = _cli("restore", str(folder), "--data-dir", str(fresh))
    assert restored.exit_code == 0, restored.output
    audit = _cli("audit", "--database-url", f"sqlite:///{fresh / 'gamehall.db'}", "--json", "--limit", "500")
    events = json.loads(audit.stdout)["events"]
    created = [e for e in events if e["target"] == f"tournament:{cup.tournament.id}"]
    assert [(e["action"], e["outcome"], e["actor_name"]) for e in created] == [
        ("TournamentService.CreateTournament", "OK", "operator")
    ]

    with running_stack(fresh, [GAME], "sqlite", ENV) as second:
        alice, bob = (_signed_in(second, t) for t in tokens)
        finished = alice.match(done_match)
        assert finished.status == match_pb2.MATCH_STATUS_FINISHED
        replay = alice.replay(done_match)
        assert replay.complete and len(replay.steps) == finished.version
        assert alice.match(live_match).version == live_version
        while _move((alice, bob), live_match):
            pass
        assert alice.match(live_match).status == match_pb2.MATCH_STATUS_FINISHED
        projected(second.nats_url)
        for match_id in (done_match, live_match):
            verified = _cli("verify", match_id, "--database-url", f"sqlite:///{fresh / 'gamehall.db'}", "--json")
            assert verified.exit_code == 0 and json.loads(verified.stdout)["ok"], verified.output
