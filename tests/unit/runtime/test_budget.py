"""The time budget of nested calls, and a store that did not answer in time told apart from a dead replica."""

from __future__ import annotations

import grpc

from gamehall.runtime import budget
from gamehall.runtime.errors import ClientError
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
