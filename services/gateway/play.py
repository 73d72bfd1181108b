"""Playing a move: rebuild the state, let the rules host apply it, append it with its events.

The append is a compare-and-swap on the match version: when another move landed first (a
simultaneous turn, a clock), the move is rebuilt on the new state and tried again, unless the
client pinned `expected_version` (then ABORTED). A request id already logged returns its first
result without playing twice. Forfeits (resignation, a clock with no default action) end the
match outside the action log with the forfeiting seat ranked last.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any

import grpc
import structlog

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.internal.v1 import rules_pb2
from gamehall.runtime.errors import ClientError
from gamehall.v1 import common_pb2
from gamehall_services.gateway import clocks, events
from gamehall_services.gateway.records import dumps, loads, now_ms, outcome_from_json
from gamehall_services.gateway.state import Loaded, StateCache, load, public_action
from gamehall_services.gateway.upstream import Upstream, call

log = structlog.get_logger("gamehall.gateway.play")

MAX_ATTEMPTS = 12


@dataclass(frozen=True)
class Move:
    """What a seat plays: a legal-action id or the action's JSON form."""

    action_id: str = ""
    action_json: str = ""

    def request(self, state: bytes, seat: int) -> rules_pb2.ApplyRequest:
        if self.action_id:
            return rules_pb2.ApplyRequest(state=state, seat=seat, action_id=self.action_id)
        return rules_pb2.ApplyRequest(state=state, seat=seat, action_json=self.action_json)


@dataclass(frozen=True)
class Played:
    version: int
    action: common_pb2.LegalAction
    to_act: list[int]
    outcome: common_pb2.Outcome | None
    replayed: bool


def forfeit_outcome(seats: int, forfeiting: int, why: str) -> dict[str, Any]:
    """Every other seat ranks first, the forfeiting seat last (rank 2)."""
    return {
        "ranks": [2 if s == forfeiting else 1 for s in range(seats)],
        "scores": None,
        "reason": f"forfeit: seat {forfeiting} {why}",
    }


def bot_seats(match: ppb.MatchRecord) -> dict[int, str]:
    return {int(s.seat): s.bot_difficulty or "normal" for s in match.seats if s.kind == "bot"}


class Player:
    def __init__(self, upstream: Upstream, cache: StateCache | None = None) -> None:
        self.upstream = upstream
        self.cache = cache or StateCache()

    def _replayed(self, prior: ppb.ActionEntry, match: ppb.MatchRecord) -> Played:
        return Played(
            version=prior.version,
            action=public_action(prior),
            to_act=[],
            outcome=outcome_from_json(loads(match.outcome_json)),
            replayed=True,
        )

    async def submit(
        self,
        match_id: str,
        resolve_seat: Any,
        move: Move,
        request_id: str,
        expected_version: int | None,
    ) -> Played:
        """Play `move` for the seat `resolve_seat(match)` names; see the module docstring."""
        for attempt in range(MAX_ATTEMPTS):
            cached = self.cache.get(match_id) if attempt == 0 else None
            if cached is not None and expected_version is not None and expected_version != cached.version:
                cached = None  # let persistence say whether the client or this replica is behind
            loaded = cached or await load(self.upstream, match_id, request_id=request_id)
            seat = resolve_seat(loaded.match)
            if loaded.prior is not None:
                if loaded.prior.seat != seat:
                    raise ClientError(
                        grpc.StatusCode.ALREADY_EXISTS,
                        f"request id {request_id!r} was already used by another seat of this match",
                        common_pb2.ERROR_REASON_ALREADY_EXISTS,
                    )
                return self._replayed(loaded.prior, loaded.match)
            _require_running(loaded.match)
            if expected_version is not None and expected_version != loaded.version:
                raise ClientError(
                    grpc.StatusCode.ABORTED,
                    f"match {match_id} is at version {loaded.version}, not the expected {expected_version}",
                    common_pb2.ERROR_REASON_VERSION_CONFLICT,
                )
            try:
                return await self._apply_and_append(loaded, seat, move, request_id)
            except ClientError as exc:
                self.cache.drop(match_id)
                if cached is not None and exc.code in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                    continue  # the guess was stale: judge the move again on the stored state
                if exc.code != grpc.StatusCode.ABORTED or expected_version is not None:
                    raise
            await asyncio.sleep(random.uniform(0, 0.002 * (attempt + 1)))
        raise ClientError(
            grpc.StatusCode.ABORTED,
            f"match {match_id} kept changing; retry the request",
            common_pb2.ERROR_REASON_VERSION_CONFLICT,
        )

    async def _apply_and_append(self, loaded: Loaded, seat: int, move: Move, request_id: str) -> Played:
        match = loaded.match
        applied = await call(self.upstream.rules(match.game).Apply(move.request(loaded.state, seat)))
        version = loaded.version + 1
        summary = applied.summary
        to_act = list(summary.to_act)
        finished = summary.HasField("outcome")
        spec = clocks.ClockSpec.from_json(loads(match.clock_json))
        now = now_ms()
        clock_state = clocks.advance(spec, loads(match.clock_state_json), len(match.seats), seat, to_act, now)
        outbox = [events.action_applied(match.id, match.game, version, seat, applied.events, to_act)]
        if finished:
            outbox.append(events.finished(match.id, match.game, version, summary.outcome, match.seed))
        else:
            deadlines = {s: clocks.deadline_ms(spec, clock_state, s) for s in to_act}
            outbox += events.turns_for_bots(match.id, match.game, version, to_act, bot_seats(match), deadlines)
        action = applied.action
        logged = {"id": action.id, "label": action.label, "action": json.loads(action.action_json)}
        request = ppb.AppendActionRequest(
            match_id=match.id,
            expected_version=loaded.version,
            seat=seat,
            action_json=dumps(logged),
            request_id=request_id,
            state_digest=hashlib.sha256(applied.state).digest(),
            snapshot=applied.state,
            outbox=outbox,
            clock_state_json=dumps(clock_state),
        )
        if finished:
            request.status = "finished"
            request.outcome_json = dumps(
                {
                    "ranks": list(summary.outcome.ranks),
                    "scores": list(summary.outcome.scores) or None,
                    "reason": summary.outcome.reason,
                }
            )
        appended = await call(self.upstream.persistence.AppendAction(request))
        if appended.replayed:
            self.cache.drop(match.id)
            if appended.action.seat != seat:
                raise ClientError(
                    grpc.StatusCode.ALREADY_EXISTS,
                    f"request id {request_id!r} was already used by another seat of this match",
                    common_pb2.ERROR_REASON_ALREADY_EXISTS,
                )
            refreshed = await call(self.upstream.persistence.GetMatch(ppb.GetMatchRequest(match_id=match.id)))
            return self._replayed(appended.action, refreshed.match)
        if finished:
            self.cache.drop(match.id)
        else:
            after = ppb.MatchRecord()
            after.CopyFrom(match)
            after.version = version
            after.clock_state_json = request.clock_state_json
            self.cache.put(Loaded(after, applied.state, version))
        return Played(
            version=version,
            action=action,
            to_act=to_act,
            outcome=summary.outcome if finished else None,
            replayed=False,
        )

    async def forfeit(self, match: ppb.MatchRecord, seat: int, why: str) -> ppb.MatchRecord:
        """End a running match with `seat` ranked last, guarded by the version it was seen at."""
        self.cache.drop(match.id)
        outcome = forfeit_outcome(len(match.seats), seat, why)
        finished = events.finished(match.id, match.game, match.version, outcome_from_json(outcome), match.seed)
        closed = await call(
            self.upstream.persistence.CloseMatch(
                ppb.CloseMatchRequest(
                    match_id=match.id,
                    status="finished",
                    outcome_json=dumps(outcome),
                    expected_version=match.version,
                    outbox=[finished],
                )
            )
        )
        log.info("seat forfeited", match_id=match.id, seat=seat, why=why)
        return closed.match

    async def time_out(self, match: ppb.MatchRecord, seat: int) -> None:
        """A seat's clock ran out at `match.version`: play its default action, or forfeit it."""
        loaded = await load(self.upstream, match.id)
        if loaded.version != match.version or loaded.match.status != "running":
            return  # someone moved meanwhile
        default = await call(
            self.upstream.rules(match.game).DefaultAction(rules_pb2.DefaultActionRequest(state=loaded.state, seat=seat))
        )
        if default.HasField("action"):
            move = Move(action_json=default.action.action_json)
            await self._apply_and_append(loaded, seat, move, f"clock:{match.version}:{seat}")
        else:
            await self.forfeit(loaded.match, seat, "ran out of time")


def _require_running(match: ppb.MatchRecord) -> None:
    if match.status == "running":
        return
    if match.status == "open":
        raise ClientError(
            grpc.StatusCode.FAILED_PRECONDITION,
            f"match {match.id} has not started: it waits for its seats to fill",
            common_pb2.ERROR_REASON_ILLEGAL_ACTION,
        )
    raise ClientError(
        grpc.StatusCode.FAILED_PRECONDITION, f"match {match.id} is {match.status}", common_pb2.ERROR_REASON_MATCH_OVER
    )
