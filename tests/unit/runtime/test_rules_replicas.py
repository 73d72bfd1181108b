"""Which failures take a rules replica out of routing (issue 37): a call cut short by its caller's budget does not,
unless the replica has answered nothing for a whole deadline; a call given its full deadline that ran out does."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest

from gamehall.runtime import budget
from gamehall.runtime.errors import ClientError
from gamehall.runtime.rules_replicas import RulesReplicas

OWN = 0.6


class _Error(grpc.aio.AioRpcError):
    def __init__(self, code: grpc.StatusCode) -> None:
        super().__init__(code, grpc.aio.Metadata(), grpc.aio.Metadata(), details=code.name)


class Calls:
    """A `make` that fails DEADLINE_EXCEEDED on the hung replicas, noting (replica, timeout) per call."""

    def __init__(self, replicas: RulesReplicas, hung: set[str]) -> None:
        self.replicas, self.hung = replicas, hung
        self.made: list[tuple[str, float]] = []

    async def __call__(self, replica: Any, timeout: float) -> str:
        address = next(a for a, r in self.replicas._replicas.items() if r is replica)
        self.made.append((address, timeout))
        if address in self.hung:
            raise _Error(grpc.StatusCode.DEADLINE_EXCEEDED)
        return address


@pytest.fixture
async def replicas() -> Any:
    found = RulesReplicas("grimmoir", "127.0.0.1:1,127.0.0.1:2", deadline=OWN)
    yield found
    await found.close()


async def test_a_short_budget_that_ran_out_keeps_the_replica_in_routing(replicas: RulesReplicas) -> None:
    owner, _ = await replicas.ranked("m1")
    calls = Calls(replicas, {owner})
    with budget.serving_until(0.4), pytest.raises(ClientError) as caught:
        await replicas._with_failover("m1", OWN, calls)
    assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert [a for a, _ in calls.made] == [owner] and calls.made[0][1] < OWN, "no failover on the caller's budget"
    assert (await replicas.ranked("m1"))[0] == owner, "not skipped"


async def test_a_full_deadline_that_ran_out_fails_over_and_skips(replicas: RulesReplicas) -> None:
    owner, successor = await replicas.ranked("m1")
    calls = Calls(replicas, {owner})
    assert await replicas._with_failover("m1", OWN, calls) == successor
    assert [a for a, _ in calls.made] == [owner, successor] and calls.made[0][1] == OWN
    assert (await replicas.ranked("m1"))[0] == successor, "the hung owner is skipped"


async def test_a_replica_silent_for_a_whole_deadline_is_skipped_even_under_short_budgets(
    replicas: RulesReplicas,
) -> None:
    owner, successor = await replicas.ranked("m1")
    calls = Calls(replicas, {owner})
    loop = asyncio.get_running_loop()
    started = loop.time()
    while loop.time() - started < OWN - 0.15:  # clients in a hurry, one after another, and not one answer
        with budget.serving_until(0.3), pytest.raises(ClientError):
            await replicas._with_failover("m1", OWN, calls)
        assert (await replicas.ranked("m1"))[0] == owner
        await asyncio.sleep(0.1)
    await asyncio.sleep(started + OWN + 0.05 - loop.time())  # silent for a whole deadline now
    with budget.serving_until(0.3):
        assert await replicas._with_failover("m1", OWN, calls) == successor
    assert (await replicas.ranked("m1"))[0] == successor
