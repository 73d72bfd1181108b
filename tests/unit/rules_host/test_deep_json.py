"""Deeply nested JSON is refused with INVALID_ARGUMENT by the rules host's LiveMatchService, not INTERNAL from a
RecursionError (issue 20, finding 4; the gateway's edge refuses it first, this is the defence in depth): an
action's JSON in Play, a match's options in OpenMatch, both before the match or the store is touched."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest

from gamehall.engine import register
from gamehall.internal.v1 import live_pb2, live_pb2_grpc
from gamehall.runtime.errors import ClientError
from gamehall.runtime.play_stream import PlayStream
from gamehall.runtime.settings import Settings
from gamehall.wire.json_limits import MAX_JSON_DEPTH, check_json_text, json_depth, preview
from gamehall_sdk.v1 import common_pb2
from gamehall_services.rules.app import build_app
from tests.fixtures.high_card import GAME

DEEP = "[" * 5000 + "]" * 5000


@pytest.fixture
async def live() -> AsyncIterator[live_pb2_grpc.LiveMatchServiceStub]:
    register(GAME, replace=True)
    app = build_app(Settings(service="rules-high-card", game="high-card", grpc_port=0))
    port = await app.start(metrics=False)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield live_pb2_grpc.LiveMatchServiceStub(channel)
    await app.stop()


def test_depth_counts_brackets_outside_strings_only() -> None:
    assert json_depth('{"a": [1, {"b": "[[[[{{"}]}') == 3
    assert json_depth('"just a string"') == 0 and json_depth(DEEP) == 5000
    assert json_depth('{"esc": "quote \\" [[[ "}') == 1


def test_check_refuses_deep_then_large_text_with_short_messages() -> None:
    check_json_text("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH, "x")
    with pytest.raises(ClientError) as deep:
        check_json_text("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), "x")
    assert deep.value.code == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(ClientError) as large:
        check_json_text('"' + "a" * 100_000 + '"', "x")
    assert large.value.code == grpc.StatusCode.INVALID_ARGUMENT and len(large.value.message) < 120
    assert large.value.reason == common_pb2.ERROR_REASON_TOO_LARGE and large.value.retry_after is None
    assert preview("z" * 10_000) == f"{'z' * 24!r}… (10000 characters)"


CALLER = live_pb2.Caller(account_id="alice", role="player")


async def test_deep_action_json_is_invalid_argument(live: live_pb2_grpc.LiveMatchServiceStub) -> None:
    play = live_pb2.PlayRequest(match_id="m1", caller=CALLER, request_id="r1", action_json=DEEP)
    plays = PlayStream(live)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await plays.play(play, 10)  # on the play stream, as every move goes
    await plays.close()
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "5000 levels" in (caught.value.details() or "")


async def test_deep_options_json_is_invalid_argument(live: live_pb2_grpc.LiveMatchServiceStub) -> None:
    deep_options = '{"o": ' + DEEP + "}"
    config = common_pb2.MatchConfig(mode="duel", seats=2, options_json=deep_options)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await live.OpenMatch(live_pb2.OpenMatchRequest(match_id="m1", caller=CALLER, config=config))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
