"""Deeply nested JSON is refused with INVALID_ARGUMENT by the rules host, not INTERNAL from a
RecursionError (issue 20, finding 4; the gateway's edge refuses it first, this is the defence in depth)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest

from gamehall.engine import register
from gamehall.internal.v1 import rules_pb2, rules_pb2_grpc
from gamehall.runtime.errors import ClientError
from gamehall.runtime.settings import Settings
from gamehall.wire.json_limits import MAX_JSON_DEPTH, check_json_text, json_depth, preview
from gamehall_sdk.v1 import common_pb2
from gamehall_services.rules.app import build_app
from tests.fixtures.high_card import GAME

DEEP = "[" * 5000 + "]" * 5000


@pytest.fixture
async def rules() -> AsyncIterator[rules_pb2_grpc.RulesServiceStub]:
    register(GAME, replace=True)
    app = build_app(Settings(service="rules-high-card", game="high-card", grpc_port=0))
    port = await app.start(metrics=False)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield rules_pb2_grpc.RulesServiceStub(channel)
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


async def test_deep_action_json_is_invalid_argument(rules: rules_pb2_grpc.RulesServiceStub) -> None:
    created = await rules.NewMatch(rules_pb2.NewMatchRequest(config=common_pb2.MatchConfig(mode="duel", seats=2)))
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await rules.Apply(rules_pb2.ApplyRequest(state=created.state, seat=0, action_json=DEEP))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "5000 levels" in (caught.value.details() or "")


async def test_deep_options_json_is_invalid_argument(rules: rules_pb2_grpc.RulesServiceStub) -> None:
    deep_options = '{"o": ' + DEEP + "}"
    config = common_pb2.MatchConfig(mode="duel", seats=2, options_json=deep_options)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await rules.NewMatch(rules_pb2.NewMatchRequest(config=config))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
