"""A token grants what its account has, never what it claims (issue 20, finding 1).

The platform here signs with a known test key, so these tokens are "forged" by someone holding the key:
the worst case. Even then a `role=operator` claim buys nothing, and a token whose account does not
exist is refused, on the gateway and on matchmaking (which receives the caller's token forwarded).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import grpc
import pytest

from gamehall.auth import Tokens
from gamehall_sdk.v1 import auth_pb2
from gamehall_sdk.v1 import tournament_pb2 as mpb
from tests.e2e.conftest import TOKEN_KEY, Running
from tests.e2e.mm_helpers import operator, tournaments

OLD_PUBLIC_DEFAULT_KEY = "gamehall-embedded-development-key-change-me"


class _Subject:
    def __init__(self, id: str, username: str, role: str) -> None:
        self.id, self.username, self.role = id, username, role


def _status(call: Callable[[], Any]) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as failed:
        call()
    return failed.value.code()  # type: ignore[no-any-return]


def _create_tournament(token: str, running: Running) -> Callable[[], Any]:
    client = running.client()
    client.token = token
    request = mpb.CreateTournamentRequest(
        name=f"forged-{uuid.uuid4().hex[:6]}", game="high-card", format=mpb.TOURNAMENT_FORMAT_SWISS
    )
    return lambda: tournaments(client).CreateTournament(request, metadata=client.metadata, timeout=20)


def _who(token: str, running: Running) -> Callable[[], Any]:
    client = running.client()
    client.token = token
    return lambda: client.auth.WhoAmI(auth_pb2.WhoAmIRequest(), metadata=client.metadata, timeout=20)


def test_an_operator_claim_on_a_player_account_grants_nothing(platform: Running) -> None:
    player = platform.player()
    assert player.account is not None
    forged = Tokens(TOKEN_KEY).issue(_Subject(player.account.id, "operator", "operator"), 600)
    assert _status(_create_tournament(forged, platform)) == grpc.StatusCode.PERMISSION_DENIED
    me = _who(forged, platform)()
    assert (me.account.role, me.account.username) == (auth_pb2.ROLE_PLAYER, player.account.username)


def test_a_token_for_an_account_that_does_not_exist_is_unauthenticated(platform: Running) -> None:
    ghost = Tokens(TOKEN_KEY).issue(_Subject(str(uuid.uuid4()), "ghost", "operator"), 600)
    assert _status(_who(ghost, platform)) == grpc.StatusCode.UNAUTHENTICATED
    assert _status(_create_tournament(ghost, platform)) == grpc.StatusCode.UNAUTHENTICATED
    client = platform.client()
    client.token = ghost
    assert _status(lambda: client.create("high-card", join_seat=0)) == grpc.StatusCode.UNAUTHENTICATED


def test_a_token_signed_with_the_old_public_default_key_is_refused(platform: Running) -> None:
    boss = operator(platform)
    assert boss.account is not None
    forged = Tokens(OLD_PUBLIC_DEFAULT_KEY).issue(_Subject(boss.account.id, "operator", "operator"), 600)
    assert _status(_create_tournament(forged, platform)) == grpc.StatusCode.UNAUTHENTICATED


def test_the_real_operator_still_runs_tournaments(platform: Running) -> None:
    boss = operator(platform)
    created = _create_tournament(boss.token, platform)()
    assert created.tournament.id


def test_service_account_names_cannot_be_registered(platform: Running) -> None:
    for name in ("ai-service", "matchmaking-service", "operator"):
        assert _status(lambda n=name: platform.client().register(n)) == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[misc]
