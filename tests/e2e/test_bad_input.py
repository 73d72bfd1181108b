"""Every client mistake gets its status and leaves the stored match unchanged."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import grpc
import pytest

from gamehall.auth import Tokens
from gamehall_sdk.v1 import auth_pb2, match_pb2
from tests.e2e.client import Client
from tests.e2e.conftest import TOKEN_KEY, Running


class _Subject:
    def __init__(self, id: str, username: str, role: str) -> None:
        self.id, self.username, self.role = id, username, role


@pytest.fixture
def duel(platform: Running) -> tuple[Client, Client, str]:
    alice, bob = platform.player(), platform.player()
    match = alice.create("high-card", join_seat=0)
    bob.join(match.id)
    return alice, bob, match.id


def _status(call: Callable[[], Any]) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value.code()  # type: ignore[no-any-return]


def _snapshot(client: Client, match_id: str) -> tuple[int, str, str]:
    view = client.view(match_id)
    return client.match(match_id).version, view.view_json, str(list(view.to_act))


def test_bad_moves_get_their_status_and_change_nothing(duel: tuple[Client, Client, str], platform: Running) -> None:
    alice, bob, match_id = duel
    played = alice.legal(match_id).actions[0].id
    first = alice.submit(match_id, played, request_id="alice-1")
    assert first.version == 1
    before = _snapshot(alice, match_id)
    submit = match_pb2.SubmitActionRequest
    cases: dict[str, tuple[Callable[[], Any], grpc.StatusCode]] = {
        "malformed json": (
            lambda: alice.call("SubmitAction", submit(match_id=match_id, action_json="{not json")),
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        "unknown action kind": (
            lambda: bob.call("SubmitAction", submit(match_id=match_id, action_json='{"kind": "fly"}')),
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        "unknown action id": (lambda: bob.submit(match_id, "play(card=99)"), grpc.StatusCode.FAILED_PRECONDITION),
        "no action": (lambda: bob.call("SubmitAction", submit(match_id=match_id)), grpc.StatusCode.INVALID_ARGUMENT),
        "unknown match": (lambda: bob.submit("no-such-match", "resign"), grpc.StatusCode.NOT_FOUND),
        "not your turn": (lambda: alice.submit(match_id, "resign"), grpc.StatusCode.FAILED_PRECONDITION),
        "another seat": (lambda: alice.submit(match_id, "resign", seat=1), grpc.StatusCode.PERMISSION_DENIED),
        "no seat": (lambda: platform.player().submit(match_id, "resign"), grpc.StatusCode.PERMISSION_DENIED),
        "stale version": (lambda: bob.submit(match_id, "resign", expected_version=0), grpc.StatusCode.ABORTED),
        # a move chosen at a version gone by, naming the card since played: a conflict, not "no such action"
        "gone-by version": (lambda: alice.submit(match_id, played, expected_version=0), grpc.StatusCode.ABORTED),
        "oversize payload": (
            lambda: bob.call(
                "SubmitAction", submit(match_id=match_id, action_json='{"kind":"play","card":1' + " " * 20000 + "}")
            ),
            grpc.StatusCode.INVALID_ARGUMENT,  # TOO_LARGE: never a rate limit
        ),
    }
    for name, (call, expected) in cases.items():
        assert _status(call) == expected, name
        assert _snapshot(alice, match_id) == before, f"{name} changed the match"
    again = alice.submit(match_id, "play(card=1)", request_id="alice-1")  # a retry of the first request
    assert again.replayed and again.version == 1
    assert _snapshot(alice, match_id) == before
    # request ids are per seat (issue 20, finding 9): bob picking alice's id makes his own move, and each
    # seat's retry returns its own first answer
    bobs = bob.submit(match_id, bob.legal(match_id).actions[0].id, request_id="alice-1")
    assert not bobs.replayed and bobs.version == 2
    assert bob.submit(match_id, "resign", request_id="alice-1").version == 2
    assert alice.submit(match_id, "resign", request_id="alice-1").version == 1


def test_tokens_missing_expired_forged(duel: tuple[Client, Client, str], platform: Running) -> None:
    alice, _, match_id = duel
    assert alice.account is not None
    subject = _Subject(alice.account.id, alice.account.username, "player")
    expired = Tokens(TOKEN_KEY, clock=lambda: time.time() - 10 * 24 * 3600).issue(subject, 60)
    forged = Tokens("another-key-that-is-long-enough-0123456789").issue(subject, 3600)
    for token in ("", "not-a-jwt", expired, forged):
        intruder = platform.client()
        intruder.token = token
        assert _status(lambda i=intruder: i.view(match_id)) == grpc.StatusCode.UNAUTHENTICATED  # type: ignore[misc]
        assert _status(lambda i=intruder: i.submit(match_id, "resign")) == grpc.StatusCode.UNAUTHENTICATED  # type: ignore[misc]
    assert alice.match(match_id).version == 0


def test_private_match_is_closed_to_strangers(platform: Running) -> None:
    alice, stranger = platform.player(), platform.player()
    match = alice.create("high-card", join_seat=0, public=False)
    assert _status(lambda: stranger.view(match.id)) == grpc.StatusCode.PERMISSION_DENIED
    assert _status(lambda: stranger.replay(match.id)) == grpc.StatusCode.PERMISSION_DENIED
    listed = stranger.call("ListMatches", match_pb2.ListMatchesRequest(game="high-card", page_size=200))
    assert match.id not in {m.id for m in listed.matches}


def test_login_and_operator_bootstrap(platform: Running) -> None:
    from tests.e2e.client import PASSWORD
    from tests.e2e.conftest import OPERATOR_PASSWORD

    player = platform.player()
    assert player.account is not None
    client = platform.client()
    logged = client.auth.Login(auth_pb2.LoginRequest(username=player.account.username, password=PASSWORD))
    assert logged.account.id == player.account.id
    with pytest.raises(grpc.RpcError) as wrong:
        client.auth.Login(auth_pb2.LoginRequest(username=player.account.username, password="wrong password!!"))
    assert wrong.value.code() == grpc.StatusCode.UNAUTHENTICATED
    operator = client.auth.Login(auth_pb2.LoginRequest(username="operator", password=OPERATOR_PASSWORD))
    assert operator.account.role == auth_pb2.ROLE_OPERATOR
    with pytest.raises(grpc.RpcError) as weak:
        client.auth.Register(auth_pb2.RegisterRequest(username="someone", password="short"))
    assert weak.value.code() == grpc.StatusCode.INVALID_ARGUMENT
