"""A third-party client that knows nothing of gamehall's code: it reads the API from the gateway's
server reflection into a dynamic descriptor pool, then registers, logs in, creates and plays a match
to its end by legal-action ids, reads an illegal move's AIP-193 details from the standard trailer and
pages through a list. Only grpc, protobuf and googleapis-common-protos are imported (no project module:
the `platform` fixture comes from the e2e conftest and is used for its address only)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor_pool, message_factory
from google.rpc import error_details_pb2
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase
from grpc_status import rpc_status

PASSWORD = "reflected passphrase 42"


class DynamicClient:
    """Calls any RPC by its full service name, with message classes built from the reflected descriptors."""

    def __init__(self, channel: grpc.Channel) -> None:
        self.channel = channel
        self.pool = descriptor_pool.DescriptorPool(ProtoReflectionDescriptorDatabase(channel))
        self.metadata: tuple[tuple[str, str], ...] = ()

    def message(self, full_name: str, **fields: Any) -> Any:
        return message_factory.GetMessageClass(self.pool.FindMessageTypeByName(full_name))(**fields)

    def enum(self, full_name: str, value_name: str) -> int:
        return int(self.pool.FindEnumTypeByName(full_name).values_by_name[value_name].number)

    def call(self, service: str, method: str, **fields: Any) -> Any:
        descriptor = self.pool.FindServiceByName(service).FindMethodByName(method)
        request = message_factory.GetMessageClass(descriptor.input_type)(**fields)
        reply_class = message_factory.GetMessageClass(descriptor.output_type)
        rpc = self.channel.unary_unary(
            f"/{service}/{method}",
            request_serializer=lambda m: m.SerializeToString(),
            response_deserializer=reply_class.FromString,
        )
        return rpc(request, metadata=self.metadata, timeout=30)

    def sign_in(self, username: str) -> Any:
        self.call("gamehall.v1.AuthService", "Register", username=username, password=PASSWORD)
        login = self.call("gamehall.v1.AuthService", "Login", username=username, password=PASSWORD)
        self.metadata = (("authorization", f"Bearer {login.token}"),)
        return login


def _details(error: grpc.RpcError) -> dict[str, Any]:
    """The google.rpc.Status of a failed call, its details unpacked by type."""
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None, "the failed call carries grpc-status-details-bin"
    found: dict[str, Any] = {"status": status}
    for kind in (error_details_pb2.ErrorInfo, error_details_pb2.RequestInfo, error_details_pb2.BadRequest):
        for packed in status.details:
            if packed.Is(kind.DESCRIPTOR):
                found[kind.__name__] = kind()
                packed.Unpack(found[kind.__name__])
    return found


@pytest.fixture(scope="module")
def pair(platform: Any) -> tuple[DynamicClient, DynamicClient]:
    tag = uuid.uuid4().hex[:8]
    alice = DynamicClient(grpc.insecure_channel(platform.address))
    bob = DynamicClient(grpc.insecure_channel(platform.address))
    login = alice.sign_in(f"refl-a-{tag}")
    assert login.account.username == f"refl-a-{tag}" and login.expire_time.seconds > 0
    bob.sign_in(f"refl-b-{tag}")
    return alice, bob


def test_a_reflected_client_plays_a_match_to_its_end(pair: tuple[DynamicClient, DynamicClient]) -> None:
    alice, bob = pair
    services = {
        s.full_name for s in alice.pool.FindFileContainingSymbol("gamehall.v1.MatchService").services_by_name.values()
    }
    assert services == {"gamehall.v1.MatchService"}, "one service per file"
    created = alice.call("gamehall.v1.MatchService", "CreateMatch", game="high-card", join_seat=0, public=True)
    match_id = created.match.id
    assert created.match.create_time.seconds > 0 and created.match.seed_commitment
    assert bob.call("gamehall.v1.MatchService", "JoinMatch", match_id=match_id).seat == 1
    outcome, moves = None, 0
    while outcome is None:
        assert moves < 200, "the match should end"
        for player in (alice, bob):
            legal = player.call("gamehall.v1.MatchService", "ListLegalActions", match_id=match_id)
            playable = [a for a in legal.actions if json.loads(a.action_json)["kind"] != "resign"]
            if not playable:
                continue
            done = player.call(
                "gamehall.v1.MatchService",
                "SubmitAction",
                match_id=match_id,
                action_id=playable[0].id,
                request_id=uuid.uuid4().hex,
            )
            moves += 1
            if done.HasField("outcome"):
                outcome = done.outcome
                break
    final = alice.call("gamehall.v1.MatchService", "GetMatch", match_id=match_id).match
    assert final.status == alice.enum("gamehall.v1.MatchStatus", "MATCH_STATUS_FINISHED")
    assert sorted(final.outcome.ranks) in ([1, 2], [1, 1]) and final.seed != 0
    assert {s.kind for s in final.seats} == {alice.enum("gamehall.v1.SeatKind", "SEAT_KIND_HUMAN")}


def test_an_illegal_move_carries_standard_error_details(pair: tuple[DynamicClient, DynamicClient]) -> None:
    alice, bob = pair
    match_id = alice.call("gamehall.v1.MatchService", "CreateMatch", game="high-card", join_seat=0).match.id
    bob.call("gamehall.v1.MatchService", "JoinMatch", match_id=match_id)
    illegal = json.dumps({"kind": "play", "card": 999})
    with pytest.raises(grpc.RpcError) as caught:
        alice.call("gamehall.v1.MatchService", "SubmitAction", match_id=match_id, action_json=illegal)
    error = caught.value
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION  # type: ignore[attr-defined]
    details = _details(error)
    info = details["ErrorInfo"]
    assert (info.domain, info.reason) == ("gamehall.dev", "ILLEGAL_ACTION")
    reasons = alice.pool.FindEnumTypeByName("gamehall.v1.ErrorReason").values_by_name
    assert "ERROR_REASON_" + info.reason in reasons, "every reason is documented in the ErrorReason enum"
    assert details["RequestInfo"].request_id, "the trace id to quote"
    assert details["status"].message == error.details()  # type: ignore[attr-defined]
    with pytest.raises(grpc.RpcError) as malformed:  # a field out of bounds names itself in a BadRequest
        alice.call("gamehall.v1.MatchService", "GetMatch", match_id="has space")
    violations = _details(malformed.value)["BadRequest"].field_violations
    assert [v.field for v in violations] == ["match_id"]


def test_a_list_is_paged_with_tokens_bound_to_its_filters(pair: tuple[DynamicClient, DynamicClient]) -> None:
    alice, _ = pair
    made = {
        alice.call("gamehall.v1.MatchService", "CreateMatch", game="high-card", join_seat=0).match.id for _ in range(3)
    }
    seen: list[str] = []
    request: dict[str, Any] = {"mine": True, "game": "high-card", "page_size": 2}
    pages = 0
    while True:
        page = alice.call("gamehall.v1.MatchService", "ListMatches", **request)
        pages += 1
        assert len(page.matches) <= 2
        seen.extend(m.id for m in page.matches)
        if not page.next_page_token:
            break
        token = page.next_page_token
        request["page_token"] = token
    assert made <= set(seen) and len(seen) == len(set(seen)) and pages >= 2
    with pytest.raises(grpc.RpcError) as caught:  # the same token with another filter
        alice.call("gamehall.v1.MatchService", "ListMatches", mine=True, game="grimmoir", page_size=2, page_token=token)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    assert _details(caught.value)["ErrorInfo"].reason == "INVALID_PAGE_TOKEN"
