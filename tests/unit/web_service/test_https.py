"""The pages' port under TLS (issue 38): HTTPS with the configured pair (the gateway's public one under
`gamehall run`), HSTS on every answer, plain HTTP refused, and a renewed pair served to new connections."""

from __future__ import annotations

import asyncio
import shutil
import ssl
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from gamehall.runtime.pki import self_signed_pair
from gamehall.runtime.settings import Settings
from gamehall_services.web.app import HSTS, http_app, https_context
from gamehall_services.web.bridge import Bridge
from gamehall_services.web.cors import Origins
from gamehall_services.web.pages import Pages


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[int, Path, Settings]]:
    pair, _ = self_signed_pair(tmp_path / "tls")
    settings = Settings(
        service="web", web_tls_cert_file=pair.cert, web_tls_key_file=pair.key, tls_reload_seconds=0.05
    )
    tls = https_context(settings)
    assert tls is not None
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>")
    runner = web.AppRunner(http_app(Bridge("127.0.0.1:1"), Pages(tmp_path), Origins(frozenset()), https=True))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=tls[0])
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield port, pair.cert, settings
    finally:
        await runner.cleanup()


def test_no_pair_means_plain_http() -> None:
    assert https_context(Settings(service="web")) is None


async def test_https_is_served_with_hsts_and_plain_http_is_refused(served: tuple[int, Path, Settings]) -> None:
    port, cert, _ = served
    trust = ssl.create_default_context(cafile=str(cert))
    async with aiohttp.ClientSession() as session:
        async with session.get(f"https://127.0.0.1:{port}/", ssl=trust) as reply:
            assert reply.status == 200
            assert reply.headers["Strict-Transport-Security"] == HSTS
            assert "default-src 'self'" in reply.headers["Content-Security-Policy"]
        with pytest.raises(aiohttp.ClientError):
            async with session.get(f"http://127.0.0.1:{port}/", timeout=aiohttp.ClientTimeout(total=5)) as plain:
                assert plain.status != 200, "plain HTTP answered on the TLS port"  # pragma: no cover


async def test_a_renewed_pair_is_served_to_new_connections(tmp_path: Path) -> None:
    first, _ = self_signed_pair(tmp_path / "a")
    second, _ = self_signed_pair(tmp_path / "b")
    live = tmp_path / "live"
    live.mkdir()
    shutil.copy(first.cert, live / "web.crt")
    shutil.copy(first.key, live / "web.key")
    settings = Settings(service="web", web_tls_cert_file=live / "web.crt", web_tls_key_file=live / "web.key")
    tls = https_context(settings)
    assert tls is not None
    context, files = tls
    before = files.material.serial
    await asyncio.sleep(0.01)
    shutil.copy(second.key, live / "web.key")
    shutil.copy(second.cert, live / "web.crt")
    assert files.refresh()
    assert files.material.serial != before
    # the context now holds the second pair: a client trusting only the second certificate completes a handshake
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>")
    runner = web.AppRunner(http_app(Bridge("127.0.0.1:1"), Pages(tmp_path), Origins(frozenset()), https=True))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=context)
    await site.start()
    try:
        port = runner.addresses[0][1]
        trust = ssl.create_default_context(cafile=str(second.cert))
        async with aiohttp.ClientSession() as session, session.get(f"https://127.0.0.1:{port}/", ssl=trust) as reply:
            assert reply.status == 200
    finally:
        await runner.cleanup()
