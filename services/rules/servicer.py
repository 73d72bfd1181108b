"""RulesService over one engine: the descriptor of the game this host serves.

Stateless by design, so any replica of `rules-<game>` answers (the gateway's catalog asks one); live
matches are served by `LiveMatchService` (live_servicer.py), on each match's owner.
"""

from __future__ import annotations

from typing import Any

from gamehall.engine import Game
from gamehall.internal.v1 import rules_pb2, rules_pb2_grpc
from gamehall.wire import game_to_proto
from gamehall.wire.convert import dumps
from gamehall_sdk.v1 import common_pb2


class RulesServicer(rules_pb2_grpc.RulesServiceServicer):
    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.descriptor = game_to_proto(game)
        self.descriptor.view_schema_json = dumps(game.view_schema())  # generated from the view types: no warm-up

    async def DescribeGame(
        self, request: rules_pb2.DescribeGameRequest, context: Any
    ) -> rules_pb2.DescribeGameResponse:
        if request.skip_view_schema:
            bare = common_pb2.GameDescriptor()
            bare.CopyFrom(self.descriptor)
            bare.view_schema_json = ""
            return rules_pb2.DescribeGameResponse(game=bare)
        return rules_pb2.DescribeGameResponse(game=self.descriptor)
