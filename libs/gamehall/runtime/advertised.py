"""The address a replica announces to its peers: the one the gateways route to it by."""

from __future__ import annotations

import socket

import structlog

from gamehall.runtime.settings import Settings

log = structlog.get_logger("gamehall.runtime.advertised")


def advertised(settings: Settings, port: int) -> str:
    """The address the gateways reach this replica at: the advertised one, else the gRPC server's own."""
    if settings.advertise_addr:
        return settings.advertise_addr
    if settings.host in ("0.0.0.0", "::", ""):  # still correct (the log's compare-and-swap), only colder caches
        name = socket.gethostname()
        log.warning("GAMEHALL_ADVERTISE_ADDR unset: clock ownership may differ from the gateways' routing", using=name)
        return f"{name}:{port}"
    return f"[{settings.host}]:{port}" if ":" in settings.host else f"{settings.host}:{port}"


__all__ = ["advertised"]
