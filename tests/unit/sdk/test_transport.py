"""Retries of UNAVAILABLE calls: bounded, only for idempotent calls, and a submit keeps its request id."""

from __future__ import annotations

import grpc
import pytest

from gamehall_sdk import Unavailable, VersionConflict
from gamehall_sdk.matches import Matches
from gamehall_sdk.models import LegalAction
from gamehall_sdk.retry import RetryPolicy
from gamehall_sdk.transport import Transport
from gamehall_sdk.v1 import common_pb2, match_pb2
from tests.unit.sdk.fakes import FakeMethod, FakeStub, rpc_error

FAST = RetryPolicy(attempts=4, backoff=0.0)
UNAVAILABLE = grpc.StatusCode.UNAVAILABLE


def _submitted(version: int = 7) -> match_pb2.SubmitActionResponse:
    action = common_pb2.LegalAction(id="play-3", label="Play 3", action_json='{"kind": "play", "card": 3}')
    return match_pb2.SubmitActionResponse(version=version, action=action, to_act=[1])


def _matches(transport: Transport, **methods: FakeMethod) -> Matches:
    return Matches(transport, FakeStub(**methods))


async def test_a_retried_submit_reuses_its_request_id() -> None:
    method = FakeMethod(_submitted(), errors=[rpc_error(UNAVAILABLE), rpc_error(UNAVAILABLE)])
    transport = Transport(timeout=3.5, retry=FAST)
    transport.token = "tok"
    legal = LegalAction("play-3", "Play 3", {"kind": "play", "card": 3})

    result = await _matches(transport, SubmitAction=method).submit("m1", 1, legal, expected_version=6)

    assert len(method.calls) == 3
    ids = {call.request.request_id for call in method.calls}
    assert len(ids) == 1 and result.request_id in ids and len(result.request_id) == 32
    first = method.calls[0]
    assert first.request.action_id == "play-3" and first.request.seat == 1 and first.request.expected_version == 6
    assert all(call.metadata == (("authorization", "Bearer tok"),) and call.timeout == 3.5 for call in method.calls)
    assert result.version == 7 and result.action.action == {"kind": "play", "card": 3} and result.to_act == (1,)
    assert not result.replayed and result.outcome is None


async def test_each_submit_gets_a_fresh_request_id_unless_given() -> None:
    method = FakeMethod(_submitted())
    matches = _matches(Transport(retry=FAST), SubmitAction=method)
    await matches.submit("m1", 0, "a")
    await matches.submit("m1", 0, {"kind": "play", "card": 3})
    await matches.submit("m1", None, "a", request_id="mine")
    first, second, third = (call.request for call in method.calls)
    assert first.request_id != second.request_id and third.request_id == "mine"
    assert second.action_json == '{"kind": "play", "card": 3}' and not third.HasField("seat")


async def test_retries_are_bounded_and_end_in_unavailable() -> None:
    errors: list[BaseException] = [rpc_error(UNAVAILABLE) for _ in range(10)]
    method = FakeMethod(_submitted(), errors=errors)
    with pytest.raises(Unavailable) as caught:
        await _matches(Transport(retry=FAST), SubmitAction=method).submit("m1", 0, "a")
    assert len(method.calls) == FAST.attempts
    assert isinstance(caught.value.__cause__, grpc.aio.AioRpcError)


async def test_a_retried_join_or_leave_reuses_its_request_id() -> None:
    """Joins and leaves carry a request id (issue 37): a retry after a lost reply gets the first answer, so the SDK
    retries them on UNAVAILABLE under the same id, a fresh one per call unless given."""
    join = FakeMethod(match_pb2.JoinMatchResponse(seat=1), errors=[rpc_error(UNAVAILABLE)])
    matches = _matches(Transport(retry=FAST), JoinMatch=join)
    assert (await matches.join("m1")).seat == 1
    await matches.join("m1", 0, request_id="mine")
    first, retried, given = (call.request for call in join.calls)
    assert first.request_id == retried.request_id and len(first.request_id) == 32
    assert given.request_id == "mine" and given.seat == 0
    leave = FakeMethod(match_pb2.LeaveMatchResponse(), errors=[rpc_error(UNAVAILABLE)])
    await _matches(Transport(retry=FAST), LeaveMatch=leave).leave("m1")
    assert len(leave.calls) == 2 and leave.calls[0].request.request_id == leave.calls[1].request.request_id != ""


async def test_other_failures_are_not_retried() -> None:
    conflict = rpc_error(grpc.StatusCode.ABORTED, common_pb2.ERROR_REASON_VERSION_CONFLICT, "at 8, not 6")
    method = FakeMethod(_submitted(), errors=[conflict])
    with pytest.raises(VersionConflict):
        await _matches(Transport(retry=FAST), SubmitAction=method).submit("m1", 0, "a", expected_version=6)
    assert len(method.calls) == 1


async def test_reads_are_retried_and_decoded() -> None:
    reply = match_pb2.ListLegalActionsResponse(
        version=4,
        seat=1,
        actions=[common_pb2.LegalAction(id="resign", label="Resign", action_json='{"kind":"resign"}')],
    )
    method = FakeMethod(reply, errors=[rpc_error(UNAVAILABLE)])
    legal = await _matches(Transport(retry=FAST), ListLegalActions=method).legal("m1", 1)
    assert len(method.calls) == 2 and method.calls[0].request.seat == 1
    assert (legal.version, legal.seat, len(legal)) == (4, 1, 1) and legal[0].kind == "resign"


async def test_no_token_means_no_authorization_header() -> None:
    method = FakeMethod(match_pb2.GetMatchResponse(match=match_pb2.Match(id="m1")))
    match = await _matches(Transport(), GetMatch=method).get("m1")
    assert match.id == "m1" and method.calls[0].metadata == () and method.calls[0].timeout == 20.0


async def test_a_lost_compare_and_swap_is_retried_where_nothing_was_written() -> None:
    """ABORTED without an expected version of the client's (a leave, a tournament change that kept losing to
    concurrent changes) is tried again; a stale expected_version is not (test_other_failures_are_not_retried)."""
    aborted = rpc_error(grpc.StatusCode.ABORTED, common_pb2.ERROR_REASON_VERSION_CONFLICT, "kept changing")
    method = FakeMethod(match_pb2.LeaveMatchResponse(), errors=[aborted, aborted])
    await _matches(Transport(retry=FAST), LeaveMatch=method).leave("m1")
    assert len(method.calls) == 3
    assert len({call.request.request_id for call in method.calls}) == 1
