"""A rules host over real gRPC sockets, serving the High Card fixture game: RulesService describes the game, and
LiveMatchService refuses malformed requests with clear statuses before any match or store is touched (the
refusals of a legal-looking move, illegal or out of turn, need a match: tests/unit/matches/test_live.py)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import grpc
import pytest

from gamehall.engine import register
from gamehall.internal.v1 import live_pb2, live_pb2_grpc, rules_pb2, rules_pb2_grpc
from gamehall.runtime.errors import read_failure
from gamehall.runtime.play_stream import PlayStream
from gamehall.runtime.settings import Settings
from gamehall_sdk.v1 import common_pb2
from gamehall_services.rules.app import build_app
from tests.fixtures.high_card import GAME

CALLER = live_pb2.Caller(account_id="alice", role="player")
MALFORMED, BAD_CONFIG = common_pb2.ERROR_REASON_MALFORMED, common_pb2.ERROR_REASON_BAD_CONFIG


@dataclass
class Host:
    rules: rules_pb2_grpc.RulesServiceStub
    live: live_pb2_grpc.LiveMatchServiceStub


@pytest.fixture
async def host() -> AsyncIterator[Host]:
    register(GAME, replace=True)
    app = build_app(Settings(service="rules-high-card", game="high-card", grpc_port=0))
    port = await app.start(metrics=False)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield Host(rules_pb2_grpc.RulesServiceStub(channel), live_pb2_grpc.LiveMatchServiceStub(channel))
    await app.stop()


async def test_describe_lists_modes_flags_and_action_schema(host: Host) -> None:
    game = (await host.rules.DescribeGame(rules_pb2.DescribeGameRequest())).game
    assert game.id == "high-card" and [m.id for m in game.modes] == ["duel"]
    assert [f.name for f in game.flags] == ["ties_score"]
    views = json.loads(game.view_schema_json)
    assert {"scores", "hand", "revealed"} <= set(views["properties"])
    schema = json.loads(game.action_schema_json)
    assert {"play", "resign"} <= set(json.dumps(schema).replace('"', " ").split())
    bare = (await host.rules.DescribeGame(rules_pb2.DescribeGameRequest(skip_view_schema=True))).game
    assert bare.id == "high-card" and bare.view_schema_json == ""


@pytest.mark.parametrize(
    ("request_", "fragment", "reason"),
    [
        (live_pb2.PlayRequest(match_id="m1", caller=CALLER, request_id="r1"), "action_id or action_json", MALFORMED),
        (live_pb2.PlayRequest(match_id="m1", caller=CALLER, action_id="resign"), "request_id is required", MALFORMED),
        (
            live_pb2.PlayRequest(match_id="m1", caller=CALLER, request_id="r1", action_json="{not json"),
            "not valid JSON",
            MALFORMED,
        ),
        (
            live_pb2.OpenMatchRequest(
                match_id="m1", caller=CALLER, config=common_pb2.MatchConfig(mode="duel", seats=3)
            ),
            "takes [2] seats",
            BAD_CONFIG,
        ),
        (
            live_pb2.OpenMatchRequest(
                match_id="m1",
                caller=CALLER,
                config=common_pb2.MatchConfig(mode="duel", seats=2, flags_json='{"nope": 1}'),
            ),
            "nope",
            BAD_CONFIG,
        ),
    ],
)
async def test_malformed_requests_are_invalid_argument(
    host: Host, request_: object, fragment: str, reason: common_pb2.ErrorReason
) -> None:
    plays = PlayStream(host.live)
    with pytest.raises(grpc.aio.AioRpcError) as info:
        if isinstance(request_, live_pb2.PlayRequest):
            await plays.play(request_, 10)  # on the play stream, as every move goes
        else:
            await host.live.OpenMatch(request_)
    await plays.close()
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, info.value.details()
    assert fragment in (info.value.details() or "")
    assert read_failure(info.value).reason == reason  # type: ignore[union-attr]
