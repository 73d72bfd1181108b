"""RulesService over real gRPC sockets, serving the High Card fixture game."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import grpc
import pytest

from gamehall.engine import register
from gamehall.internal.v1 import rules_pb2, rules_pb2_grpc
from gamehall.runtime.errors import read_failure
from gamehall.runtime.settings import Settings
from gamehall_sdk.v1 import common_pb2
from gamehall_services.rules.app import build_app
from tests.fixtures.high_card import GAME


@pytest.fixture
async def rules() -> AsyncIterator[rules_pb2_grpc.RulesServiceStub]:
    register(GAME, replace=True)
    app = build_app(Settings(service="rules-high-card", game="high-card", grpc_port=0))
    port = await app.start(metrics=False)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield rules_pb2_grpc.RulesServiceStub(channel)
    await app.stop()


async def _new(stub: rules_pb2_grpc.RulesServiceStub, seed: int = 3) -> rules_pb2.NewMatchResponse:
    return await stub.NewMatch(
        rules_pb2.NewMatchRequest(config=common_pb2.MatchConfig(mode="duel", seats=2), seed=seed)
    )


async def test_describe_lists_modes_flags_and_action_schema(rules: rules_pb2_grpc.RulesServiceStub) -> None:
    game = (await rules.DescribeGame(rules_pb2.DescribeGameRequest())).game
    assert game.id == "high-card" and [m.id for m in game.modes] == ["duel"]
    assert [f.name for f in game.flags] == ["ties_score"]
    views = json.loads(game.view_schema_json)
    assert {"scores", "hand", "revealed"} <= set(views["properties"])
    schema = json.loads(game.action_schema_json)
    assert {"play", "resign"} <= set(json.dumps(schema).replace('"', " ").split())


async def test_full_match_by_legal_action_ids(rules: rules_pb2_grpc.RulesServiceStub) -> None:
    created = await _new(rules)
    assert json.loads(created.config.flags_json) == {"ties_score": False}
    state, summary = created.state, created.summary
    while not summary.HasField("outcome"):
        for seat in list(summary.to_act):
            legal = (await rules.LegalActions(rules_pb2.LegalActionsRequest(state=state, seat=seat))).actions
            play = next(a for a in legal if a.id.startswith("play"))
            applied = await rules.Apply(rules_pb2.ApplyRequest(state=state, seat=seat, action_id=play.id))
            assert applied.action.id == play.id
            state, summary = applied.state, applied.summary
            if summary.HasField("outcome"):
                break
    assert sorted(summary.outcome.ranks) in ([1, 1], [1, 2])
    spectator = json.loads((await rules.View(rules_pb2.ViewRequest(state=state))).view_json)
    assert "hand" not in spectator and sum(spectator["scores"]) >= 1


async def test_views_hide_the_other_hand(rules: rules_pb2_grpc.RulesServiceStub) -> None:
    created = await _new(rules)
    mine = json.loads((await rules.View(rules_pb2.ViewRequest(state=created.state, seat=0))).view_json)
    theirs = json.loads((await rules.View(rules_pb2.ViewRequest(state=created.state, seat=1))).view_json)
    assert mine["hand"] != theirs["hand"]
    assert set(map(str, theirs["hand"])).isdisjoint(json.dumps(mine["hand"]).strip("[]").split(","))


async def test_apply_by_json_and_default_action(rules: rules_pb2_grpc.RulesServiceStub) -> None:
    created = await _new(rules)
    default = await rules.DefaultAction(rules_pb2.DefaultActionRequest(state=created.state, seat=0))
    assert default.HasField("action")
    applied = await rules.Apply(
        rules_pb2.ApplyRequest(state=created.state, seat=0, action_json=default.action.action_json)
    )
    assert list(applied.summary.to_act) == [1]


@pytest.mark.parametrize(
    ("make", "code", "reason", "fragment"),
    [
        (
            lambda s: rules_pb2.ApplyRequest(state=s, seat=0, action_id="play(card=99)"),
            grpc.StatusCode.FAILED_PRECONDITION,
            common_pb2.ERROR_REASON_ILLEGAL_ACTION,
            "no legal action",
        ),
        (
            lambda s: rules_pb2.ApplyRequest(state=s, seat=0, action_json='{"kind":"fly"}'),
            grpc.StatusCode.INVALID_ARGUMENT,
            common_pb2.ERROR_REASON_MALFORMED,
            "malformed action",
        ),
        (
            lambda s: rules_pb2.ApplyRequest(state=s, seat=0, action_json="{not json"),
            grpc.StatusCode.INVALID_ARGUMENT,
            common_pb2.ERROR_REASON_MALFORMED,
            "not valid JSON",
        ),
        (
            lambda s: rules_pb2.ApplyRequest(state=s, seat=0),
            grpc.StatusCode.INVALID_ARGUMENT,
            common_pb2.ERROR_REASON_MALFORMED,
            "action_id or action_json",
        ),
        (
            lambda s: rules_pb2.ApplyRequest(state=s, seat=7, action_id="resign"),
            grpc.StatusCode.INVALID_ARGUMENT,
            common_pb2.ERROR_REASON_MALFORMED,
            "seat 7 does not exist",
        ),
        (
            lambda s: rules_pb2.ApplyRequest(state=b"GH\x00\x01garbage", seat=0, action_id="resign"),
            grpc.StatusCode.INVALID_ARGUMENT,
            common_pb2.ERROR_REASON_CORRUPT_STATE,
            "corrupt",
        ),
        (
            lambda s: rules_pb2.ApplyRequest(state=b"", seat=0, action_id="resign"),
            grpc.StatusCode.INVALID_ARGUMENT,
            common_pb2.ERROR_REASON_MALFORMED,
            "state is required",
        ),
        (
            lambda s: rules_pb2.LegalActionsRequest(state=b"XX\x00\x01", seat=0),
            grpc.StatusCode.INVALID_ARGUMENT,
            common_pb2.ERROR_REASON_CORRUPT_STATE,
            "not a gamehall state",
        ),
    ],
)
async def test_bad_requests_get_clear_statuses(
    rules: rules_pb2_grpc.RulesServiceStub,
    make,
    code,
    reason,
    fragment,  # type: ignore[no-untyped-def]
) -> None:
    created = await _new(rules)
    request = make(created.state)
    call = rules.Apply if isinstance(request, rules_pb2.ApplyRequest) else rules.LegalActions
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await call(request)
    assert info.value.code() == code, info.value.details()
    assert fragment in info.value.details()
    assert read_failure(info.value).reason == reason  # type: ignore[union-attr]


async def test_not_your_turn_and_bad_config(rules: rules_pb2_grpc.RulesServiceStub) -> None:
    created = await _new(rules)
    first = await rules.Apply(rules_pb2.ApplyRequest(state=created.state, seat=0, action_id="resign"))
    with pytest.raises(grpc.aio.AioRpcError) as over:
        await rules.Apply(rules_pb2.ApplyRequest(state=first.state, seat=1, action_id="resign"))
    assert over.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(grpc.aio.AioRpcError) as bad:
        await rules.NewMatch(rules_pb2.NewMatchRequest(config=common_pb2.MatchConfig(mode="duel", seats=3)))
    assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "takes [2] seats" in bad.value.details()
    with pytest.raises(grpc.aio.AioRpcError) as flag:
        await rules.NewMatch(
            rules_pb2.NewMatchRequest(config=common_pb2.MatchConfig(mode="duel", seats=2, flags_json='{"nope": 1}'))
        )
    assert flag.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "nope" in flag.value.details()
