"""The time budget of nested calls, and a store that did not answer in time told apart from a dead replica."""

from __future__ import annotations

from collections import namedtuple

import grpc

from gamehall.runtime import budget
from gamehall.runtime.channels import DefaultDeadline
from gamehall.runtime.errors import ClientError
from gamehall.runtime.interceptor import _budget
from gamehall.runtime.upstream import translate_store_call
from gamehall_sdk.v1 import common_pb2


class _Deadline(grpc.aio.AioRpcError):
    def __init__(self, code: grpc.StatusCode) -> None:
        super().__init__(code, grpc.aio.Metadata(), grpc.aio.Metadata(), details="Deadline Exceeded")


def test_a_nested_call_ends_before_its_caller_with_room_for_the_answer() -> None:
    with budget.serving_until(10.0):
        assert 8.5 < budget.upstream_timeout(30.0) <= 9.0  # a tenth left for the way back
        assert budget.upstream_timeout(2.0) == 2.0  # its own timeout when that is shorter
    with budget.serving_until(1.0):
        assert 0.7 < budget.upstream_timeout(10.0) <= 0.75  # at least a quarter second left
    with budget.serving_until(0.01):
        assert budget.upstream_timeout(10.0) == budget.SHORTEST_SECONDS
    with budget.serving_until(None):
        assert budget.upstream_timeout(3.0) == 3.0
    assert budget.remaining() is None


def test_a_store_that_did_not_answer_in_time_is_unavailable_with_a_retry_hint() -> None:
    error = translate_store_call(_Deadline(grpc.StatusCode.DEADLINE_EXCEEDED))
    assert isinstance(error, ClientError)
    assert error.code == grpc.StatusCode.UNAVAILABLE and error.retry_after == 1.0
    assert error.reason == common_pb2.ERROR_REASON_UNAVAILABLE
    assert "store did not answer in time" in error.message
    passed = translate_store_call(_Deadline(grpc.StatusCode.NOT_FOUND))
    assert isinstance(passed, ClientError) and passed.code == grpc.StatusCode.NOT_FOUND


async def test_an_internal_channel_shortens_every_call_made_while_serving_one() -> None:
    """The channels' DefaultDeadline carries the served call's remaining deadline on (issue 37): its own default, or a
    timeout the caller passed, is cut to end before the call being served, and left alone outside one."""
    details = namedtuple("details", "method timeout metadata credentials wait_for_ready")
    seen: list[float | None] = []

    async def continuation(call_details: object, request: object) -> None:
        seen.append(call_details.timeout)  # type: ignore[attr-defined]

    channel = DefaultDeadline(10.0)
    await channel.intercept_unary_unary(continuation, details("/m", None, None, None, None), None)
    await channel.intercept_unary_unary(continuation, details("/m", 3.0, None, None, None), None)
    with budget.serving_until(1.5):
        await channel.intercept_unary_unary(continuation, details("/m", None, None, None, None), None)
        await channel.intercept_unary_unary(continuation, details("/m", 0.5, None, None, None), None)
    assert seen[:2] == [10.0, 3.0]
    assert seen[2] is not None and 1.2 < seen[2] <= 1.25
    assert seen[3] == 0.5


def test_a_unary_calls_budget_is_the_clients_deadline_capped_by_the_services_own() -> None:
    assert _budget(2.0, 30.0) == 2.0
    assert _budget(3600.0, 30.0) == 30.0
    assert _budget(None, 30.0) == 30.0
    assert _budget(2.0, None) == 2.0
    assert _budget(None, None) is None
