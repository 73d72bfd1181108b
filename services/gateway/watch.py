"""Watching and replaying a match.

Watch: the stream sends the caller's view after each version. JetStream match events (the core
NATS subscription on `gamehall.v1.match.<id>.>`) only wake the stream up; what it sends is read
from persistence (the actions after the last version sent, re-applied through the rules host, which
also yields each step's events). So a missed or duplicated event can never skip or repeat a
version, a resumed stream continues exactly after `from_version`, and a poll every
`POLL_SECONDS` covers a NATS outage. Spectators may stay `delay_actions` behind live play.

Replay: while the match runs, the requester's own seat view at each step and only its own actions
(other seats' actions are hidden: in a game of secret choices the action is the secret); once it
ended, every seat's view and every action, and the seed, so anyone may re-run it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import grpc
import structlog

from gamehall.auth import Claims
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.internal.v1 import rules_pb2
from gamehall.runtime.bus import Bus, match_subject
from gamehall.runtime.errors import ClientError
from gamehall.v1 import common_pb2, gateway_pb2
from gamehall_services.gateway.records import CLOSED, public_match
from gamehall_services.gateway.state import initial_state, load, public_action, require_watch, seat_of, stored_action
from gamehall_services.gateway.upstream import Upstream, call

log = structlog.get_logger("gamehall.gateway.watch")

POLL_SECONDS = 1.0
HIDDEN = "hidden until the match ends"


class Watcher:
    def __init__(self, upstream: Upstream, bus: Bus | None = None) -> None:
        self.upstream = upstream
        self.bus = bus

    # ----------------------------------------------------------------- watch
    async def watch(
        self, request: gateway_pb2.WatchMatchRequest, claims: Claims, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[gateway_pb2.WatchMatchResponse]:
        wake = asyncio.Event()
        subscription = await self._subscribe(request.match_id, wake)
        try:
            async for item in self._follow(request, claims, wake):
                yield item
        finally:
            if subscription is not None:
                with contextlib.suppress(Exception):
                    await subscription.unsubscribe()

    async def _subscribe(self, match_id: str, wake: asyncio.Event) -> Any:
        if self.bus is None or not match_id or any(c in match_id for c in ".*> "):
            return None

        async def on_event(_msg: Any) -> None:
            wake.set()

        try:
            return await self.bus.nc.subscribe(match_subject(match_id, ">"), cb=on_event)
        except Exception as exc:  # NATS away: polling still works
            log.warning("watch subscription failed; polling", error=str(exc))
            return None

    async def _follow(
        self, request: gateway_pb2.WatchMatchRequest, claims: Claims, wake: asyncio.Event
    ) -> AsyncIterator[gateway_pb2.WatchMatchResponse]:
        start = await load(self.upstream, request.match_id)
        match = start.match
        require_watch(match, claims)
        seat = seat_of(match, claims, int(request.seat) if request.HasField("seat") else None)
        delay = request.delay_actions if seat is None else 0
        rules = self.upstream.rules(match.game)
        sent_final = False
        if request.from_version:
            if request.from_version > start.version:
                raise ClientError(
                    grpc.StatusCode.OUT_OF_RANGE,
                    f"match {match.id} is at version {start.version}, not {request.from_version} yet",
                    common_pb2.ERROR_REASON_MALFORMED,
                )
            at = await load(self.upstream, match.id, at_version=int(request.from_version))
            state, version = at.state, at.version
        else:
            target = _target(match, start.version, delay)
            if target == start.version:
                state, version = start.state, start.version
            else:
                at = await load(self.upstream, match.id, at_version=target)
                state, version = at.state, at.version
            sent_final = _is_final(match, version)
            yield await self._message(rules, match if sent_final else None, state, version, seat, [])
        while True:
            target = _target(match, match.version, delay)
            if version < target:
                actions = await call(
                    self.upstream.persistence.GetActions(
                        ppb.GetActionsRequest(match_id=match.id, from_version=version + 1, to_version=target)
                    )
                )
                for entry in actions.actions:
                    applied = await call(
                        rules.Apply(
                            rules_pb2.ApplyRequest(
                                state=state, seat=entry.seat, action_json=json.dumps(stored_action(entry)["action"])
                            )
                        )
                    )
                    state, version = applied.state, int(entry.version)
                    seen = [e for e in applied.events if not e.audience or (seat is not None and seat in e.audience)]
                    sent_final = _is_final(match, version)
                    yield await self._message(rules, match if sent_final else None, state, version, seat, seen)
                continue
            if _is_final(match, version):
                if not sent_final:  # ended outside the log (a forfeit): one last message with the outcome
                    yield await self._message(rules, match, state, version, seat, [])
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), POLL_SECONDS)
            wake.clear()
            match = (await call(self.upstream.persistence.GetMatch(ppb.GetMatchRequest(match_id=match.id)))).match

    async def _message(
        self,
        rules: Any,
        closed: ppb.MatchRecord | None,
        state: bytes,
        version: int,
        seat: int | None,
        seen: list[common_pb2.GameEvent],
    ) -> gateway_pb2.WatchMatchResponse:
        view_request = rules_pb2.ViewRequest(state=state)
        if seat is not None:
            view_request.seat = seat
        view = await call(rules.View(view_request))
        message = gateway_pb2.WatchMatchResponse(
            version=version, view_json=view.view_json, to_act=list(view.summary.to_act), events=seen
        )
        if seat is not None:
            message.seat = seat
        if closed is not None and closed.outcome_json:
            message.to_act[:] = []
            message.outcome.CopyFrom(public_match(closed).outcome)
        elif view.summary.HasField("outcome"):
            message.outcome.CopyFrom(view.summary.outcome)
        return message

    # ----------------------------------------------------------------- replay
    async def replay(self, match_id: str, claims: Claims) -> gateway_pb2.GetReplayResponse:
        if not match_id:
            raise ClientError(
                grpc.StatusCode.INVALID_ARGUMENT, "match_id is required", common_pb2.ERROR_REASON_MALFORMED
            )
        match = (await call(self.upstream.persistence.GetMatch(ppb.GetMatchRequest(match_id=match_id)))).match
        require_watch(match, claims)
        complete = match.status in CLOSED
        seat = None if complete else seat_of(match, claims, None)
        rules = self.upstream.rules(match.game)
        state = (await initial_state(self.upstream, match)).state
        actions = await call(
            self.upstream.persistence.GetActions(
                ppb.GetActionsRequest(match_id=match.id, from_version=1, to_version=match.version)
            )
        )
        seats = len(match.seats)
        response = gateway_pb2.GetReplayResponse(
            match=public_match(match),
            complete=complete,
            initial_view_json=await self._replay_view(rules, state, seat, complete, seats),
        )
        for entry in actions.actions:
            applied = await call(
                rules.Apply(
                    rules_pb2.ApplyRequest(
                        state=state, seat=entry.seat, action_json=json.dumps(stored_action(entry)["action"])
                    )
                )
            )
            state = applied.state
            shown = complete or (seat is not None and entry.seat == seat)
            response.steps.append(
                gateway_pb2.ReplayStep(
                    version=entry.version,
                    seat=entry.seat,
                    action=public_action(entry) if shown else common_pb2.LegalAction(label=HIDDEN),
                    view_json=await self._replay_view(rules, state, seat, complete, seats),
                )
            )
        return response

    async def _replay_view(self, rules: Any, state: bytes, seat: int | None, complete: bool, seats: int) -> str:
        if not complete:
            request = rules_pb2.ViewRequest(state=state)
            if seat is not None:
                request.seat = seat
            return str((await call(rules.View(request))).view_json)
        spectator = await call(rules.View(rules_pb2.ViewRequest(state=state)))
        per_seat = [await call(rules.View(rules_pb2.ViewRequest(state=state, seat=s))) for s in range(seats)]
        return '{"seats":[' + ",".join(v.view_json for v in per_seat) + '],"spectator":' + spectator.view_json + "}"


def _target(match: ppb.MatchRecord, version: int, delay: int) -> int:
    """The newest version this watcher may see now."""
    if match.status in CLOSED:
        return version
    return max(0, version - delay)


def _is_final(match: ppb.MatchRecord, version: int) -> bool:
    """True when `version` is the last one of a closed match."""
    return match.status in CLOSED and version == match.version
