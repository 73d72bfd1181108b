"""LiveMatchService: validate, call the replica's `MatchOwner`, wrap the answer (errors map themselves)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import grpc

from gamehall.internal.v1 import live_pb2, live_pb2_grpc
from gamehall.matches import Caller
from gamehall.matches.owner import MatchOwner
from gamehall.runtime import play_stream
from gamehall.runtime.errors import ClientError
from gamehall.runtime.interceptor import CarriedCalls
from gamehall.wire import parse_json_object
from gamehall.wire.convert import dumps
from gamehall_sdk.v1 import common_pb2

SERVICE_PATH = f"/{live_pb2.DESCRIPTOR.services_by_name['LiveMatchService'].full_name}"
PLAY_METHOD = f"{SERVICE_PATH}/Play"


def _caller(request: Any) -> Caller:
    if not request.HasField("caller") or (not request.caller.account_id and request.caller.role != "operator"):
        raise ClientError(grpc.StatusCode.INVALID_ARGUMENT, "caller is required", common_pb2.ERROR_REASON_MALFORMED)
    return Caller(account_id=request.caller.account_id, role=request.caller.role or "player")


def _seat(request: Any) -> int | None:
    return int(request.seat) if request.HasField("seat") else None


class LiveMatchServicer(live_pb2_grpc.LiveMatchServiceServicer):
    def __init__(
        self,
        matches: MatchOwner,
        service: str = "rules",
        draining: asyncio.Event | None = None,
        linger: float = play_stream.LINGER_SECONDS,
    ) -> None:
        self.matches = matches
        self.draining = draining
        self.linger = linger
        """Seconds the answers of a play stream linger under load (`play_stream.Linger`)."""
        self.carried = CarriedCalls(service, PLAY_METHOD)
        """Each call of a play stream is metered and logged under its own name (`<service>/Play`, `/GetView`,
        `/ListLegalActions`), as a unary method would be."""
        self.reads = play_stream.Reads(
            self.get_view,
            CarriedCalls(service, f"{SERVICE_PATH}/GetView"),
            self.list_legal_actions,
            CarriedCalls(service, f"{SERVICE_PATH}/ListLegalActions"),
        )

    async def OpenMatch(self, request: live_pb2.OpenMatchRequest, context: Any) -> live_pb2.OpenMatchResponse:
        return await self.matches.open(request, _caller(request))

    async def JoinMatch(self, request: live_pb2.JoinMatchRequest, context: Any) -> live_pb2.JoinMatchResponse:
        return await self.matches.join(request.match_id, _caller(request), _seat(request), request.request_id)

    def PlayStream(
        self, requests: AsyncIterator[live_pb2.PlayStreamRequest], context: Any
    ) -> AsyncIterator[live_pb2.PlayStreamResponse]:
        return play_stream.serve(
            requests, self._play, self.carried, self.draining, self.linger, reads=self.reads
        )

    async def _play(self, request: live_pb2.PlayRequest) -> live_pb2.PlayResponse:
        which = request.WhichOneof("action")
        if which is None:
            raise ClientError(
                grpc.StatusCode.INVALID_ARGUMENT, "give action_id or action_json", common_pb2.ERROR_REASON_MALFORMED
            )
        if not request.request_id:
            raise ClientError(
                grpc.StatusCode.INVALID_ARGUMENT, "request_id is required", common_pb2.ERROR_REASON_MALFORMED
            )
        result = await self.matches.play(
            request.match_id,
            _caller(request),
            _seat(request),
            request.request_id,
            int(request.expected_version) if request.HasField("expected_version") else None,
            action_id=request.action_id,
            action_json=parse_json_object(request.action_json, "action_json", empty_ok=False)
            if which == "action_json"
            else None,
        )
        return live_pb2.PlayResponse(result=result)

    async def get_view(self, request: live_pb2.GetViewRequest) -> live_pb2.GetViewResponse:
        at = int(request.at_version) if request.HasField("at_version") else None
        view = await self.matches.view(request.match_id, _caller(request), _seat(request), at)
        return live_pb2.GetViewResponse(view=view)

    async def list_legal_actions(self, request: live_pb2.ListLegalActionsRequest) -> live_pb2.ListLegalActionsResponse:
        result = await self.matches.legal(request.match_id, _caller(request), _seat(request))
        return live_pb2.ListLegalActionsResponse(result=result)

    async def GetReplay(self, request: live_pb2.GetReplayRequest, context: Any) -> live_pb2.GetReplayResponse:
        result, next_version = await self.matches.replay(
            request.match_id, _caller(request), int(request.from_version), int(request.page_size)
        )
        return live_pb2.GetReplayResponse(result=result, next_version=next_version)

    async def Close(self, request: live_pb2.CloseRequest, context: Any) -> live_pb2.CloseResponse:
        outcome = parse_json_object(request.outcome_json, "outcome_json") or None
        expected = int(request.expected_version) if request.HasField("expected_version") else None
        version = await self.matches.close_match(request.match_id, request.status, outcome, expected)
        return live_pb2.CloseResponse(version=version)

    async def LeaveMatch(self, request: live_pb2.LeaveMatchRequest, context: Any) -> live_pb2.LeaveMatchResponse:
        return await self.matches.leave(
            request.match_id, _caller(request), request.why or "resigned", request.request_id
        )

    async def GetHead(self, request: live_pb2.GetHeadRequest, context: Any) -> live_pb2.GetHeadResponse:
        facts, version = await self.matches.head(request.match_id)
        return live_pb2.GetHeadResponse(
            version=version,
            status=facts.status,
            outcome_json=dumps(dict(facts.outcome)) if facts.outcome else "",
            clock_state_json=dumps(dict(facts.clock_state)) if facts.clock_state else "",
        )
