"""Play one seat of a match to its end with a policy: the loop every bot writer needs.

The seat waits for its turn on the watch stream, reads its view and legal actions, asks the
policy, and submits with `expected_version`; when the match moved meanwhile (VersionConflict,
NotYourTurn) it simply waits for the next update and decides again.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import grpc

from gamehall_sdk.errors import DeadlineExceeded, GamehallError, MatchOver, NotYourTurn, Unavailable, VersionConflict
from gamehall_sdk.models import LegalAction, LegalActions, View
from gamehall_sdk.v1 import match_pb2

if TYPE_CHECKING:
    from gamehall_sdk.client import Gamehall

Policy = Callable[[View, LegalActions], LegalAction | Awaitable[LegalAction]]
"""Chooses the action to play from the seat's view and legal actions (sync or async)."""

ENDED = (match_pb2.MATCH_STATUS_FINISHED, match_pb2.MATCH_STATUS_ABORTED)
RECONNECT_DELAY = 0.25
RECONNECT_MAX_DELAY = 4.0
"""Reopening a dropped watch waits 0.25, 0.5, 1, 2, 4, 4... s: a restarting service gets time to come back."""
MAX_RECONNECTS = 8
"""Failed reopenings in a row before `play_seat` gives up: about 20 s of outage. A gateway SIGKILLed in the soak on
a loaded machine answered again after up to 5.3 s (persistence 6.5 s), and the channel itself reconnects up to
`CHANNEL_OPTIONS`' backoff after that."""


def random_policy(rng: random.Random) -> Policy:
    """A policy playing a uniformly random legal action, never resigning when anything else is legal."""

    def choose(view: View, legal: LegalActions) -> LegalAction:
        choices = [a for a in legal if a.kind != "resign" and a.id != "resign"] or list(legal)
        return rng.choice(choices)

    return choose


async def _decide(policy: Policy, view: View, legal: LegalActions) -> LegalAction:
    chosen = policy(view, legal)
    return await chosen if inspect.isawaitable(chosen) else chosen


async def take_turn(hall: Gamehall, match_id: str, seat: int, policy: Policy) -> bool:
    """Play one action if `seat` may act now; False when it may not or the match moved first."""
    legal = await hall.matches.legal(match_id, seat)
    if not legal.actions:
        return False
    view = await hall.matches.view(match_id, seat)
    if view.finished or view.version != legal.version:
        return False  # the match moved between the two reads: decide on the next update
    action = await _decide(policy, view, legal)
    try:
        await hall.matches.submit(match_id, seat, action, expected_version=legal.version)
    except (VersionConflict, NotYourTurn):
        return False
    return True


async def play_seat(
    hall: Gamehall,
    match_id: str,
    seat: int,
    policy: Policy,
    *,
    max_reconnects: int = MAX_RECONNECTS,
    stream: bool = True,
) -> match_pb2.Match:
    """Play `seat` until the match ends, then return the final match record.

    On the seat's play stream (`stream=True`, MatchService.PlaySeat: a move is one round trip), else with the
    unary calls on the watch stream. A dropped stream is reopened (the play stream from the last version seen),
    waiting longer before each attempt (`RECONNECT_DELAY` doubling up to `RECONNECT_MAX_DELAY`); the play stream
    gives up after `max_reconnects` failures in a row with the match not moving (see `play_seat_stream`), the
    watch loop after `max_reconnects` reopenings in all.
    """
    if stream:
        return await play_seat_stream(hall, match_id, seat, policy, max_reconnects=max_reconnects)
    reconnects = 0
    while True:
        try:
            async with contextlib.aclosing(hall.matches.watch(match_id, seat)) as updates:
                async for update in updates:
                    if update.finished:
                        break
                    if seat in update.to_act:
                        await take_turn(hall, match_id, seat, policy)
        except MatchOver:
            pass
        except Unavailable:
            if reconnects >= max_reconnects:
                raise
        match = await hall.matches.get(match_id)
        if match.status in ENDED:
            return match
        reconnects += 1
        if reconnects > max_reconnects:
            ended = f"the watch of match {match_id} kept ending before the match did"
            raise Unavailable(grpc.StatusCode.UNAVAILABLE, "UNAVAILABLE", ended)
        await asyncio.sleep(min(RECONNECT_MAX_DELAY, RECONNECT_DELAY * 2 ** (reconnects - 1)))


@dataclass
class _Resume:
    """Where a seat's play stream resumes, and how many reopenings in a row the match has not moved across."""

    seen: int = 0
    failures: int = 0

    def heard(self, version: int) -> None:
        """An update at `version`: a version past the last one seen means the match moved, and the run of
        failed reopenings ends (max_reconnects bounds an outage, not a match's number of faults)."""
        if version > self.seen:
            self.failures = 0
        self.seen = max(self.seen, version)


async def _play_on_stream(hall: Gamehall, match_id: str, seat: int, policy: Policy, at: _Resume) -> None:
    """Play one play stream of the seat until it ends (with the match, or dropped: the error propagates)."""
    async with hall.matches.play_stream(match_id, seat, from_version=at.seen) as plays:
        async for turn in plays:
            at.heard(turn.version)
            if turn.finished:
                return
            if turn.legal is not None and turn.legal.actions:
                action = await _decide(policy, turn, turn.legal)
                with contextlib.suppress(VersionConflict, NotYourTurn, MatchOver):
                    await plays.act(action, expected_version=turn.version)


async def play_seat_stream(
    hall: Gamehall, match_id: str, seat: int, policy: Policy, *, max_reconnects: int = MAX_RECONNECTS
) -> match_pb2.Match:
    """`play_seat` on the seat's play stream: each update that carries legal actions is answered on the stream
    with the policy's choice at that version; a move that lost a race (VersionConflict, NotYourTurn) waits for
    the next update.

    A stream that drops (Unavailable, or an action refused Unavailable or DeadlineExceeded: the platform is
    restarting) is reopened from the last version seen, the gateway then giving back a turn the seat still owes.
    A reopening that fails, or reading the match meanwhile, is one failure; after `max_reconnects` failures in a
    row with the match not moving, the last error is raised. Waits `RECONNECT_DELAY` doubling up to
    `RECONNECT_MAX_DELAY` before each attempt, so a gateway restarting for several seconds is waited out."""
    at = _Resume()
    while True:
        try:
            with contextlib.suppress(MatchOver):
                await _play_on_stream(hall, match_id, seat, policy, at)
            match = await hall.matches.get(match_id)
            if match.status in ENDED:
                return match
            failure: GamehallError = Unavailable(
                grpc.StatusCode.UNAVAILABLE,
                "UNAVAILABLE",
                f"the play stream of match {match_id} kept ending before the match did",
            )
        except (Unavailable, DeadlineExceeded) as exc:
            failure = exc
        at.failures += 1
        if at.failures > max_reconnects:
            raise failure
        await asyncio.sleep(min(RECONNECT_MAX_DELAY, RECONNECT_DELAY * 2 ** (at.failures - 1)))
