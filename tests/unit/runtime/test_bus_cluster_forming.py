"""Stream and consumer creation waits out a JetStream cluster that is still forming, and only that."""

from __future__ import annotations

import asyncio

import pytest
from nats.js.errors import BadRequestError

from gamehall.runtime import bus


def _no_peers() -> BadRequestError:
    return BadRequestError(code=400, err_code=10005, description="no suitable peers for placement, peer offline")


def test_a_cluster_without_its_peers_yet_is_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bus, "wait_exponential", lambda **_: lambda *_: 0.0)  # no real backoff in a unit test
    calls = 0

    async def create() -> None:
        nonlocal calls
        calls += 1
        if calls < 3:
            raise _no_peers()

    asyncio.run(bus._while_forming(create))
    assert calls == 3


def test_a_refused_config_is_not_retried() -> None:
    calls = 0

    async def create() -> None:
        nonlocal calls
        calls += 1
        raise BadRequestError(code=400, err_code=10058, description="stream name already in use")

    with pytest.raises(BadRequestError):
        asyncio.run(bus._while_forming(create))
    assert calls == 1


def test_forming_errors_are_told_apart() -> None:
    assert bus._forming(_no_peers())
    assert not bus._forming(BadRequestError(code=400, err_code=10058, description="in use"))
    assert not bus._forming(ValueError("x"))
