"""A gamehall stack for integration tests of third-party code (bots, clients, tools): `running_stack()`.

Where a Docker engine answers, the stack is the platform's container images (testcontainers: NATS with
JetStream, then persistence, matchmaking, the rules of each game, the ai and the gateway on one network);
otherwise the same services run as local processes through the server package's launcher (nats-server from
its wheel, SQLite), the way `gamehall run --no-tls --free-ports` runs them. The gateway is plaintext on
loopback (or the container's mapped port); an operator account exists with a password made for the run.

`GAMEHALL_TEST_BACKEND=local|docker` forces a backend; `GAMEHALL_IMAGE` names the image (default
`gamehall:dev`, built from a checkout with `docker build -f deploy/Dockerfile -t gamehall:dev .`).
The pytest fixtures over it are in `gamehall_sdk.pytest_plugin` (installed with `gamehall-sdk[testing]`).
Only the SDK's own dependencies are imported here until a stack is started.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import socket
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from gamehall_sdk.client import Gamehall

Backend = Literal["docker", "local"]
DEFAULT_GAMES = ("grimmoir",)
DEFAULT_IMAGE = "gamehall:dev"
OPERATOR = "operator"
PASSWORD = "gamehall test passphrase 42"
READY_SECONDS = 120.0

INSTALL_HINT = (
    "a gamehall stack for tests needs either a Docker engine (for the platform's container images: "
    "`pip install 'gamehall-sdk[testing]'` and an image, see GAMEHALL_IMAGE) or the gamehall server package "
    "for local processes: `pip install /path/to/a/gamehall/checkout` (the repository's root, which holds the "
    "`gamehall` distribution; it brings nats-server)"
)


class StackUnavailable(RuntimeError):
    """No backend can start here; the message says exactly what to install."""


@dataclass(frozen=True)
class Account:
    """A signed-up account of the stack: its name, password, token and id."""

    username: str
    password: str
    token: str
    account_id: str


@dataclass
class Stack:
    """A running gamehall: the public gateway's address (plaintext) and the operator's password."""

    backend: Backend
    address: str
    games: tuple[str, ...]
    operator_password: str
    services: dict[str, str] = field(default_factory=dict)

    def connect(self, token: str = "") -> Gamehall:
        """An SDK session on the gateway (signed in when given a token): `async with stack.connect() as hall:`.
        Opened inside the event loop that uses it."""
        hall = Gamehall.connect(self.address)
        hall.token = token
        return hall

    def sign_up(self, prefix: str = "player") -> Account:
        """A new player account (blocking; from a synchronous fixture or test)."""
        username = f"{prefix}-{uuid.uuid4().hex[:12]}"
        return asyncio.run(self._signed(username, PASSWORD, register=True))

    def operator(self) -> Account:
        """The stack's operator, signed in."""
        return asyncio.run(self._signed(OPERATOR, self.operator_password, register=False))

    async def _signed(self, username: str, password: str, *, register: bool) -> Account:
        async with self.connect() as hall:
            account = await (hall.register(username, password) if register else hall.login(username, password))
            return Account(username, password, hall.token, account.id)


def docker_available() -> bool:
    """True when a Docker engine answers a ping (GAMEHALL_TEST_BACKEND=local: never)."""
    wanted = os.environ.get("GAMEHALL_TEST_BACKEND", "")
    if wanted == "local":
        return False
    try:
        import docker

        docker.from_env(timeout=3).ping()
        return True
    except Exception as exc:
        if wanted == "docker":
            missing = "GAMEHALL_TEST_BACKEND=docker, but no Docker engine answers"
            raise StackUnavailable(f"{missing}; {INSTALL_HINT}") from exc
        return False


@contextlib.contextmanager
def running_stack(games: tuple[str, ...] = DEFAULT_GAMES, data_dir: Path | None = None) -> Iterator[Stack]:
    """A gamehall hosting `games`, for the `with` block: containers where Docker answers, else local processes."""
    operator_password = secrets.token_urlsafe(18)
    if docker_available():
        with _docker_stack(games, operator_password) as stack:
            yield stack
        return
    with contextlib.ExitStack() as cleanup:
        if data_dir is None:
            data_dir = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="gamehall-stack-")))
        yield cleanup.enter_context(_local_stack(games, operator_password, data_dir))


@contextlib.contextmanager
def _local_stack(games: tuple[str, ...], operator_password: str, data_dir: Path) -> Iterator[Stack]:
    try:
        from gamehall.launcher.platform import Platform
    except ImportError as exc:
        missing = "no Docker engine answers, and the gamehall server package is missing"
        raise StackUnavailable(f"{missing}; {INSTALL_HINT}") from exc
    platform = Platform(
        data_dir=data_dir,
        games=list(games),
        fixed_ports=False,
        extra_env={"GAMEHALL_OPERATOR_PASSWORD": operator_password},
    )
    platform.start()
    try:
        services = {s.definition.name: s.address for s in platform.services}
        yield Stack("local", services["gateway"], games, operator_password, services)
    finally:
        platform.stop()


@contextlib.contextmanager
def _docker_stack(games: tuple[str, ...], operator_password: str) -> Iterator[Stack]:  # pragma: no cover - Docker
    """The container images on one network, as the repository's own e2e fixture starts them (tests/support)."""
    try:
        from testcontainers.core.container import DockerContainer
        from testcontainers.core.network import Network
    except ImportError as exc:
        missing = "testcontainers is missing: pip install 'gamehall-sdk[testing]'"
        raise StackUnavailable(f"{missing}; {INSTALL_HINT}") from exc
    image = os.environ.get("GAMEHALL_IMAGE", DEFAULT_IMAGE)
    env = {
        "GAMEHALL_NATS_URL": "nats://nats:4222",
        "GAMEHALL_DATABASE_URL": "sqlite:////var/lib/gamehall/gamehall.db",
        "GAMEHALL_GRPC_PORT": "50051",
        "GAMEHALL_METRICS_PORT": "9100",
        "GAMEHALL_PERSISTENCE_ADDR": "persistence:50051",
        "GAMEHALL_MATCHMAKING_ADDR": "matchmaking:50051",
        "GAMEHALL_GATEWAY_ADDR": "gateway:50051",
        "GAMEHALL_RULES_ADDRS": json.dumps({g: f"rules-{g}:50051" for g in games}),
        "GAMEHALL_OPERATOR_PASSWORD": operator_password,
        "GAMEHALL_TOKEN_KEY": secrets.token_urlsafe(48),
        "GAMEHALL_ALLOW_PLAINTEXT": "true",  # a private test network
    }
    commands = {f"rules-{g}": ["python", "-m", "gamehall_services.rules", "--game", g] for g in games}
    for name in ("persistence", "matchmaking", "ai", "gateway"):
        commands[name] = ["python", "-m", f"gamehall_services.{name}"]
    with contextlib.ExitStack() as stack, Network() as network:
        stack.enter_context(
            DockerContainer("nats:2.11-alpine")
            .with_command("-js -sd /data")
            .with_network(network)
            .with_network_aliases("nats")
        )
        addresses: dict[str, str] = {}
        for name, command in commands.items():
            container: Any = (
                DockerContainer(image)
                .with_command(command)
                .with_network(network)
                .with_network_aliases(name)
                .with_exposed_ports(50051)
            )
            for key, value in {**env, "GAMEHALL_SERVICE": name}.items():
                container = container.with_env(key, value)
            container = stack.enter_context(container)
            addresses[name] = f"{container.get_container_host_ip()}:{container.get_exposed_port(50051)}"
            _wait_listening(addresses[name])
        _wait_serving(addresses["gateway"])
        yield Stack("docker", addresses["gateway"], games, operator_password, addresses)


def _wait_listening(address: str, timeout: float = READY_SECONDS) -> None:  # pragma: no cover - Docker
    host, _, port = address.rpartition(":")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((host, int(port)), timeout=1):
            return
        time.sleep(0.2)
    raise StackUnavailable(f"{address} never accepted a connection within {timeout:g} s")


def _wait_serving(gateway: str, timeout: float = READY_SECONDS) -> None:  # pragma: no cover - Docker
    """Until the gateway answers a catalog call (every service behind it started)."""
    import grpc

    from gamehall_sdk.v1 import catalog_pb2, catalog_pb2_grpc

    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(gateway) as channel:
        stub = catalog_pb2_grpc.CatalogServiceStub(channel)
        while True:
            try:
                stub.ListGames(catalog_pb2.ListGamesRequest(), timeout=5)
                return
            except grpc.RpcError as exc:
                if exc.code() == grpc.StatusCode.UNAUTHENTICATED:  # answered: the gateway is up
                    return
                if time.monotonic() > deadline:
                    raise StackUnavailable(f"the gateway at {gateway} never answered: {exc.details()}") from exc
            time.sleep(0.5)


__all__ = [
    "DEFAULT_GAMES",
    "INSTALL_HINT",
    "Account",
    "Stack",
    "StackUnavailable",
    "docker_available",
    "running_stack",
]
