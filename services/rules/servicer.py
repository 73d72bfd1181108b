"""RulesService over one engine: decode the state, call the engine, encode the answer.

Stateless by design: the encoded state arrives in every request and leaves in every
response, so any replica of `rules-<game>` serves any request.
"""

from __future__ import annotations

from typing import Any

import grpc

from gamehall.engine import Game
from gamehall.engine.lookup import action_from_json, legal_by_id
from gamehall.internal.v1 import rules_pb2, rules_pb2_grpc
from gamehall.runtime import metrics
from gamehall.runtime.errors import ClientError
from gamehall.wire import (
    config_from_proto,
    config_to_proto,
    event_to_proto,
    game_to_proto,
    legal_action_to_proto,
    outcome_to_proto,
    parse_json_object,
)
from gamehall.wire.convert import dumps
from gamehall_sdk.v1 import common_pb2


class RulesServicer(rules_pb2_grpc.RulesServiceServicer):
    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.descriptor = game_to_proto(game)
        self.descriptor.view_schema_json = dumps(game.view_schema())  # generated from the view types: no warm-up

    # -- helpers ------------------------------------------------------------------
    def _decode(self, data: bytes) -> Any:
        if not data:
            raise ClientError(grpc.StatusCode.INVALID_ARGUMENT, "state is required", common_pb2.ERROR_REASON_MALFORMED)
        return self.game.decode(data)

    def _seat(self, state: Any, seat: int) -> int:
        seats = self.game.config_of(state).seats
        if not 0 <= seat < seats:
            raise ClientError(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"seat {seat} does not exist (seats 0..{seats - 1})",
                common_pb2.ERROR_REASON_MALFORMED,
            )
        return seat

    def _summary(self, state: Any) -> rules_pb2.StateSummary:
        outcome = self.game.outcome(state)
        summary = rules_pb2.StateSummary(to_act=sorted(self.game.to_act(state)), seats=self.game.config_of(state).seats)
        if outcome is not None:
            summary.outcome.CopyFrom(outcome_to_proto(outcome))
        return summary

    # -- RPCs ---------------------------------------------------------------------
    async def DescribeGame(
        self, request: rules_pb2.DescribeGameRequest, context: Any
    ) -> rules_pb2.DescribeGameResponse:
        if request.skip_view_schema:
            bare = common_pb2.GameDescriptor()
            bare.CopyFrom(self.descriptor)
            bare.view_schema_json = ""
            return rules_pb2.DescribeGameResponse(game=bare)
        return rules_pb2.DescribeGameResponse(game=self.descriptor)

    async def NewMatch(self, request: rules_pb2.NewMatchRequest, context: Any) -> rules_pb2.NewMatchResponse:
        config = self.game.validate_config(config_from_proto(request.config))
        state = self.game.new_match(config, request.seed)
        return rules_pb2.NewMatchResponse(
            state=self.game.encode(state), summary=self._summary(state), config=config_to_proto(config)
        )

    async def LegalActions(
        self, request: rules_pb2.LegalActionsRequest, context: Any
    ) -> rules_pb2.LegalActionsResponse:
        state = self._decode(request.state)
        seat = self._seat(state, request.seat)
        return rules_pb2.LegalActionsResponse(
            actions=[legal_action_to_proto(self.game, state, a) for a in self.game.legal_actions(state, seat)]
        )

    async def Apply(self, request: rules_pb2.ApplyRequest, context: Any) -> rules_pb2.ApplyResponse:
        state = self._decode(request.state)
        seat = self._seat(state, request.seat)
        which = request.WhichOneof("action")
        if which == "action_id":
            action = legal_by_id(self.game, state, seat, request.action_id)
        elif which == "action_json":
            action = action_from_json(self.game, parse_json_object(request.action_json, "action_json", empty_ok=False))
        else:
            raise ClientError(
                grpc.StatusCode.INVALID_ARGUMENT, "give action_id or action_json", common_pb2.ERROR_REASON_MALFORMED
            )
        try:
            next_state, events = self.game.apply(state, seat, action)
        except Exception:
            metrics.ACTIONS_REJECTED.labels(self.game.id).inc()
            raise
        metrics.ACTIONS_APPLIED.labels(self.game.id).inc()
        return rules_pb2.ApplyResponse(
            state=self.game.encode(next_state),
            summary=self._summary(next_state),
            events=[event_to_proto(e) for e in events],
            action=legal_action_to_proto(self.game, state, action),
        )

    async def View(self, request: rules_pb2.ViewRequest, context: Any) -> rules_pb2.ViewResponse:
        state = self._decode(request.state)
        seat = self._seat(state, request.seat) if request.HasField("seat") else None
        view = self.game.view(state, seat)
        return rules_pb2.ViewResponse(view_json=dumps(view), summary=self._summary(state))

    async def DefaultAction(
        self, request: rules_pb2.DefaultActionRequest, context: Any
    ) -> rules_pb2.DefaultActionResponse:
        state = self._decode(request.state)
        seat = self._seat(state, request.seat)
        action = self.game.default_action(state, seat) if seat in self.game.to_act(state) else None
        response = rules_pb2.DefaultActionResponse()
        if action is not None:
            response.action.CopyFrom(legal_action_to_proto(self.game, state, action))
        return response
