"""Secrets with no public default: the token signing key and the operator's bootstrap password.

A configured value (`GAMEHALL_TOKEN_KEY`, `GAMEHALL_OPERATOR_PASSWORD`) always wins. Without one, an
embedded process (environment `embedded`, listening on a loopback address only) reads the value from
`<data_dir>/secrets/<name>`, and the first process of the platform to need it creates it there with
random content and mode 0600, atomically, so every service of one data dir shares one value. Any
other start (a non-loopback address, or `GAMEHALL_ENVIRONMENT=production`) without a configured
key refuses to start and says what to set.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from gamehall.runtime.settings import Settings

TOKEN_KEY_FILE: Final = "token-key"
OPERATOR_PASSWORD_FILE: Final = "operator-password"
MIN_KEY_BYTES: Final = 32


class MissingSecret(RuntimeError):
    """A secret that must be configured for this kind of start; `str(exc)` says which and how."""


@dataclass(frozen=True)
class Secret:
    """A resolved secret and where it came from (for the operator's start-up message, never the logs)."""

    value: str
    source: str
    """`environment`, or the path of the file that holds it."""
    created: bool = False
    """True when this call generated it (the platform's first start)."""


def is_loopback(host: str) -> bool:
    """True when `host` only accepts connections from this machine (127.0.0.0/8, ::1, localhost)."""
    if host.casefold() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_embedded(settings: Settings) -> bool:
    """Embedded means: not declared production, and reachable from this machine only."""
    return settings.environment == "embedded" and is_loopback(settings.host)


def secrets_dir(settings: Settings) -> Path:
    return settings.data_dir / "secrets"


def read_or_create(directory: Path, name: str, generate: int = 48) -> Secret:
    """The content of `directory/name`, creating it with `generate` random bytes (url-safe) if absent.

    Creation writes a private temporary file and hard-links it into place, so two processes that
    start together both end up reading the one value that won, never a half-written file.
    """
    path = directory / name
    try:
        return Secret(_read(path), str(path))
    except FileNotFoundError:
        pass
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = directory / f".{name}.{os.getpid()}.{secrets.token_hex(6)}"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_urlsafe(generate) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, path)
            created = True
        except FileExistsError:
            created = False
    finally:
        temporary.unlink(missing_ok=True)
    return Secret(_read(path), str(path), created=created)


def _read(path: Path) -> str:
    value = path.read_text().strip()
    if not value:
        raise MissingSecret(f"{path} is empty; delete it to have a new value generated, or set the variable")
    return value


def token_key(settings: Settings) -> Secret:
    """The HS256 token signing key this process must use; raises MissingSecret where none may be invented."""
    configured = settings.token_key.get_secret_value()
    if configured:
        if len(configured.encode()) < MIN_KEY_BYTES:
            raise MissingSecret(
                f"GAMEHALL_TOKEN_KEY must be at least {MIN_KEY_BYTES} bytes; "
                "generate one with `python -c 'import secrets; print(secrets.token_urlsafe(48))'`"
            )
        return Secret(configured, "environment")
    if not is_embedded(settings):
        raise MissingSecret(
            f"GAMEHALL_TOKEN_KEY is not set. A service that listens on {settings.host!r} or runs with "
            f"GAMEHALL_ENVIRONMENT={settings.environment} needs a token signing key of at least {MIN_KEY_BYTES} "
            "bytes, shared by the gateway, matchmaking and ai (the Helm chart makes one; for compose, export it): "
            "`python -c 'import secrets; print(secrets.token_urlsafe(48))'`. Only an embedded start on a "
            "loopback address generates its own key (in <data dir>/secrets)."
        )
    return read_or_create(secrets_dir(settings), TOKEN_KEY_FILE)


def operator_password(settings: Settings) -> Secret | None:
    """The operator account's bootstrap password: configured, generated for an embedded start, else None."""
    configured = settings.operator_password.get_secret_value()
    if configured:
        return Secret(configured, "environment")
    if not is_embedded(settings):
        return None
    return read_or_create(secrets_dir(settings), OPERATOR_PASSWORD_FILE, generate=18)


__all__ = [
    "OPERATOR_PASSWORD_FILE",
    "TOKEN_KEY_FILE",
    "MissingSecret",
    "Secret",
    "is_embedded",
    "is_loopback",
    "operator_password",
    "read_or_create",
    "token_key",
]
