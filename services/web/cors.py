"""Which pages may call the API: this service's own, and the origins an operator lists, never a wildcard.

Tokens travel in the Authorization header (never a cookie), so no credentials mode is ever allowed: a
page of a listed origin gets its origin echoed back (with `Vary: Origin`), any other cross-origin call
is refused with PERMISSION_DENIED before it reaches the gateway.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from aiohttp import web

ALLOWED_HEADERS = "authorization, content-type, connect-protocol-version, connect-timeout-ms, x-user-agent"
MAX_AGE_SECONDS = "7200"


def parse_origins(setting: str) -> frozenset[str]:
    """`scheme://host[:port]` entries of a comma-separated setting; `*` is refused."""
    origins = set()
    for entry in (part.strip().rstrip("/") for part in setting.split(",")):
        if not entry:
            continue
        parts = urlsplit(entry)
        if entry == "*" or parts.scheme not in ("http", "https") or not parts.netloc or parts.path:
            raise ValueError(f"not an origin (scheme://host[:port]): {entry[:60]!r}")
        origins.add(f"{parts.scheme}://{parts.netloc}".lower())
    return frozenset(origins)


class Origins:
    def __init__(self, allowed: frozenset[str]) -> None:
        self.allowed = allowed

    def verdict(self, request: web.Request) -> tuple[bool, dict[str, str]]:
        """(may this request go on, the CORS headers its response carries)."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True, {}  # not a browser's cross-origin call (same-origin GET, curl, a test client)
        if urlsplit(origin).netloc.lower() == request.host.lower():
            return True, {}  # this service's own pages (scheme may differ behind a TLS-terminating ingress)
        if origin.lower() in self.allowed:
            return True, {
                "Access-Control-Allow-Origin": origin,
                "Access-Control-Expose-Headers": "content-type, connect-protocol-version",
                "Vary": "Origin",
            }
        return False, {"Vary": "Origin"}

    async def preflight(self, request: web.Request) -> web.Response:
        ok, headers = self.verdict(request)
        if not ok or not headers:
            return web.Response(status=403, headers={"Vary": "Origin"})
        return web.Response(
            status=204,
            headers={
                **headers,
                "Access-Control-Allow-Methods": "POST",
                "Access-Control-Allow-Headers": ALLOWED_HEADERS,
                "Access-Control-Max-Age": MAX_AGE_SECONDS,
            },
        )
