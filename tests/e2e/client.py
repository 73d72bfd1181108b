"""A small synchronous client of the public API for tests: one channel, a bearer token per player."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc

from gamehall_sdk.v1 import auth_pb2, auth_pb2_grpc, catalog_pb2_grpc, common_pb2, match_pb2, match_pb2_grpc

PASSWORD = "correct horse battery staple"


@dataclass
class Client:
    channel: grpc.Channel
    token: str = ""
    account: auth_pb2.Account | None = None
    auth: Any = field(init=False)
    catalog: Any = field(init=False)
    matches: Any = field(init=False)

    def __post_init__(self) -> None:
        self.auth = auth_pb2_grpc.AuthServiceStub(self.channel)
        self.catalog = catalog_pb2_grpc.CatalogServiceStub(self.channel)
        self.matches = match_pb2_grpc.MatchServiceStub(self.channel)

    @property
    def metadata(self) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {self.token}"),)

    def register(self, username: str | None = None) -> Client:
        name = username or f"p-{uuid.uuid4().hex[:10]}"
        reply = self.auth.Register(auth_pb2.RegisterRequest(username=name, password=PASSWORD))
        self.token, self.account = reply.token, reply.account
        return self

    def call(self, method: str, request: Any, timeout: float = 20.0) -> Any:
        return getattr(self.matches, method)(request, metadata=self.metadata, timeout=timeout)

    def create(self, game: str, mode: str = "", seats: int = 0, **kwargs: Any) -> match_pb2.Match:
        request = match_pb2.CreateMatchRequest(
            game=game, config=common_pb2.MatchConfig(mode=mode, seats=seats), **kwargs
        )
        return self.call("CreateMatch", request).match

    def join(self, match_id: str, seat: int | None = None) -> match_pb2.JoinMatchResponse:
        request = match_pb2.JoinMatchRequest(match_id=match_id)
        if seat is not None:
            request.seat = seat
        return self.call("JoinMatch", request)

    def view(self, match_id: str) -> match_pb2.GetViewResponse:
        return self.call("GetView", match_pb2.GetViewRequest(match_id=match_id))

    def legal(self, match_id: str) -> match_pb2.ListLegalActionsResponse:
        return self.call("ListLegalActions", match_pb2.ListLegalActionsRequest(match_id=match_id))

    def submit(self, match_id: str, action_id: str, **kwargs: Any) -> match_pb2.SubmitActionResponse:
        request = match_pb2.SubmitActionRequest(match_id=match_id, action_id=action_id, **kwargs)
        return self.call("SubmitAction", request)

    def match(self, match_id: str) -> match_pb2.Match:
        return self.call("GetMatch", match_pb2.GetMatchRequest(match_id=match_id)).match

    def replay(self, match_id: str, page_size: int = 0) -> match_pb2.GetReplayResponse:
        """Every page of the replay joined into one response (the initial view, every step, the last page's match)."""
        request = match_pb2.GetReplayRequest(match_id=match_id, page_size=page_size)
        joined = match_pb2.GetReplayResponse()
        while True:
            page = self.call("GetReplay", request)
            joined.initial_view_json = joined.initial_view_json or page.initial_view_json
            joined.match.CopyFrom(page.match)
            joined.complete = page.complete
            joined.steps.extend(page.steps)
            if not page.next_page_token:
                return joined
            request.page_token = page.next_page_token

    def watch(self, match_id: str, **kwargs: Any) -> Iterator[match_pb2.WatchMatchResponse]:
        request = match_pb2.WatchMatchRequest(match_id=match_id, **kwargs)
        return self.matches.WatchMatch(request, metadata=self.metadata, timeout=120)
