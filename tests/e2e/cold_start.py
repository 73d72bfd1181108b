"""The first calls a client makes to a platform the moment it reports ready (issue 20, finding 3: after
`make run`, the first ListGames once ran into its deadline for minutes while each rules host played sample
matches to build its view schema, and the first CreateMatch took 21 s). Nothing a client needs may be
computed lazily on a request path, so each of these answers OK within an ordinary deadline."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc

from gamehall_sdk.v1 import catalog_pb2, common_pb2, match_pb2
from tests.e2e.client import Client

FIRST_CALL_DEADLINE_SECONDS = 10.0
"""Far below the minutes the finding measured, far above a served call on a loaded 2-core machine."""


@dataclass(frozen=True)
class FirstCall:
    what: str
    code: grpc.StatusCode
    seconds: float


def first_calls(address: str) -> list[FirstCall]:
    """Register, ListGames (every page), then CreateMatch of every hosted game, each once and with
    `FIRST_CALL_DEADLINE_SECONDS`: what a new client does first."""
    calls: list[FirstCall] = []

    def timed(what: str, call: Callable[[], Any]) -> Any:
        started = time.monotonic()
        try:
            result = call()
        except grpc.RpcError as exc:
            calls.append(FirstCall(what, exc.code(), time.monotonic() - started))  # type: ignore[attr-defined]
            return None
        calls.append(FirstCall(what, grpc.StatusCode.OK, time.monotonic() - started))
        return result

    with grpc.insecure_channel(address) as channel:
        client = Client(channel)
        if timed("Register", client.register) is None:
            return calls
        games: list[str] = []
        request = catalog_pb2.ListGamesRequest()
        while True:
            page = timed(
                "ListGames",
                lambda: client.catalog.ListGames(
                    request, metadata=client.metadata, timeout=FIRST_CALL_DEADLINE_SECONDS
                ),
            )
            if page is None:
                return calls
            games += [g.id for g in page.games]
            if not page.next_page_token:
                break
            request.page_token = page.next_page_token
        for game in games:
            create = match_pb2.CreateMatchRequest(game=game, config=common_pb2.MatchConfig(), join_seat=0)
            timed(f"CreateMatch {game}", lambda r=create: client.call("CreateMatch", r, FIRST_CALL_DEADLINE_SECONDS))
    return calls
