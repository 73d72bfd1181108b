"""Issue 20's smaller findings through the real platform.

- finding 9: the diagnostics echo is not served on the public port; a reservation for an account that
  does not exist is NOT_FOUND without the store's database text; another player's ticket is NOT_FOUND
  to GetTicket and CancelTicket alike, word for word as a ticket that does not exist.
- finding 2's cause: one account cannot take both seats of a match (were such a match to finish, persistence
  would log it and leave it unrated: tests/unit/persistence_service/test_finish_rater.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import grpc
import pytest

from gamehall.internal.v1 import diagnostics_pb2, diagnostics_pb2_grpc
from gamehall_sdk.v1 import match_pb2
from gamehall_sdk.v1 import matchmaking_pb2 as mm
from gamehall_sdk.v1 import matchmaking_pb2_grpc as mm_grpc
from tests.e2e.conftest import Running


def _refused(call: Callable[[], Any]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value


def test_the_public_port_serves_no_diagnostics_echo(platform: Running) -> None:
    echo = diagnostics_pb2_grpc.DiagnosticsServiceStub(platform.client().channel)
    error = _refused(lambda: echo.Echo(diagnostics_pb2.EchoRequest(payload=b"hello")))
    assert error.code() == grpc.StatusCode.UNIMPLEMENTED  # type: ignore[attr-defined]


def test_a_reservation_for_no_account_is_a_clean_not_found(platform: Running) -> None:
    alice = platform.player()
    seats = [match_pb2.SeatSpec(open=True), match_pb2.SeatSpec(reserved_for="no-such-account-0000")]
    request = match_pb2.CreateMatchRequest(game="high-card", seats=seats, join_seat=0)
    error = _refused(lambda: alice.call("CreateMatch", request))
    assert error.code() == grpc.StatusCode.NOT_FOUND, error.details()  # type: ignore[attr-defined]
    details = (error.details() or "").lower()  # type: ignore[attr-defined]
    assert "foreign" not in details and "constraint" not in details and "table" not in details


def test_another_players_ticket_is_not_found_to_get_and_cancel_alike(platform: Running) -> None:
    owner, stranger = platform.player(), platform.player()
    queue = mm_grpc.MatchmakingServiceStub(owner.channel)
    ticket = queue.EnqueueTicket(
        mm.EnqueueTicketRequest(game="high-card", no_bots=True, pool=f"p-{time.time_ns()}"), metadata=owner.metadata
    ).ticket
    try:
        answers = []
        for ticket_id in (ticket.id, "tk-does-not-exist"):
            for call in (
                lambda t=ticket_id: queue.GetTicket(mm.GetTicketRequest(ticket_id=t), metadata=stranger.metadata),
                lambda t=ticket_id: queue.CancelTicket(mm.CancelTicketRequest(ticket_id=t), metadata=stranger.metadata),
            ):
                error = _refused(call)
                answers.append((error.code(), (error.details() or "").replace(ticket_id, "<id>")))  # type: ignore[attr-defined]
        assert len(set(answers)) == 1 and answers[0][0] == grpc.StatusCode.NOT_FOUND, answers
    finally:
        queue.CancelTicket(mm.CancelTicketRequest(ticket_id=ticket.id), metadata=owner.metadata)


def test_one_account_cannot_take_both_seats(platform: Running) -> None:
    """The cause of finding 2: one account in both seats (its rating update then raised forever). The seat
    rule refuses the second seat."""
    alice = platform.player()
    match = alice.create("high-card", join_seat=0)
    with pytest.raises(grpc.RpcError) as refused:
        alice.join(match.id, seat=1)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION  # type: ignore[attr-defined]
    assert "one account plays one seat" in refused.value.details()  # type: ignore[attr-defined]
    with pytest.raises(grpc.RpcError) as twice:  # nor at creation
        alice.call(
            "CreateMatch",
            match_pb2.CreateMatchRequest(
                game="high-card",
                seats=[match_pb2.SeatSpec(open=True), match_pb2.SeatSpec(reserved_for=alice.account.id)],  # type: ignore[union-attr]
                join_seat=0,
            ),
        )
    assert twice.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    stored = alice.match(match.id)
    assert stored.status == match_pb2.MATCH_STATUS_OPEN
    bob = platform.player()
    assert bob.join(match.id).seat == 1  # the seat stayed open for someone else
