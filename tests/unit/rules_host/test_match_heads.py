"""MatchHeads: the store checks of many first moves share reads, and each call gets its own answer or error."""

from __future__ import annotations

import asyncio
from typing import cast

import grpc
import pytest

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall.matches.errors import NoSuchMatch
from gamehall.matches.heads import MAX_PER_READ, MatchHeads
from gamehall.runtime.errors import ClientError
from gamehall.runtime.play_stream import rpc_error
from gamehall_services.rules.ports import persistence_heads

STORE = {f"m{i}": ("running", i) for i in range(1200)}


class FakePersistence:
    """GetMatchHeads over a dict; `gate` holds reads until the test lets them go."""

    def __init__(self, *, fail: grpc.StatusCode | None = None) -> None:
        self.fail = fail
        self.reads: list[list[str]] = []
        self.gate = asyncio.Event()
        self.gate.set()

    async def GetMatchHeads(self, request: ppb.GetMatchHeadsRequest, timeout: float) -> ppb.GetMatchHeadsResponse:
        self.reads.append(list(request.match_ids))
        await self.gate.wait()
        if self.fail is not None:
            raise rpc_error(self.fail, "the database is away")
        heads = [
            ppb.MatchHead(match_id=m, status=STORE[m][0], version=STORE[m][1]) for m in request.match_ids if m in STORE
        ]
        return ppb.GetMatchHeadsResponse(heads=heads)



def _heads(fake: FakePersistence) -> MatchHeads:
    """The owner's batched heads over persistence's reader, as the rules service wires them."""
    return persistence_heads(lambda: cast(persistence_pb2_grpc.PersistenceServiceStub, fake), timeout=1.0)


async def test_checks_that_come_together_share_one_read() -> None:
    fake = FakePersistence()
    heads = _heads(fake)
    answers = await asyncio.gather(*(heads.head(f"m{i}") for i in range(200)))
    assert answers == [("running", i) for i in range(200)]
    assert [len(r) for r in fake.reads] == [200]


async def test_checks_that_come_during_a_read_go_in_the_next_one() -> None:
    fake = FakePersistence()
    fake.gate.clear()
    heads = _heads(fake)
    first = asyncio.create_task(heads.head("m1"))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert fake.reads == [["m1"]]  # a lone check goes at once
    later = [asyncio.create_task(heads.head(m)) for m in ("m2", "m3", "m2")]
    await asyncio.sleep(0)
    fake.gate.set()
    assert await first == ("running", 1)
    assert [await t for t in later] == [("running", 2), ("running", 3), ("running", 2)]
    assert fake.reads == [["m1"], ["m2", "m3"]]


async def test_a_read_takes_at_most_the_most_persistence_answers() -> None:
    fake = FakePersistence()
    heads = _heads(fake)
    await asyncio.gather(*(heads.head(f"m{i}") for i in range(MAX_PER_READ * 2 + 1)))
    assert [len(r) for r in fake.reads] == [MAX_PER_READ, MAX_PER_READ, 1]


async def test_an_unknown_match_is_not_found_and_the_others_are_answered() -> None:
    heads = _heads(FakePersistence())
    known, unknown = await asyncio.gather(heads.head("m5"), heads.head("gone"), return_exceptions=True)
    assert known == ("running", 5)
    assert isinstance(unknown, NoSuchMatch)


async def test_a_failed_read_fails_each_call_with_its_own_error_and_the_next_read_goes_on() -> None:
    fake = FakePersistence(fail=grpc.StatusCode.UNAVAILABLE)
    heads = _heads(fake)
    failures = await asyncio.gather(heads.head("m1"), heads.head("m2"), return_exceptions=True)
    assert all(isinstance(f, ClientError) and f.code is grpc.StatusCode.UNAVAILABLE for f in failures)
    assert failures[0] is not failures[1]
    fake.fail = None
    assert await heads.head("m1") == ("running", 1)


async def test_a_call_that_stops_waiting_leaves_the_others_answered() -> None:
    fake = FakePersistence()
    fake.gate.clear()
    heads = _heads(fake)
    gone = asyncio.create_task(heads.head("m1"))
    kept = asyncio.create_task(heads.head("m1"))
    await asyncio.sleep(0)
    gone.cancel()
    fake.gate.set()
    assert await kept == ("running", 1)
    with pytest.raises(asyncio.CancelledError):
        await gone
