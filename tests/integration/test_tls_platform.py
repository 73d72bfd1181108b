"""Transport security end to end (issue 20, "Transport security"): one platform started the way `make run` starts
it (secure: mTLS between services, TLS on the gateway and on NATS, one NATS user per service).

A bots-only match through the gateway over TLS crosses every internal hop (gateway -> rules, rules -> persistence,
the match log on NATS, the ai's consumers, ai -> gateway and persistence, persistence's projection) with no
permission refused. Then the refusals: plaintext clients, a certificate of another CA, a platform certificate of
the wrong service (PERMISSION_DENIED from the allowed-callers table), and NATS users on another service's subjects.
"""

from __future__ import annotations

import asyncio
import os
import ssl
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import nats
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from nats.errors import TimeoutError as NatsTimeout

from gamehall.cli import play_cmd
from gamehall.internal.v1 import persistence_pb2, persistence_pb2_grpc, rules_pb2, rules_pb2_grpc
from gamehall.launcher.platform import Platform
from gamehall.launcher.security import LAUNCHER_IDENTITY
from gamehall.runtime.pki import EmbeddedCA
from gamehall_sdk.v1 import (
    auth_pb2,
    auth_pb2_grpc,
    catalog_pb2,
    catalog_pb2_grpc,
    match_pb2,
    match_pb2_grpc,
    matchmaking_pb2,
    matchmaking_pb2_grpc,
)
from tests.support.processes import repo_env

pytestmark = pytest.mark.integration
FINISHED = match_pb2.MATCH_STATUS_FINISHED


@pytest.fixture(scope="module")
def secure(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    saved = dict(os.environ)
    os.environ.update(repo_env())
    platform = Platform(data_dir=tmp_path_factory.mktemp("tls"), games=["high-card"], fixed_ports=False, secure=True)
    try:
        platform.start()
        yield platform
    finally:
        platform.stop()
        os.environ.clear()
        os.environ.update(saved)


def _as(platform: Platform, identity: str) -> grpc.ChannelCredentials:
    """mTLS credentials of a platform certificate issued to `identity` by the platform's CA."""
    assert platform.security is not None
    return platform.security.client_credentials(platform.security.ca.issue(identity))


def _player(channel: grpc.Channel) -> tuple[match_pb2_grpc.MatchServiceStub, tuple[tuple[str, str], ...]]:
    auth = auth_pb2_grpc.AuthServiceStub(channel)
    name = f"tls-{time.monotonic_ns() % 10**9}"
    reply = auth.Register(auth_pb2.RegisterRequest(username=name, password="a long passphrase 42"), timeout=30)
    return match_pb2_grpc.MatchServiceStub(channel), (("authorization", f"Bearer {reply.token}"),)


def test_a_bot_match_plays_to_the_end_over_tls_with_no_permission_refused(secure: Platform) -> None:
    with secure.channel("gateway") as channel:
        matches, metadata = _player(channel)
        seats = [match_pb2.SeatSpec(bot="easy"), match_pb2.SeatSpec(bot="easy")]
        request = match_pb2.CreateMatchRequest(game="high-card", seats=seats, public=True)
        match = matches.CreateMatch(request, metadata=metadata, timeout=30).match
        deadline = time.monotonic() + 60
        while match.status != FINISHED:
            assert time.monotonic() < deadline, f"the bots' match stopped at version {match.version}"
            time.sleep(0.2)
            match = matches.GetMatch(match_pb2.GetMatchRequest(match_id=match.id), metadata=metadata).match
        assert len(match.outcome.ranks) == 2
        tickets = matchmaking_pb2_grpc.MatchmakingServiceStub(channel)  # gateway -> matchmaking over mTLS
        listed = tickets.GetLeaderboard(
            matchmaking_pb2.GetLeaderboardRequest(game="high-card"), metadata=metadata, timeout=30
        )
        assert listed is not None
    assert "Permissions Violation" not in (secure.data_dir / "logs" / "nats-server.log").read_text()
    assert secure.dead() == []


def test_plaintext_clients_are_refused(secure: Platform) -> None:
    for name in ("gateway", "persistence", "rules-high-card"):
        with grpc.insecure_channel(secure.service(name).address) as channel:
            with pytest.raises(grpc.RpcError) as refused:
                catalog_pb2_grpc.CatalogServiceStub(channel).ListGames(catalog_pb2.ListGamesRequest(), timeout=5)
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE, name


def test_internal_servers_refuse_callers_without_a_platform_certificate(secure: Platform, tmp_path: Path) -> None:
    assert secure.security is not None
    public_ca = secure.security.public.cert.read_bytes()  # type: ignore[union-attr]
    stranger_ca = EmbeddedCA(tmp_path / "stranger")
    stranger_ca.ensure()
    stranger = stranger_ca.issue("gateway")  # the right name from the wrong CA
    without_cert = grpc.ssl_channel_credentials(secure.security.ca.pair.cert.read_bytes())
    foreign = grpc.ssl_channel_credentials(
        secure.security.ca.pair.cert.read_bytes(),
        private_key=stranger.key.read_bytes(),
        certificate_chain=stranger.cert.read_bytes(),
    )
    address = secure.service("persistence").address
    for credentials in (without_cert, foreign, grpc.ssl_channel_credentials(public_ca)):
        with grpc.secure_channel(address, credentials) as channel:
            with pytest.raises(grpc.RpcError) as refused:
                persistence_pb2_grpc.PersistenceServiceStub(channel).GetAccount(
                    persistence_pb2.GetAccountRequest(username="operator"), timeout=5
                )
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE


@pytest.mark.parametrize(
    ("identity", "service", "allowed"),
    [
        ("gateway", "rules-high-card", True),  # the catalog: RulesService/DescribeGame
        ("matchmaking", "rules-high-card", False),  # it opens matches, it does not describe games
        ("ai", "rules-high-card", False),  # the ai plays moves, never describes games
        ("persistence", "rules-high-card", False),
        ("rules-high-card", "persistence", True),
        ("ai", "persistence", True),
        (LAUNCHER_IDENTITY, "persistence", False),  # the launcher's certificate is for health checks only
    ],
)
def test_callers_are_checked_against_the_table(secure: Platform, identity: str, service: str, allowed: bool) -> None:
    with grpc.secure_channel(secure.service(service).address, _as(secure, identity)) as channel:
        try:
            if service.startswith("rules-"):
                rules_pb2_grpc.RulesServiceStub(channel).DescribeGame(rules_pb2.DescribeGameRequest(), timeout=10)
            else:
                persistence_pb2_grpc.PersistenceServiceStub(channel).GetAccount(
                    persistence_pb2.GetAccountRequest(username="nobody-here"), timeout=10
                )
            code = grpc.StatusCode.OK
        except grpc.RpcError as exc:
            code = exc.code()
        health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
        assert health.status == health_pb2.HealthCheckResponse.SERVING  # open to every platform certificate
    if allowed:
        assert code in (grpc.StatusCode.OK, grpc.StatusCode.NOT_FOUND), code
    else:
        assert code == grpc.StatusCode.PERMISSION_DENIED


async def _nats_as(platform: Platform, user: str, errors: list[str], password: str | None = None) -> nats.NATS:
    assert platform.security is not None

    async def on_error(exc: Exception) -> None:
        errors.append(str(exc))

    transport = {
        "tls": ssl.create_default_context(cafile=str(platform.security.ca.pair.cert)),
        "user": user,
        "password": password or platform.security.nats_logins[user],
        "inbox_prefix": f"_INBOX.{user}",
    }
    return await nats.connect(platform.nats_url, error_cb=on_error, allow_reconnect=False, **transport)


def test_nats_users_publish_and_subscribe_only_on_their_own_subjects(secure: Platform) -> None:
    async def scenario() -> None:
        errors: list[str] = []
        rules = await _nats_as(secure, "rules-high-card", errors)
        gateway = await _nats_as(secure, "gateway", errors)
        try:
            # Allowed: the owner of a match pushes a view; the gateway receives it.
            received = await gateway.subscribe("gamehall.v1.view.m1.seat-0")
            await gateway.flush()
            await rules.publish("gamehall.v1.view.m1.seat-0", b"view")
            assert (await received.next_msg(timeout=5)).data == b"view"
            assert errors == []
            # Refused: a rules host writing another service's events, or another game's log.
            js = rules.jetstream()
            for subject in ("gamehall.v1.match.m1.finished", "gamehall.v1.log.grimmoir.m1.move"):
                with pytest.raises(NatsTimeout):
                    await js.publish(subject, b"forged", timeout=0.5)
            # Refused: the gateway publishing a view (only rules hosts do) or reading the match log.
            await gateway.publish("gamehall.v1.view.m1.seat-0", b"forged")
            with pytest.raises(NatsTimeout):
                await gateway.jetstream(timeout=0.5).get_last_msg("GAMEHALL_MATCHLOG", "gamehall.v1.log.>", direct=True)
            await gateway.flush()
            await asyncio.sleep(0.2)
            violations = [e for e in errors if "permissions violation" in e.lower()]
            assert len(violations) >= 4, errors
        finally:
            await rules.close()
            await gateway.close()

    asyncio.run(scenario())


def test_nats_refuses_a_wrong_password_and_plaintext(secure: Platform) -> None:
    async def scenario() -> None:
        with pytest.raises(Exception, match=r"(?i)authorization"):
            await _nats_as(secure, "persistence", [], password="not-the-password")
        plaintext = secure.nats_url.replace("tls://", "nats://")
        with pytest.raises(Exception):  # noqa: B017 - nats-py raises its own or a TLS-required error
            await nats.connect(plaintext, allow_reconnect=False, connect_timeout=2, max_reconnect_attempts=0)

    asyncio.run(scenario())


def test_gamehall_play_connects_with_the_printed_certificate(secure: Platform) -> None:
    """`gamehall play --gateway ... --ca-file <data dir>/tls/gateway-public.crt` against a TLS gateway."""
    assert secure.security is not None and secure.security.public is not None
    address, certificate = secure.service("gateway").address, secure.security.public.cert

    async def scenario() -> None:
        hall = await play_cmd.connect(address, 10.0, certificate)
        try:
            await hall.register(f"tls-play-{time.monotonic_ns() % 10**9}", "a long passphrase 42")
            assert hall.account is not None
        finally:
            await hall.close()
        with pytest.raises(play_cmd.PlayError, match="cannot reach"):
            await play_cmd.connect(address, 1.0)  # plaintext to a TLS port never gets ready

    asyncio.run(scenario())


def test_a_service_on_a_public_address_without_certificates_refuses_to_start(tmp_path: Path) -> None:
    """Like the signing key check: one clear line and exit status 2, before anything listens."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("GAMEHALL_")}
    env.update(repo_env(), GAMEHALL_HOST="0.0.0.0", GAMEHALL_DATA_DIR=str(tmp_path), GAMEHALL_SERVICE="rules-high-card")
    done = subprocess.run(
        [sys.executable, "-m", "gamehall_services.rules", "--game", "high-card"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "refusing to start" in done.stderr and "GAMEHALL_TLS_CERT_FILE" in done.stderr
    assert "GAMEHALL_ALLOW_PLAINTEXT" in done.stderr and "Traceback" not in done.stderr
