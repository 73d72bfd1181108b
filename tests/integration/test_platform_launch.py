"""The launcher end to end: nats-server, the services and a rules host for the fixture game as real processes,
two SDK players play a full match through the gateway over sockets, and stopping leaves no process behind."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import ssl
import subprocess
import sys
import time
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest

from gamehall.auth import Tokens
from gamehall.launcher.platform import Platform, grpc_healthy
from gamehall_sdk import Gamehall, play_seat, random_policy
from gamehall_sdk.v1 import auth_pb2, auth_pb2_grpc, match_pb2
from tests.support.processes import processes_mentioning, repo_env

pytestmark = pytest.mark.integration
OLD_PUBLIC_DEFAULT_KEY = "gamehall-embedded-development-key-change-me"
SECRET_VARIABLES = ("GAMEHALL_TOKEN_KEY", "GAMEHALL_OPERATOR_PASSWORD", "GAMEHALL_HOST", "GAMEHALL_ENVIRONMENT")


def _play_full_match(gateway: str) -> match_pb2.Match:
    """Two players register, open a high-card match and play it to the end on their seats' streams (the path
    every move takes: gateway, then the match's owner on its rules host, then the match log)."""

    async def play() -> match_pb2.Match:
        alice, bob = Gamehall.connect(gateway), Gamehall.connect(gateway)
        try:
            for hall, name in ((alice, "alice"), (bob, "bob")):
                await hall.register(f"{name}-{uuid.uuid4().hex[:10]}", "a long passphrase 42")
            match = await alice.matches.create("high-card", join_seat=0)
            await bob.matches.join(match.id)
            final, _ = await asyncio.wait_for(
                asyncio.gather(
                    play_seat(alice, match.id, 0, random_policy(random.Random(1))),
                    play_seat(bob, match.id, 1, random_policy(random.Random(2))),
                ),
                timeout=120,
            )
            return final
        finally:
            await alice.close()
            await bob.close()

    return asyncio.run(play())


def test_platform_serves_a_full_match_and_stops_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in repo_env().items():
        monkeypatch.setenv(key, value)
    platform = Platform(data_dir=tmp_path, games=["high-card"], fixed_ports=False)
    platform.start()
    try:
        rules = platform.service("rules-high-card")
        assert grpc_healthy(rules.address)
        finished = _play_full_match(platform.service("gateway").address)
        assert finished.status == match_pb2.MATCH_STATUS_FINISHED
        assert len(finished.outcome.ranks) == 2 and finished.outcome.reason == "all cards played"
        assert processes_mentioning(str(tmp_path))
    finally:
        codes = platform.stop()
    assert codes["rules-high-card"] == 0  # graceful exit on SIGTERM
    assert processes_mentioning(str(tmp_path)) == []


def _channel(address: str, credentials: grpc.ChannelCredentials | None) -> grpc.Channel:
    return grpc.insecure_channel(address) if credentials is None else grpc.secure_channel(address, credentials)


def _service_pids(data_dir: Path, module: str) -> list[int]:
    """The running processes of one service of the platform in `data_dir`."""
    return [
        pid
        for pid in processes_mentioning(str(data_dir))
        if module.encode() in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    ]


def _check_a_killed_service_comes_back(
    data_dir: Path, name: str, gateway: str, public: grpc.ChannelCredentials | None
) -> None:
    """Issue 36: kill -9 one service under `gamehall run`; the supervisor starts it again within seconds, the
    others keep running (same processes) and the gateway keeps answering meanwhile."""
    module = f"gamehall_services.{name}"
    (victim,) = _service_pids(data_dir, module)
    others = set(processes_mentioning(str(data_dir))) - {victim}
    os.kill(victim, signal.SIGKILL)
    killed_at = time.monotonic()
    fresh: list[int] = []
    while time.monotonic() - killed_at < 30:
        assert grpc_healthy(gateway, credentials=public), "the gateway went down with the ai"
        fresh = [p for p in _service_pids(data_dir, module) if p != victim]
        if fresh and '"restarted"' in (data_dir / "logs" / "supervisor.log").read_text():
            break
        time.sleep(0.1)
    assert fresh, f"{name} was not started again within 30 s"
    assert time.monotonic() - killed_at < 15, "the restart took longer than a few seconds"
    events = [json.loads(line) for line in (data_dir / "logs" / "supervisor.log").read_text().splitlines()]
    assert [(e["service"], e["event"]) for e in events] == [(name, "exited"), (name, "restarted")]
    assert others <= set(processes_mentioning(str(data_dir))), "other services were restarted too"


def _serving_address(log: Path) -> str | None:
    if log.exists():
        for line in log.read_text().splitlines():
            if '"serving"' in line:
                return f"127.0.0.1:{json.loads(line)['grpc_port']}"
    return None


@dataclass(frozen=True)
class _Operator:
    id: str
    username: str = "operator"
    role: str = "operator"


def _run_credentials(directory: Path) -> tuple[grpc.ChannelCredentials, grpc.ChannelCredentials]:
    """What `gamehall run` made: the launcher's mTLS certificate (health checks) and the gateway's public one."""
    internal = grpc.ssl_channel_credentials(
        (directory / "ca.crt").read_bytes(),
        private_key=(directory / "launcher.key").read_bytes(),
        certificate_chain=(directory / "launcher.crt").read_bytes(),
    )
    return internal, grpc.ssl_channel_credentials((directory / "gateway-public.crt").read_bytes())


def _check_operator_login(gateway: str, password: str, credentials: grpc.ChannelCredentials | None = None) -> None:
    """The generated operator password logs in; a token signed with the old public default key does not."""
    with _channel(gateway, credentials) as channel:
        auth = auth_pb2_grpc.AuthServiceStub(channel)
        login = auth.Login(auth_pb2.LoginRequest(username="operator", password=password), timeout=30)
        assert login.account.role == auth_pb2.ROLE_OPERATOR
        forged = Tokens(OLD_PUBLIC_DEFAULT_KEY).issue(_Operator(login.account.id), 600)
        with pytest.raises(grpc.RpcError) as refused:
            auth.WhoAmI(auth_pb2.WhoAmIRequest(), metadata=(("authorization", f"Bearer {forged}"),), timeout=30)
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED


def _check_web_login(log: Path, password: str, deadline: float) -> None:
    """The web pages' API bridge reaches the gateway over its TLS port: the operator logs in through it (Connect
    JSON over HTTPS, as a browser's page would; the web port serves the gateway's public certificate)."""
    port = None
    while time.monotonic() < deadline and port is None:
        lines = log.read_text().splitlines() if log.exists() else []
        port = next((json.loads(line)["http_port"] for line in lines if '"web serving"' in line), None)
        time.sleep(0.1)
    assert port is not None, "the web service never reported serving"
    request = urllib.request.Request(
        f"https://127.0.0.1:{port}/gamehall.v1.AuthService/Login",
        data=json.dumps({"username": "operator", "password": password}).encode(),
        headers={"content-type": "application/json"},
    )
    trusted = ssl.create_default_context(cafile=str(log.parent.parent / "tls" / "gateway-public.crt"))
    with urllib.request.urlopen(request, timeout=30, context=trusted) as reply:
        assert json.loads(reply.read())["token"]


def test_gamehall_run_answers_health_and_stops_on_sigterm(tmp_path: Path) -> None:
    """`gamehall run` with no secret configured: it generates a private signing key and operator password,
    prints how to log in as the operator, serves TLS only (mTLS inside, the printed self-signed certificate on
    the gateway) and stops every process on SIGTERM."""
    env = {k: v for k, v in {**os.environ, **repo_env()}.items() if k not in SECRET_VARIABLES}
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
    password_file = tmp_path / "secrets" / "operator-password"
    try:
        deadline = time.monotonic() + 90
        logs = tmp_path / "logs"
        address = gateway = None
        while time.monotonic() < deadline and (address is None or gateway is None):
            assert proc.poll() is None, proc.communicate()
            address = _serving_address(logs / "rules-high-card.log")
            gateway = _serving_address(logs / "gateway.log")
            time.sleep(0.1)
        assert address is not None and gateway is not None, "the rules host or the gateway never reported serving"
        internal, public = _run_credentials(tmp_path / "tls")
        while time.monotonic() < deadline and not (
            grpc_healthy(address, credentials=internal) and grpc_healthy(gateway, credentials=public)
        ):
            time.sleep(0.1)
        assert grpc_healthy(address, credentials=internal)
        assert not grpc_healthy(address) and not grpc_healthy(gateway)  # TLS only: plaintext is refused
        _check_operator_login(gateway, password_file.read_text().strip(), public)
        _check_web_login(logs / "web.log", password_file.read_text().strip(), deadline)
        assert (tmp_path / "secrets" / "token-key").read_text().strip() != OLD_PUBLIC_DEFAULT_KEY
        _check_a_killed_service_comes_back(tmp_path, "ai", gateway, public)
        listed = subprocess.run(  # the operator's dead-letter tool logs in with the tools login this start wrote
            [sys.executable, "-m", "gamehall.cli.main", "deadletter", "list", "--data-dir", str(tmp_path), "--json"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert listed.returncode == 0 and json.loads(listed.stdout) == [], listed.stderr
        assert proc.poll() is None, "the platform stopped when one service died"
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "supervisor: ai exited (code -9); restarting" in err
    assert "supervisor: ai restarted and ready (restart 1)" in err
    assert "all processes stopped" in err
    assert password_file.read_text().strip() not in err, "the password never goes to a non-terminal output (a log)"
    assert f"log in as 'operator' with the password kept in {password_file}" in err
    assert f"grpcurl -cacert {tmp_path / 'tls' / 'gateway-public.crt'} {gateway} list" in err
    assert processes_mentioning(str(tmp_path)) == []


def test_a_service_on_a_public_address_without_a_key_refuses_to_start(tmp_path: Path) -> None:
    env = {k: v for k, v in {**os.environ, **repo_env()}.items() if k not in SECRET_VARIABLES}
    env.update({"GAMEHALL_HOST": "0.0.0.0", "GAMEHALL_DATA_DIR": str(tmp_path), "GAMEHALL_SERVICE": "gateway"})
    done = subprocess.run(
        [sys.executable, "-m", "gamehall_services.gateway"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2, done.stderr
    assert "refusing to start" in done.stderr and "GAMEHALL_TOKEN_KEY is not set" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "secrets").exists()
