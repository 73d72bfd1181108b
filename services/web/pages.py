"""The built pages (gamehall/web/static, made by `make web`), served with strict security headers.

The pages are one script and one stylesheet under a Content-Security-Policy that allows nothing but
this origin (no inline script, no third-party host): with the token kept in the tab's sessionStorage
and sent as a header, that policy is what stands between an injected string and the token.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from aiohttp import web

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
NOT_BUILT = (
    "<!doctype html><title>gamehall</title><p>The web pages are not built: run <code>make web</code> "
    "(or <code>make run</code>, which builds them) from the repository root.</p>"
)


def static_dir() -> Path:
    return Path(str(resources.files("gamehall.web"))) / "static"


class Pages:
    """GET / (the single page) and /assets/<file> from the built folder, each read once."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or static_dir()
        self._cache: dict[str, bytes] = {}

    def built(self) -> bool:
        return (self.folder / "index.html").is_file()

    def _read(self, name: str) -> bytes | None:
        if name not in self._cache:
            path = self.folder / name
            if not path.is_file() or path.resolve().parent != self.folder.resolve():
                return None
            self._cache[name] = path.read_bytes()
        return self._cache[name]

    async def index(self, request: web.Request) -> web.Response:
        body = self._read("index.html")
        if body is None:
            return web.Response(text=NOT_BUILT, status=503, content_type="text/html", headers=SECURITY_HEADERS)
        return web.Response(
            body=body, content_type="text/html", headers={**SECURITY_HEADERS, "Cache-Control": "no-cache"}
        )

    async def asset(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        suffix = Path(name).suffix
        body = self._read(name) if suffix in TYPES and "/" not in name else None
        if body is None:
            raise web.HTTPNotFound()
        return web.Response(
            body=body, content_type=TYPES[suffix], headers={**SECURITY_HEADERS, "Cache-Control": "no-cache"}
        )
