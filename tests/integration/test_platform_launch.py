"""The launcher end to end: nats-server + a rules host for the fixture game as real processes,
a real gRPC client plays a full match over sockets, and stopping leaves no process behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest

from gamehall.internal.v1 import rules_pb2, rules_pb2_grpc
from gamehall.launcher.platform import Platform, grpc_healthy
from gamehall.v1 import common_pb2
from tests.support.processes import processes_mentioning, repo_env

pytestmark = pytest.mark.integration


def _play_full_match(address: str) -> common_pb2.Outcome:
    with grpc.insecure_channel(address) as channel:
        stub = rules_pb2_grpc.RulesServiceStub(channel)
        created = stub.NewMatch(rules_pb2.NewMatchRequest(config=common_pb2.MatchConfig(mode="duel", seats=2), seed=11))
        state, summary = created.state, created.summary
        while not summary.HasField("outcome"):
            seat = summary.to_act[0]
            legal = stub.LegalActions(rules_pb2.LegalActionsRequest(state=state, seat=seat)).actions
            choice = next(a for a in legal if a.id != "resign")
            applied = stub.Apply(rules_pb2.ApplyRequest(state=state, seat=seat, action_id=choice.id))
            state, summary = applied.state, applied.summary
        return summary.outcome


def test_platform_serves_a_full_match_and_stops_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in repo_env().items():
        monkeypatch.setenv(key, value)
    platform = Platform(data_dir=tmp_path, games=["high-card"], fixed_ports=False)
    platform.start()
    try:
        rules = platform.service("rules-high-card")
        assert grpc_healthy(rules.address)
        outcome = _play_full_match(rules.address)
        assert len(outcome.ranks) == 2 and outcome.reason == "all cards played"
        assert processes_mentioning(str(tmp_path))
    finally:
        codes = platform.stop()
    assert codes["rules-high-card"] == 0  # graceful exit on SIGTERM
    assert processes_mentioning(str(tmp_path)) == []


def test_gamehall_run_answers_health_and_stops_on_sigterm(tmp_path: Path) -> None:
    env = {**os.environ, **repo_env()}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gamehall.cli.main",
            "run",
            "--data-dir",
            str(tmp_path),
            "--free-ports",
            "--game",
            "high-card",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        log = tmp_path / "logs" / "rules-high-card.log"
        address = None
        while time.monotonic() < deadline and address is None:
            assert proc.poll() is None, proc.communicate()
            if log.exists():
                for line in log.read_text().splitlines():
                    if '"serving"' in line:
                        address = f"127.0.0.1:{json.loads(line)['grpc_port']}"
            time.sleep(0.1)
        assert address is not None, "the rules host never reported serving"
        while time.monotonic() < deadline and not grpc_healthy(address):
            time.sleep(0.1)
        assert grpc_healthy(address)
        assert _play_full_match(address).ranks
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "all processes stopped" in err
    assert processes_mentioning(str(tmp_path)) == []
