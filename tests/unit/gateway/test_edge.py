"""The gateway's edge bounds every public request field (issue 20, findings 4 and 5)."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator

import grpc
import pytest
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.duration_pb2 import Duration
from google.protobuf.timestamp_pb2 import Timestamp

import gamehall_sdk.v1
from gamehall.runtime.errors import ClientError, Failure
from gamehall_sdk.v1 import audit_pb2, common_pb2, match_pb2, matchmaking_pb2, tournament_pb2
from gamehall_services.gateway.edge import BOUNDS, Instant, Many, Nested, Span, check_request

DEEP = "[" * 5000 + "]" * 5000
PUBLIC = tuple(
    importlib.import_module(f"gamehall_sdk.v1.{m.name}").DESCRIPTOR
    for m in pkgutil.iter_modules(gamehall_sdk.v1.__path__)
    if m.name.endswith("_pb2")
)
"""Every public proto file (a new one is covered without touching this test)."""


def _request_types() -> Iterator[Descriptor]:
    seen: set[str] = set()
    pending = [m.input_type for f in PUBLIC for s in f.services_by_name.values() for m in s.methods]
    while pending:
        message = pending.pop()
        if message.full_name in seen:
            continue
        seen.add(message.full_name)
        yield message
        pending.extend(
            f.message_type
            for f in message.fields
            if f.type == FieldDescriptor.TYPE_MESSAGE and f.message_type.full_name.startswith("gamehall.v1.")
        )


def _refused(request: object) -> ClientError:
    with pytest.raises(ClientError) as caught:
        check_request("/x", request)
    return caught.value


def test_every_field_of_every_public_request_has_a_bound() -> None:
    for message in _request_types():
        table = BOUNDS[message.full_name.removeprefix("gamehall.v1.")]
        assert set(table) == {f.name for f in message.fields}, message.full_name
        for field in message.fields:
            bound = table[field.name]
            if field.is_repeated:
                assert isinstance(bound, Many), field.full_name
            elif field.type == FieldDescriptor.TYPE_MESSAGE:
                expected = {"google.protobuf.Duration": Span, "google.protobuf.Timestamp": Instant}
                assert isinstance(bound, expected.get(field.message_type.full_name, Nested)), field.full_name


def test_requests_within_bounds_pass() -> None:
    check_request(
        "/x",
        match_pb2.CreateMatchRequest(
            game="grimmoir",
            config=common_pb2.MatchConfig(mode="versus", seats=2, options_json='{"max_rounds": 60}'),
            seats=[match_pb2.SeatSpec(open=True), match_pb2.SeatSpec(bot="easy")],
            clock=common_pb2.ClockSpec(per_move=Duration(seconds=30)),
            join_seat=0,
            request_id="3f2a9c1e-create",
        ),
    )
    check_request("/x", match_pb2.SubmitActionRequest(match_id="m", action_json='{"kind": "play", "card": [1, 2]}'))
    check_request("/x", object())  # not a public message: another service's business


def test_deep_json_is_invalid_argument_before_any_parser() -> None:
    for request in (
        match_pb2.SubmitActionRequest(match_id="m", action_json=DEEP),
        match_pb2.CreateMatchRequest(game="g", config=common_pb2.MatchConfig(options_json='{"a":' + DEEP + "}")),
        match_pb2.CreateMatchRequest(game="g", config=common_pb2.MatchConfig(flags_json=DEEP)),
    ):
        error = _refused(request)
        assert error.code == grpc.StatusCode.INVALID_ARGUMENT and "levels deep" in error.message


def test_oversized_json_is_invalid_argument_naming_the_limit() -> None:
    """Issue 39: a 20 KiB action was RATE_LIMITED with "retry in 1 s", though no retry can help."""
    error = _refused(match_pb2.SubmitActionRequest(match_id="m", action_json='"' + "x" * 20_000 + '"'))
    assert (error.code, error.reason, error.field) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        common_pb2.ERROR_REASON_TOO_LARGE,
        "action_json",
    )
    assert error.retry_after is None and error.metadata["limit"] == "16384"
    assert "the limit is 16384 bytes" in error.message
    status = Failure(error.code, error.message, error.reason, error.metadata, field=error.field).status()
    kinds = {detail.TypeName() for detail in status.details}
    assert "google.rpc.RetryInfo" not in kinds and "google.rpc.BadRequest" in kinds


def test_out_of_range_nanos_are_named_not_the_seconds() -> None:
    """The fuzzer's find: a Duration of 3 s and -1 ns was refused as "must be between 0 and 604800 seconds,
    not '3'", blaming a valid value."""
    error = _refused(match_pb2.CreateMatchRequest(clock=common_pb2.ClockSpec(per_move=Duration(seconds=3, nanos=-1))))
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.message == "clock.per_move.nanos must be between 0 and 999999999, not '-1'"
    assert error.field == "clock.per_move.nanos"
    late = Timestamp(seconds=10, nanos=10**9)
    error = _refused(tournament_pb2.CreateTournamentRequest(name="t", registration_close_time=late))
    assert "registration_close_time.nanos" in error.message and "1000000000" in error.message


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        (match_pb2.CreateMatchRequest(game="g", request_id="r" * 1_000_000), "request_id"),
        (match_pb2.SubmitActionRequest(match_id="m", action_id="a", request_id="r" * 129), "request_id"),
        (matchmaking_pb2.EnqueueTicketRequest(game="g", pool="p" * 100_000), "pool"),
        (match_pb2.GetMatchRequest(match_id="x" * 10_000), "match_id"),
        (matchmaking_pb2.CancelTicketRequest(ticket_id="t" * 10_000), "ticket_id"),
        (match_pb2.CreateMatchRequest(clock=common_pb2.ClockSpec(per_move=Duration(seconds=4_000_000))), "per_move"),
        (match_pb2.CreateMatchRequest(clock=common_pb2.ClockSpec(bank=Duration(seconds=-1))), "clock.bank"),
        (match_pb2.ListMatchesRequest(page_size=-1), "page_size"),
        (tournament_pb2.ListPairingsRequest(tournament_id="t", page_token="bad token"), "page_token"),
        (match_pb2.CreateMatchRequest(game="g", join_seat=1_000_000), "join_seat"),
        (match_pb2.WatchMatchRequest(match_id="m", delay_actions=1_000_000), "delay_actions"),
        (match_pb2.ListMatchesRequest(status=99), "status"),
        (match_pb2.CreateMatchRequest(game="g", seats=[match_pb2.SeatSpec(open=True)] * 17), "seats"),
        (match_pb2.CreateMatchRequest(game="g", seats=[match_pb2.SeatSpec(reserved_for="u" * 65)]), "seats[0]."),
        (
            tournament_pb2.CreateTournamentRequest(name="t", registration_open_time=Timestamp(seconds=-5)),
            "registration_open_time",
        ),
        (matchmaking_pb2.EnqueueTicketRequest(game="g", players=["a\n"]), "players[0]"),
        (match_pb2.GetMatchRequest(match_id="has space"), "match_id"),
        (audit_pb2.ListAuditEventsRequest(actor="a" * 65), "actor"),
        (audit_pb2.ListAuditEventsRequest(action="TournamentService.Start Tournament"), "action"),
        (audit_pb2.ListAuditEventsRequest(start_time=Timestamp(seconds=-1)), "start_time"),
    ],
)
def test_out_of_bounds_values_are_invalid_argument_with_short_messages(request_: object, field: str) -> None:
    error = _refused(request_)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert field in error.message and len(error.message) < 160
    assert field.rstrip(".") in error.field, "the BadRequest names the field at fault"
