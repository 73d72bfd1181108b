"""A refused turn is dropped as stale only when the match moved past it; refused while still due (the owner's
"kept changing; retry"), it is retried, since nobody would announce it again (the seat would wait to be abandoned)."""

from __future__ import annotations

from typing import Any, cast

import grpc
import pytest

from gamehall.engine import get_game
from gamehall.internal.v1 import live_pb2
from gamehall.runtime.errors import ClientError
from gamehall.wire.matchlog import bot_turn
from gamehall_sdk.v1 import match_pb2
from gamehall_services.ai.worker import Turn, TurnWorker

GAME = "grimmoir"


class Owner:
    """A match's owner that refuses every Play with `refusal` and shows the match at `version`, `to_act`."""

    def __init__(self, refusal: ClientError, version: int, to_act: list[int]) -> None:
        self.refusal = refusal
        self.view = match_pb2.WatchMatchResponse(version=version, to_act=to_act)
        self.calls: list[str] = []

    async def on_owner(self, match_id: str, method: str, request: Any) -> Any:
        self.calls.append(method)
        if method == "Play":
            raise self.refusal
        assert method == "GetView"
        return live_pb2.GetViewResponse(view=self.view)


def _turn(version: int = 4) -> Turn:
    game = get_game(GAME)
    state = game.new_match(game.configure(), seed=7)
    seat = min(game.to_act(state))
    work = bot_turn(game, state, seat, "random", 0)
    legal = tuple((c.id, c.action_json) for c in work.legal)
    return Turn("m-1", GAME, version, seat, "random", 0, work.view_json, legal)


def _worker(owner: Owner) -> TurnWorker:
    return TurnWorker(cast(Any, {GAME: owner}), "ai")


KEPT_CHANGING = ClientError(grpc.StatusCode.ABORTED, "match m-1 kept changing; retry the request")


async def test_a_turn_refused_while_still_due_is_retried_not_dropped() -> None:
    turn = _turn()
    owner = Owner(KEPT_CHANGING, turn.version, [turn.seat])
    with pytest.raises(ClientError) as retried:
        await _worker(owner).play(turn)
    assert retried.value.code is grpc.StatusCode.UNAVAILABLE, "retryable: the bus naks it and it comes again"
    assert owner.calls == ["Play", "GetView"]


@pytest.mark.parametrize(
    ("version_delta", "to_act_other"),
    [(1, False), (0, True)],
    ids=["another move came first", "the seat is no longer to act"],
)
async def test_a_turn_the_match_moved_past_is_stale(version_delta: int, to_act_other: bool) -> None:
    turn = _turn()
    conflict = ClientError(grpc.StatusCode.ABORTED, "expected version 4, the match is at 5")
    owner = Owner(conflict, turn.version + version_delta, [1 - turn.seat] if to_act_other else [turn.seat])
    assert await _worker(owner).play(turn) == "stale"


async def test_a_turn_of_an_ended_match_is_stale() -> None:
    turn = _turn()
    owner = Owner(ClientError(grpc.StatusCode.FAILED_PRECONDITION, "match m-1 is finished"), turn.version, [])
    assert await _worker(owner).play(turn) == "stale"
