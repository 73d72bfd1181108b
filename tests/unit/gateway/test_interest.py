"""The gateway's watch leases: one lease per watched audience however many streams follow it, announced at
once, renewed per game, and dropped when the last stream closes."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from gamehall.runtime.bus import watching_subject
from gamehall_services.gateway import interest
from gamehall_services.gateway.interest import Interest


async def test_streams_share_a_lease_announced_once_and_renewed_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[str, list[list[object]]]] = []

    async def publish(subject: str, payload: bytes) -> None:
        sent.append((subject, msgspec.json.decode(payload)))

    monkeypatch.setattr(interest, "RENEW_SECONDS", 0.01)
    leases = Interest(publish)
    async with leases.hold("grimmoir", "m1", 0), leases.hold("grimmoir", "m1", 0), leases.hold("tiny", "m2", None):
        assert sent == [(watching_subject("grimmoir"), [["m1", 0]]), (watching_subject("tiny"), [["m2", None]])]
        assert len(leases) == 2
        sent.clear()
        renewing = asyncio.create_task(leases.renew_forever())
        await asyncio.sleep(0.05)
        renewing.cancel()
        assert (watching_subject("grimmoir"), [["m1", 0]]) in sent and (
            watching_subject("tiny"),
            [["m2", None]],
        ) in sent
    assert len(leases) == 0


async def test_a_failed_announcement_does_not_break_the_stream() -> None:
    async def publish(subject: str, payload: bytes) -> None:
        raise ConnectionError("NATS away")

    leases = Interest(publish)
    async with leases.hold("grimmoir", "m1", 1):
        assert len(leases) == 1
    assert len(leases) == 0
