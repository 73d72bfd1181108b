"""The options every command that talks to the public gateway shares (`play`, `audit`): where it is, and how
to trust its TLS certificate, with one line that explains a TLS mismatch when the connection fails.

`make run` serves TLS with a self-signed certificate in `<data dir>/tls/gateway-public.crt`; `--ca-file`
trusts that file (or any CA), `--system-trust` the system's store, neither means plaintext
(`gamehall run --no-tls`). A gateway that speaks TLS closes a plaintext connection ("Socket closed") and a
plaintext one fails the TLS handshake: both only look like "cannot reach", so `tls_hint` says which it
likely is.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import grpc
import typer

from gamehall_sdk.client import Gamehall

DEFAULT_GATEWAY = "127.0.0.1:50051"
RUN_CERTIFICATE = Path("tls") / "gateway-public.crt"
"""Where `gamehall run` keeps the gateway's public certificate, under its data dir."""

Gateway = Annotated[str, typer.Option("--gateway", help="The public gateway, host:port.")]
CaFile = Annotated[
    Path | None,
    typer.Option(
        "--ca-file",
        help="TLS: trust this certificate for the gateway (`make run`: var/tls/gateway-public.crt).",
    ),
]
SystemTrust = Annotated[
    bool, typer.Option("--system-trust", help="TLS: trust the system's certificate store (a public certificate).")
]


class GatewayUnreachable(Exception):
    """The gateway's channel never became ready; the message says where, how long, and the likely TLS cause."""


def credentials(ca_file: Path | None, system_trust: bool) -> grpc.ChannelCredentials | None:
    """TLS credentials for the options given, or None for plaintext."""
    if ca_file is not None:
        try:
            return grpc.ssl_channel_credentials(ca_file.read_bytes())
        except OSError as exc:
            raise GatewayUnreachable(f"cannot read --ca-file {ca_file}: {exc.strerror or exc}") from exc
    if system_trust:
        return grpc.ssl_channel_credentials()
    return None


def tls_hint(ca_file: Path | None, system_trust: bool) -> str:
    """One line on the likely TLS mismatch behind a connection that never became ready."""
    if ca_file is None and not system_trust:
        return (
            "connected without TLS: if the gateway serves TLS (as `make run` does), "
            "pass --ca-file var/tls/gateway-public.crt (the certificate `gamehall run` prints)"
        )
    trusted = f"--ca-file {ca_file}" if ca_file is not None else "the system's store"
    return (
        f"connected with TLS trusting {trusted}: check that this is the gateway's certificate (or its CA), "
        "or drop the TLS option if the gateway is plaintext (`gamehall run --no-tls`)"
    )


async def connect(
    target: str, *, ca_file: Path | None = None, system_trust: bool = False, wait: float = 5.0
) -> Gamehall:
    """An SDK session on the gateway at `target`, once its channel is ready (else GatewayUnreachable)."""
    hall = Gamehall.connect(target, credentials=credentials(ca_file, system_trust))
    try:
        await asyncio.wait_for(hall.channel.channel_ready(), wait)
    except TimeoutError as exc:
        await hall.close()
        raise GatewayUnreachable(
            f"cannot reach the gateway at {target} (waited {wait:g} s); {tls_hint(ca_file, system_trust)}"
        ) from exc
    return hall


def run_certificate(data_dir: Path) -> Path | None:
    """`gamehall run`'s gateway certificate under `data_dir`, when there is one."""
    path = data_dir / RUN_CERTIFICATE
    return path if path.is_file() else None
