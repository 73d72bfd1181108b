"""Shared steps of the matchmaking and tournament e2e tests: stubs, the operator, waiting."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import grpc

from gamehall_sdk.v1 import auth_pb2, matchmaking_pb2_grpc, tournament_pb2_grpc
from tests.e2e.client import Client
from tests.e2e.conftest import OPERATOR_PASSWORD, Running

T = TypeVar("T")


def matchmaking(client: Client) -> Any:
    return matchmaking_pb2_grpc.MatchmakingServiceStub(client.channel)


def tournaments(client: Client) -> Any:
    return tournament_pb2_grpc.TournamentServiceStub(client.channel)


def operator(running: Running) -> Client:
    client = running.client()
    reply = client.auth.Login(auth_pb2.LoginRequest(username="operator", password=OPERATOR_PASSWORD))
    client.token, client.account = reply.token, reply.account
    return client


def wait_for(probe: Callable[[], T | None], timeout: float = 60.0, what: str = "condition") -> T:
    """Poll `probe` until it returns something truthy (retrying while a restarted service comes back)."""
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            value = probe()
        except grpc.RpcError as exc:
            if exc.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                raise
            last = exc
            value = None
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what} ({last})")
