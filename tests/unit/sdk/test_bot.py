"""The bot loop's turn: decide on a consistent view, submit with its version, shrug off a lost race."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest

from gamehall_sdk import IllegalAction, LegalAction, LegalActions, NotYourTurn, VersionConflict, View, take_turn
from gamehall_sdk.bot import random_policy

PLAY = LegalAction("play-3", "Play 3", {"kind": "play", "card": 3})
RESIGN = LegalAction("resign", "Resign", {"kind": "resign"})


@dataclass
class FakeMatches:
    legal_version: int = 4
    view_version: int = 4
    actions: tuple[LegalAction, ...] = (PLAY, RESIGN)
    submit_error: BaseException | None = None
    submitted: list[tuple[Any, ...]] = field(default_factory=list)

    async def legal(self, match_id: str, seat: int | None = None) -> LegalActions:
        return LegalActions(self.legal_version, seat or 0, self.actions)

    async def view(self, match_id: str, seat: int | None = None) -> View:
        return View(self.view_version, seat, {"hand": [3]}, (seat or 0,), None)

    async def submit(
        self, match_id: str, seat: int | None, action: Any, *, expected_version: int | None = None
    ) -> None:
        self.submitted.append((match_id, seat, action, expected_version))
        if self.submit_error is not None:
            raise self.submit_error


@dataclass
class FakeHall:
    matches: FakeMatches


def _error(kind: type[Exception]) -> Exception:
    return kind(grpc.StatusCode.ABORTED, 0, "moved on")


async def test_submits_the_policy_choice_at_the_legal_version() -> None:
    hall = FakeHall(FakeMatches())
    seen: list[tuple[View, LegalActions]] = []

    async def policy(view: View, legal: LegalActions) -> LegalAction:  # an async policy is awaited
        seen.append((view, legal))
        return legal[0]

    assert await take_turn(hall, "m1", 1, policy) is True  # type: ignore[arg-type]
    assert hall.matches.submitted == [("m1", 1, PLAY, 4)]
    assert seen[0][0].data == {"hand": [3]} and len(seen[0][1]) == 2


@pytest.mark.parametrize("error", [VersionConflict, NotYourTurn])
async def test_a_lost_race_is_not_an_error(error: type[Exception]) -> None:
    hall = FakeHall(FakeMatches(submit_error=_error(error)))
    assert await take_turn(hall, "m1", 0, random_policy(random.Random(0))) is False  # type: ignore[arg-type]
    assert len(hall.matches.submitted) == 1


async def test_other_errors_propagate() -> None:
    hall = FakeHall(FakeMatches(submit_error=_error(IllegalAction)))
    with pytest.raises(IllegalAction):
        await take_turn(hall, "m1", 0, random_policy(random.Random(0)))  # type: ignore[arg-type]


async def test_no_submit_when_it_may_not_act_or_the_reads_disagree() -> None:
    idle = FakeHall(FakeMatches(actions=()))
    moved = FakeHall(FakeMatches(legal_version=4, view_version=5))
    policy = random_policy(random.Random(0))
    assert await take_turn(idle, "m1", 0, policy) is False  # type: ignore[arg-type]
    assert await take_turn(moved, "m1", 0, policy) is False  # type: ignore[arg-type]
    assert idle.matches.submitted == moved.matches.submitted == []


def test_random_policy_never_resigns_with_another_choice() -> None:
    policy = random_policy(random.Random(3))
    view = View(0, 0, {}, (0,), None)
    picks = {policy(view, LegalActions(0, 0, (PLAY, RESIGN))).id for _ in range(50)}
    assert picks == {PLAY.id}
    assert policy(view, LegalActions(0, 0, (RESIGN,))) == RESIGN
