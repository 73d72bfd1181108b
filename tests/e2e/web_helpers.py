"""The web pages' browser tests: Debian's Chromium driven by Playwright for Python, and reading what the
pages received (Connect-framed protobuf) back into messages."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from gamehall.web import connect

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "var" / "screenshots" / "web"
CHROMIUM = os.environ.get("GAMEHALL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",  # the tests run as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",  # this machine's network is closed: no calls home
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
T = TypeVar("T")


def launch() -> Iterator[Browser]:
    """Debian's Chromium, headless (Playwright gives every context a fresh profile). A missing browser is a
    failure, never a skip: `make test` installs it (deploy/local/ensure-chromium.sh)."""
    if not Path(CHROMIUM).is_file():
        raise AssertionError(f"{CHROMIUM} is missing: run `make chromium` (deploy/local/ensure-chromium.sh)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def signed_in(
    browser: Browser, token: str = "", account: dict[str, str] | None = None, **options: Any
) -> BrowserContext:
    """A fresh browser context whose tab holds `token` in sessionStorage, as the login page leaves it."""
    context = browser.new_context(viewport=DESKTOP, **options)
    if token:
        script = (
            f"sessionStorage.setItem('gamehall.token', {token!r});"
            f"sessionStorage.setItem('gamehall.account', {json.dumps(account or {})!r});"
        )
        context.add_init_script(script)
    return context


def screenshot(page: Page, name: str, *, full_page: bool = True) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


STREAM_TAP = """
(() => {
  const suffix = %s;
  const tapped = (window.__gamehallStreams = []);
  const original = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await original(input, init);
    const url = typeof input === "string" ? input : input.url;
    if (!url.endsWith(suffix) || response.body === null) return response;
    const [page, copy] = response.body.tee();
    const chunks = [];
    tapped.push(chunks);
    (async () => {
      const reader = copy.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(...value);
        }
      } catch (_) {}  // aborted: keep what arrived
    })();
    return new Response(page, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
})();
"""


def tap_streams(page: Page, method_suffix: str) -> Callable[[], list[bytes]]:
    """Keep a copy of the bytes of every response the page fetches from a URL ending in `method_suffix`, as
    its scripts receive them; returns a reader of those copies. (Chromium's own record of a streamed body is
    dropped when the client aborts its fetch once the stream is done, as Connect's client does, so
    `Response.body()` loses a race with it.) Call before the page loads."""
    page.add_init_script(STREAM_TAP % json.dumps(method_suffix))

    def read() -> list[bytes]:
        return [bytes(chunks) for chunks in page.evaluate("window.__gamehallStreams || []")]

    return read


def stream_messages(body: bytes, message_type: Any) -> tuple[list[Any], bytes]:
    """The messages of a Connect server-stream response body, and its end-of-stream frame's JSON."""
    messages, end = [], b""
    for flags, payload in connect.envelopes(body):
        if flags & connect.END_STREAM:
            end = payload
        else:
            messages.append(message_type.FromString(payload))
    return messages, end


def eventually(probe: Callable[[], T | None], timeout: float, what: str, poll: float = 0.1) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(poll)
