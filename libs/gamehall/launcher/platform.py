"""The whole platform on one machine: nats-server plus every service, as child processes.

`SERVICES` declares each service once (its module, what it needs); `Platform` starts the
ones whose module exists (later services plug in by adding a line), a rules host per
registered game, and waits for each to answer gRPC health. `STARTS_FIRST` is ready before
the rest start, as many at once as there are cores (no service needs another at start but
persistence and NATS); it stops them in reverse: the rest side by side, then persistence,
then NATS. Used by `gamehall run` and by the integration tests alike. `secure=True` (gamehall run)
adds transport security (gamehall.launcher.security): mTLS between services, TLS on the gateway
and NATS, one NATS user per service.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import signal
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gamehall.engine import all_games
from gamehall.launcher.nats import nats_child
from gamehall.launcher.nats_cluster import NatsCluster
from gamehall.launcher.ports import free_port
from gamehall.launcher.processes import Child, LaunchError, python_module
from gamehall.launcher.security import PlatformSecurity
from gamehall.runtime.settings import DEFAULT_HTTP_PORTS, DEFAULT_PORTS


@dataclass(frozen=True)
class ServiceDef:
    name: str
    module: str
    args: tuple[str, ...] = ()
    game: str | None = None
    http: bool = False
    """Also serves HTTP (the web pages) on a port of its own."""

    def exists(self) -> bool:
        try:
            return importlib.util.find_spec(self.module) is not None
        except ModuleNotFoundError:
            return False


STARTS_FIRST = frozenset({"persistence"})
"""Services the others call while starting (accounts, stores): ready before the rest start. Everything else
needs only NATS and these at start, and reaches its peers lazily, so it starts side by side."""
# A service whose module does not exist yet is skipped.
CORE_SERVICES: tuple[ServiceDef, ...] = (
    ServiceDef("persistence", "gamehall_services.persistence"),
    ServiceDef("matchmaking", "gamehall_services.matchmaking"),
    ServiceDef("gateway", "gamehall_services.gateway"),
    ServiceDef("ai", "gamehall_services.ai"),
    ServiceDef("web", "gamehall_services.web", http=True),
)


def rules_services(game_ids: Iterable[str], replicas: int = 1) -> list[ServiceDef]:
    """One rules host per game, or `replicas` of each (`rules-<game>`, `rules-<game>-2`, ...)."""
    return [
        ServiceDef(f"rules-{g}" + (f"-{n}" if n > 1 else ""), "gamehall_services.rules", ("--game", g), game=g)
        for g in game_ids
        for n in range(1, replicas + 1)
    ]


def grpc_healthy(address: str, timeout: float = 0.5, credentials: grpc.ChannelCredentials | None = None) -> bool:
    """True when the gRPC health service at `address` answers SERVING (over TLS with `credentials`)."""
    try:
        with _channel(address, credentials) as channel:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=timeout)
            return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)
    except grpc.RpcError:
        return False


def _channel(address: str, credentials: grpc.ChannelCredentials | None) -> grpc.Channel:
    if credentials is None:
        return grpc.insecure_channel(address)
    return grpc.secure_channel(address, credentials)


@dataclass
class RunningService:
    definition: ServiceDef
    child: Child
    grpc_port: int
    metrics_port: int
    http_port: int = 0
    https: bool = False
    """Its HTTP port serves TLS (the web service on a secure platform)."""

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.grpc_port}"

    @property
    def url(self) -> str:
        """The HTTP address of a service that serves HTTP (the web pages), else ''."""
        scheme = "https" if self.https else "http"
        return f"{scheme}://127.0.0.1:{self.http_port}/" if self.http_port else ""


@dataclass
class Platform:
    """Configure, start and stop the embedded platform."""

    data_dir: Path
    games: list[str] | None = None
    """Game ids to host (default: every registered game)."""
    fixed_ports: bool = True
    """Use the documented default ports (make run) or free ones (tests)."""
    extra_env: dict[str, str] = field(default_factory=dict)
    log_format: str = "json"
    rules_replicas: int = 1
    """Replicas of each game's rules service (live matches are spread over them by the gateway)."""
    secure: bool = False
    """Transport security on (mTLS, public TLS, NATS TLS and users); `security` then holds the material."""
    nats_nodes: int = 1
    """nats-server processes: 1 (embedded) or a JetStream cluster of N (`cluster`), streams with min(N, 3)
    replicas and every service given every node's URL."""
    nats: Child | None = None
    cluster: NatsCluster | None = None
    nats_url: str = ""
    services: list[RunningService] = field(default_factory=list)
    security: PlatformSecurity | None = field(default=None, repr=False)

    def hosted_games(self) -> list[str]:
        return self.games if self.games is not None else [g.id for g in all_games()]

    def definitions(self) -> list[ServiceDef]:
        return [d for d in CORE_SERVICES if d.exists()] + rules_services(self.hosted_games(), self.rules_replicas)

    def credentials(self, name: str) -> grpc.ChannelCredentials | None:
        """How a tool reaches service `name` here: None (plaintext) or the secure platform's credentials."""
        return self.security.credentials(name) if self.security is not None else None

    def channel(self, name: str) -> grpc.Channel:
        """A (blocking) channel to service `name`, with the launcher's certificate on a secure platform."""
        return _channel(self.service(name).address, self.credentials(name))

    def _ports(self, name: str) -> tuple[int, int]:
        if self.fixed_ports and name in DEFAULT_PORTS:
            return DEFAULT_PORTS[name]
        return free_port(), free_port()

    def _http_port(self, d: ServiceDef) -> int:
        if not d.http:
            return 0
        return DEFAULT_HTTP_PORTS[d.name] if self.fixed_ports and d.name in DEFAULT_HTTP_PORTS else free_port()

    @property
    def web_url(self) -> str:
        """Where the web pages are served ('' when the web service is not running)."""
        return next((s.url for s in self.services if s.definition.name == "web"), "")

    def start(self, ready_timeout: float = 60.0) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        logs = self.data_dir / "logs"
        logs.mkdir(exist_ok=True)
        try:
            defs = self.definitions()
            nats_config = ""
            if self.secure:
                self.security = PlatformSecurity(self.data_dir / "tls")
                self.security.prepare(d.name for d in defs)
                # The ai consumes the turns of every registered game, not only the hosted ones.
                nats_config = self.security.nats_config({*self.hosted_games(), *(g.id for g in all_games())})
            if self.nats_nodes > 1:
                if self.secure:
                    raise ValueError("a NATS cluster (nats_nodes > 1) is not wired for transport security yet")
                self.cluster = NatsCluster(self.data_dir, self.nats_nodes, logs=logs)
                self.cluster.start(ready_timeout)
                self.nats_url = self.cluster.url
            else:
                nats_port = 4222 if self.fixed_ports else free_port()
                self.nats, self.nats_url = nats_child(
                    self.data_dir,
                    nats_port,
                    log_path=logs / "nats-server.log",
                    security=nats_config,
                    ca_file=self.security.ca.pair.cert if self.security else None,
                )
                self.nats.start()
                self.nats.wait_ready(ready_timeout)
                if self.security is not None:
                    self.security.tools_login(self.nats_url)
            ports = {d.name: self._ports(d.name) for d in defs}
            shared = self._shared_env(defs, ports)
            first = [d for d in defs if d.name in STARTS_FIRST]
            rest = [d for d in defs if d.name not in STARTS_FIRST]
            side_by_side = max(1, os.cpu_count() or 1)  # more at once only slows each one's imports down
            for wave in (first, *(rest[k : k + side_by_side] for k in range(0, len(rest), side_by_side))):
                started = [self._start_service(d, ports[d.name], shared) for d in wave]
                for service in started:
                    service.child.wait_ready(ready_timeout)
        except BaseException:
            self.stop()
            raise

    def _start_service(self, d: ServiceDef, ports: tuple[int, int], shared: dict[str, str]) -> RunningService:
        """Spawn one service (not waiting for it) and add it to `services`."""
        grpc_port, metrics_port = ports
        http_port = self._http_port(d)
        env = {
            **shared,
            "GAMEHALL_SERVICE": d.name,
            "GAMEHALL_GRPC_PORT": str(grpc_port),
            "GAMEHALL_METRICS_PORT": str(metrics_port),
            **({"GAMEHALL_GAME": d.game} if d.game else {}),
            **(self.security.service_env(d.name) if self.security else {}),
            **({"GAMEHALL_HTTP_PORT": str(http_port)} if http_port else {}),
        }
        address = f"127.0.0.1:{grpc_port}"
        child = Child(
            d.name,
            python_module(d.module, *d.args),
            env=env,
            ready=functools.partial(grpc_healthy, address, credentials=self.credentials(d.name)),
            log_path=self.data_dir / "logs" / f"{d.name}.log",
        )
        child.start()
        https = bool(http_port) and "GAMEHALL_WEB_TLS_CERT_FILE" in env
        service = RunningService(d, child, grpc_port, metrics_port, http_port, https)
        self.services.append(service)
        return service

    def _shared_env(self, defs: list[ServiceDef], ports: dict[str, tuple[int, int]]) -> dict[str, str]:
        def addr(name: str) -> str:
            return f"127.0.0.1:{ports[name][0]}" if name in ports else ""

        rules: dict[str, str] = {}
        for d in defs:
            if d.game:
                rules[d.game] = ",".join(filter(None, [rules.get(d.game, ""), addr(d.name)]))
        env = {
            "GAMEHALL_NATS_URL": self.nats_url,
            "GAMEHALL_DATA_DIR": str(self.data_dir.resolve()),
            "GAMEHALL_LOG_FORMAT": self.log_format,
            "GAMEHALL_RULES_ADDRS": json.dumps(rules),
            "GAMEHALL_PERSISTENCE_ADDR": addr("persistence"),
            "GAMEHALL_MATCHMAKING_ADDR": addr("matchmaking"),
            "GAMEHALL_GATEWAY_ADDR": addr("gateway"),
            "PYTHONUNBUFFERED": "1",
        }
        if self.cluster is not None:
            env["GAMEHALL_JETSTREAM_REPLICAS"] = str(min(3, self.nats_nodes))
        if os.environ.get("GAMEHALL_GAME_MODULES"):
            env["GAMEHALL_GAME_MODULES"] = os.environ["GAMEHALL_GAME_MODULES"]
        return {**env, **self.extra_env}

    def service(self, name: str) -> RunningService:
        for s in self.services:
            if s.definition.name == name:
                return s
        raise KeyError(name)

    def restart(self, name: str, *, kill: bool = True, ready_timeout: float = 60.0) -> None:
        """Stop a service (SIGKILL when `kill`: a crash) and start it again with the same settings."""
        service = self.service(name)
        service.child = _respawn(service.child, kill, ready_timeout)

    def restart_nats(self, *, kill: bool = True, ready_timeout: float = 60.0, node: int = 1) -> None:
        """Stop nats-server (SIGKILL when `kill`) and start it again on the same port and store; on a
        cluster, node `node` (1-based) only, returning once it is healthy again."""
        if self.cluster is not None:
            self.cluster.restart(node, kill=kill, ready_timeout=ready_timeout)
            return
        if self.nats is None:
            raise KeyError("nats-server")
        self.nats = _respawn(self.nats, kill, ready_timeout)

    def dead(self) -> list[str]:
        """Names of children that exited on their own."""
        children = [(s.definition.name, s.child) for s in self.services]
        if self.nats is not None:
            children.append(("nats-server", self.nats))
        if self.cluster is not None:
            children += [(n.child.name, n.child) for n in self.cluster.nodes]
        return [name for name, c in children if not c.alive()]

    def stop(self, grace: float = 10.0) -> dict[str, int | None]:
        """Stop the services side by side, then `STARTS_FIRST`, then nats-server; returns exit codes."""
        codes: dict[str, int | None] = {}
        last = [s for s in self.services if s.definition.name not in STARTS_FIRST]
        first = [s for s in self.services if s.definition.name in STARTS_FIRST]
        for wave in (last, first):
            if wave:
                with ThreadPoolExecutor(max_workers=len(wave)) as pool:
                    stopped = list(pool.map(lambda s: s.child.stop(grace), wave))
                codes.update((s.definition.name, code) for s, code in zip(wave, stopped, strict=True))
        self.services.clear()
        if self.nats is not None:
            codes["nats-server"] = self.nats.stop(grace)
            self.nats = None
        if self.cluster is not None:
            codes.update(self.cluster.stop(grace))
            self.cluster = None
        return codes



def _respawn(old: Child, kill: bool, ready_timeout: float) -> Child:
    """Stop a child (SIGKILL when `kill`) and start a fresh one with the same command and settings."""
    if kill:
        old.signal(signal.SIGKILL)
        if old.proc is not None:
            old.proc.wait(10)
    else:
        old.stop()
    fresh = Child(old.name, old.argv, env=old.env, ready=old.ready, log_path=old.log_path)
    fresh.start()
    try:
        fresh.wait_ready(ready_timeout)
    except BaseException:
        fresh.stop(grace=2.0)  # never leave a half-started copy behind a failed restart
        raise
    return fresh


__all__ = ["CORE_SERVICES", "LaunchError", "Platform", "RunningService", "ServiceDef", "grpc_healthy"]
