"""The browser's address, as the web service vouches for it to the gateway (issue 38).

The web bridge is one client of the gateway for every browser, so the gateway's per-address Login and
Register limits would count the bridge, not the browsers. The bridge therefore sends each call's browser
address in `x-gamehall-web-client` as `<address>;<HMAC-SHA256 of it>`, keyed with a secret only the web
service and the gateway hold (`GAMEHALL_WEB_CLIENT_KEY`; an embedded start generates one in
<data dir>/secrets). The gateway takes that address only when the MAC verifies: a client that reaches the
gateway directly, or a browser that sends the header through the bridge (which forwards only
`authorization`), cannot choose the address its limits count. Without a key the header is neither sent
nor believed (the limits then count the bridge's address, as before).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Final

from gamehall.runtime.embedded_secrets import MissingSecret, is_embedded, read_or_create, secrets_dir
from gamehall.runtime.settings import Settings

HEADER: Final = "x-gamehall-web-client"
KEY_FILE: Final = "web-client-key"
MIN_KEY_BYTES: Final = 32
MAX_ADDRESS: Final = 64


def client_key(settings: Settings) -> bytes | None:
    """The shared key: configured, generated for an embedded start (the gateway and the web service read the
    same file), else None (the feature is off)."""
    configured = settings.web_client_key.get_secret_value()
    if configured:
        if len(configured.encode()) < MIN_KEY_BYTES:
            raise MissingSecret(f"GAMEHALL_WEB_CLIENT_KEY must be at least {MIN_KEY_BYTES} bytes")
        return configured.encode()
    if not is_embedded(settings):
        return None
    return read_or_create(secrets_dir(settings), KEY_FILE).value.encode()


def _mac(key: bytes, address: str) -> str:
    return hmac.new(key, address.encode(), hashlib.sha256).hexdigest()


def vouch(key: bytes, address: str) -> str:
    """The header's value for `address` (the web service's side)."""
    address = address[:MAX_ADDRESS].replace(";", "")
    return f"{address};{_mac(key, address)}"


def vouched(key: bytes | None, value: str) -> str | None:
    """The address in a header value whose MAC verifies with `key` (the gateway's side), else None."""
    if key is None or not value:
        return None
    address, _, mac = value.rpartition(";")
    if not address or len(address) > MAX_ADDRESS or not hmac.compare_digest(mac, _mac(key, address)):
        return None
    return address


__all__ = ["HEADER", "KEY_FILE", "client_key", "vouch", "vouched"]
