"""A JetStream cluster of N nats-server processes on one machine (routes on loopback), each killable.

Each node has its own config, JetStream store (`<data_dir>/nats-<i>/jetstream`), client, route and
monitoring ports, and a server name; a killed node restarts on the same ports and store and catches up
from its peers. Ready means every node's `/healthz` answers ok (its JetStream is current), not merely
that the port is open: a cluster without a meta leader refuses stream creation.
"""

from __future__ import annotations

import json
import signal
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gamehall.launcher.nats import SYNC_INTERVAL, nats_server_binary
from gamehall.launcher.ports import free_port
from gamehall.launcher.processes import Child

CLUSTER_NAME = "gamehall"


def healthz(monitor_port: int, host: str = "127.0.0.1") -> Callable[[], bool]:
    """True when nats-server's monitoring endpoint says the node (and its JetStream) is healthy."""

    def check() -> bool:
        try:
            with urllib.request.urlopen(f"http://{host}:{monitor_port}/healthz", timeout=0.5) as reply:
                return bool(json.loads(reply.read()).get("status") == "ok")
        except (OSError, urllib.error.URLError, ValueError):
            return False

    return check


@dataclass
class NatsNode:
    index: int
    name: str
    client_port: int
    route_port: int
    monitor_port: int
    child: Child

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.client_port}"


@dataclass
class NatsCluster:
    """`size` clustered nats-servers with JetStream; `url` lists every node (clients fail over)."""

    data_dir: Path
    size: int = 3
    host: str = "127.0.0.1"
    sync_interval: str = SYNC_INTERVAL
    logs: Path | None = None
    nodes: list[NatsNode] = field(default_factory=list)

    @property
    def url(self) -> str:
        return ",".join(n.url for n in self.nodes)

    def prepare(self) -> None:
        """Pick ports and write every node's config (routes name all nodes; a node ignores its own)."""
        if self.size < 1:
            raise ValueError("a cluster needs at least one node")
        ports = [(free_port(self.host), free_port(self.host), free_port(self.host)) for _ in range(self.size)]
        routes = ", ".join(f'"nats-route://{self.host}:{route}"' for _, route, _ in ports)
        for i, (client, route, monitor) in enumerate(ports, start=1):
            home = self.data_dir / f"nats-{i}"
            (home / "jetstream").mkdir(parents=True, exist_ok=True)
            name = f"gamehall-n{i}"
            config = home / "nats-server.conf"
            config.write_text(
                f'server_name: "{name}"\nlisten: "{self.host}:{client}"\nhttp: "{self.host}:{monitor}"\n'
                f'jetstream {{\n  store_dir: "{home / "jetstream"}"\n  sync_interval: "{self.sync_interval}"\n}}\n'
                f'cluster {{\n  name: "{CLUSTER_NAME}"\n  listen: "{self.host}:{route}"\n  routes: [{routes}]\n}}\n'
            )
            log = self.logs / f"nats-server-{i}.log" if self.logs else None
            child = Child(f"nats-server-{i}", [nats_server_binary(), "--config", str(config)], log_path=log)
            child.ready = healthz(monitor, self.host)
            self.nodes.append(NatsNode(i, name, client, route, monitor, child))

    def start(self, ready_timeout: float = 60.0) -> None:
        """Start every node, then wait until each is healthy (the nodes need each other to elect leaders)."""
        if not self.nodes:
            self.prepare()
        try:
            for node in self.nodes:
                node.child.start()
            for node in self.nodes:
                node.child.wait_ready(ready_timeout)
        except BaseException:
            self.stop()  # no node outlives a failed start
            raise

    def node(self, index: int) -> NatsNode:
        return self.nodes[index - 1]

    def kill(self, index: int) -> None:
        """SIGKILL node `index` (1-based): a crash, its store left as it was."""
        node = self.node(index)
        node.child.signal(signal.SIGKILL)
        if node.child.proc is not None:
            node.child.proc.wait(10)

    def start_node(self, index: int, ready_timeout: float = 60.0) -> None:
        """Start node `index` again on its ports and store; returns once it is healthy (caught up)."""
        node = self.node(index)
        old = node.child
        node.child = Child(old.name, old.argv, env=old.env, ready=old.ready, log_path=old.log_path)
        node.child.start()
        node.child.wait_ready(ready_timeout)

    def restart(self, index: int, *, kill: bool = True, ready_timeout: float = 60.0) -> None:
        if kill:
            self.kill(index)
        else:
            self.node(index).child.stop()
        self.start_node(index, ready_timeout)

    def leader_of(self, stream: str) -> int | None:
        """The index of the node leading `stream` (from any live node's monitoring), None if unknown."""
        names = {n.name: n.index for n in self.nodes}
        for node in self.nodes:
            if not node.child.alive():
                continue
            url = f"http://{self.host}:{node.monitor_port}/jsz?streams=true&raft=true"
            try:
                with urllib.request.urlopen(url, timeout=2) as reply:
                    info = json.loads(reply.read())
            except (OSError, urllib.error.URLError, ValueError):
                continue
            for account in info.get("account_details") or []:
                for s in account.get("stream_detail") or []:
                    if s.get("name") == stream and (leader := (s.get("cluster") or {}).get("leader")):
                        return names.get(leader)
        return None

    def dead(self) -> list[str]:
        return [n.child.name for n in self.nodes if not n.child.alive()]

    def stop(self, grace: float = 10.0) -> dict[str, int | None]:
        return {n.child.name: n.child.stop(grace) for n in reversed(self.nodes)}
