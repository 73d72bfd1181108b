"""MatchService: the lobby (create, list, join) here; everything about a running match (view, legal
actions, submit, leave, watch, replay) is forwarded to the rules replica that owns it, with the
caller as this gateway authenticated it. Watch streams are in watch.py."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from typing import Any

import grpc
from cachetools import LRUCache

from gamehall.auth import Claims
from gamehall.internal.v1 import live_pb2
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches import require_watch
from gamehall.matches.lifecycle import match_id_for
from gamehall.runtime.errors import ClientError, Failure
from gamehall.runtime.interceptor import CarriedCalls
from gamehall.wire import pages
from gamehall.wire.matches import STATUS_NAMES, public_match
from gamehall_sdk.v1 import common_pb2, match_pb2, match_pb2_grpc
from gamehall_services.gateway.auth import Authenticator
from gamehall_services.gateway.edge import check_request
from gamehall_services.gateway.limits import RateLimiter, WatchSlots, check_action_payload
from gamehall_services.gateway.upstream import RulesReplicas, Upstream, call
from gamehall_services.gateway.watch import Watcher

FINAL_ANSWER_SECONDS = 10.0
"""When the match ends, how long a play stream waits for the answer of the action in play (often the final move)."""
SEAT_ACTIONS = CarriedCalls("gateway", "/gamehall.v1.MatchService/PlaySeat:action")
"""Each action of a play stream is metered, logged and mapped to a status as a unary call would be."""


def _bad(message: str, reason: int = common_pb2.ERROR_REASON_MALFORMED) -> ClientError:
    return ClientError(grpc.StatusCode.INVALID_ARGUMENT, message, reason)


def _optional(request: Any, name: str) -> int | None:
    return int(getattr(request, name)) if request.HasField(name) else None


class MatchServicer(match_pb2_grpc.MatchServiceServicer):
    def __init__(
        self, upstream: Upstream, auth: Authenticator, limiter: RateLimiter, watcher: Watcher, slots: WatchSlots
    ) -> None:
        self.upstream = upstream
        self.auth = auth
        self.limiter = limiter
        self.slots = slots
        self.watcher = watcher
        self._games: LRUCache[str, str] = LRUCache(maxsize=200_000)

    async def _caller(self, context: grpc.aio.ServicerContext) -> Claims:
        claims = await self.auth.claims(context)
        self.limiter.take(claims.account_id)
        return claims

    async def _record(self, match_id: str) -> ppb.MatchRecord:
        if not match_id:
            raise _bad("match_id is required")
        record: ppb.MatchRecord = (
            await call(self.upstream.persistence.GetMatch(ppb.GetMatchRequest(match_id=match_id)))
        ).match
        self._games[record.id] = record.game
        return record

    async def _fresh_record(self, match_id: str) -> ppb.MatchRecord:
        """The stored record, with a running match's head (version, status, clock, outcome) from its owner:
        the projection runs milliseconds behind the log, and a client reads its own moves."""
        record = await self._record(match_id)
        if record.status != "running":
            return record
        head = await self.upstream.replicas(record.game).on_owner(
            match_id, "GetHead", live_pb2.GetHeadRequest(match_id=match_id)
        )
        record.version, record.status = head.version, head.status
        record.outcome_json, record.clock_state_json = head.outcome_json, head.clock_state_json
        return record

    async def _owner(self, match_id: str) -> RulesReplicas:
        """The rules replicas of the match's game (a match's game never changes: cached per replica)."""
        game = self._games.get(match_id) if match_id else None
        if game is None:
            game = (await self._record(match_id)).game
        return self.upstream.replicas(game)

    # ----------------------------------------------------------------- lobby
    async def CreateMatch(self, request: match_pb2.CreateMatchRequest, context: Any) -> match_pb2.CreateMatchResponse:
        """Opened on the rules replica that will own the match (the lobby is the match library's)."""
        claims = await self._caller(context)
        rules = self.upstream.replicas(request.game)
        match_id = match_id_for(claims.account_id, request.request_id)
        forwarded = live_pb2.OpenMatchRequest(
            match_id=match_id,
            caller=_caller_proto(claims),
            config=request.config,
            seats=request.seats,
            public=request.public,
            clock=request.clock,
        )
        if request.HasField("join_seat"):
            forwarded.join_seat = request.join_seat
        opened = await rules.on_owner(match_id, "OpenMatch", forwarded)
        self._games[match_id] = request.game
        return match_pb2.CreateMatchResponse(match=public_match(opened.match))

    async def _reader(self, context: grpc.aio.ServicerContext) -> tuple[Claims, str]:
        """A public read's caller (signed in, or the anonymous spectator of public matches) and its limit key."""
        claims, key = await self.auth.reader(context)
        self.limiter.take(key)
        return claims, key

    async def ListMatches(self, request: match_pb2.ListMatchesRequest, context: Any) -> match_pb2.ListMatchesResponse:
        claims, _ = await self._reader(context)
        size = pages.page_size(request.page_size, pages.MATCHES)
        filters = {
            "game": request.game,
            "status": int(request.status),
            "mine": request.mine,
            "caller": claims.account_id,  # a token is the caller's own: another's is refused
        }
        cursor = pages.decode_token(request.page_token, "matches", filters)
        if cursor is not None and not isinstance(cursor, str):
            raise pages.invalid_token("page_token is not a token this list made")
        query = ppb.ListMatchesRequest(game=request.game, limit=size, cursor=cursor or "")
        if request.status:
            if request.status not in STATUS_NAMES:
                raise ClientError(
                    grpc.StatusCode.INVALID_ARGUMENT,
                    f"unknown status {request.status}",
                    common_pb2.ERROR_REASON_MALFORMED,
                    field="status",
                )
            query.statuses.append(STATUS_NAMES[request.status])
        if request.mine:
            query.account_id = claims.account_id
        elif claims.role != "operator":
            query.public = True
        page = await call(self.upstream.persistence.ListMatches(query))
        token = pages.encode_token(page.next_cursor, "matches", filters) if page.next_cursor else ""
        names = await self._usernames(*page.matches)
        return match_pb2.ListMatchesResponse(
            matches=[public_match(m, names) for m in page.matches], next_page_token=token
        )

    async def _usernames(self, *records: ppb.MatchRecord) -> dict[str, str]:
        """The usernames of the people seated in these matches (cached per replica), so pages and clients show
        players by name, not by seat number (issue 38); an account that cannot be read is left out."""
        people = ("human", "reserved")
        ids = sorted({s.account_id for r in records for s in r.seats if s.account_id and s.kind in people})

        async def name(account_id: str) -> tuple[str, str]:
            try:
                facts = await self.auth.principals.account(account_id)
            except Exception:  # a name is a nicety: the record is still answered without it
                return account_id, ""
            return account_id, facts.username if facts is not None else ""

        return {k: v for k, v in await asyncio.gather(*(name(i) for i in ids)) if v}

    async def GetMatch(self, request: match_pb2.GetMatchRequest, context: Any) -> match_pb2.GetMatchResponse:
        claims, _ = await self._reader(context)
        match = await self._fresh_record(request.match_id)
        require_watch(match, claims)
        return match_pb2.GetMatchResponse(match=public_match(match, await self._usernames(match)))

    async def JoinMatch(self, request: match_pb2.JoinMatchRequest, context: Any) -> match_pb2.JoinMatchResponse:
        """Taken (and the match started when full) by the rules replica that owns the match."""
        claims = await self._caller(context)
        if not request.match_id:
            raise _bad("match_id is required")
        forwarded = live_pb2.JoinMatchRequest(
            match_id=request.match_id, caller=_caller_proto(claims), request_id=request.request_id
        )
        if request.HasField("seat"):
            forwarded.seat = request.seat
        joined = await (await self._owner(request.match_id)).on_owner(request.match_id, "JoinMatch", forwarded)
        return match_pb2.JoinMatchResponse(match=public_match(joined.match), seat=joined.seat)

    async def LeaveMatch(self, request: match_pb2.LeaveMatchRequest, context: Any) -> match_pb2.LeaveMatchResponse:
        """One call to the match's owner, which frees an open match's seat or forfeits a running one's (issue 37:
        this was a loop of up to 8 x 3 calls here with no overall budget); the call's deadline is the client's,
        capped by the gateway's own. A retry with the same request id returns the first answer."""
        claims = await self._caller(context)
        if not request.match_id:
            raise _bad("match_id is required")
        forwarded = live_pb2.LeaveMatchRequest(
            match_id=request.match_id, caller=_caller_proto(claims), why="resigned", request_id=request.request_id
        )
        left = await (await self._owner(request.match_id)).on_owner(request.match_id, "LeaveMatch", forwarded)
        return match_pb2.LeaveMatchResponse(match=public_match(left.match))

    # ----------------------------------------------------------------- play (forwarded to the owner)
    async def GetView(self, request: match_pb2.GetViewRequest, context: Any) -> match_pb2.GetViewResponse:
        claims = await self._caller(context)
        forwarded = live_pb2.GetViewRequest(match_id=request.match_id, caller=_caller_proto(claims))
        if request.HasField("seat"):
            forwarded.seat = request.seat
        view = (await (await self._owner(request.match_id)).on_owner(request.match_id, "GetView", forwarded)).view
        response = match_pb2.GetViewResponse(version=view.version, view_json=view.view_json, to_act=view.to_act)
        if view.HasField("seat"):
            response.seat = view.seat
        if view.HasField("outcome"):
            response.outcome.CopyFrom(view.outcome)
        return response

    async def ListLegalActions(
        self, request: match_pb2.ListLegalActionsRequest, context: Any
    ) -> match_pb2.ListLegalActionsResponse:
        claims = await self._caller(context)
        forwarded = live_pb2.ListLegalActionsRequest(match_id=request.match_id, caller=_caller_proto(claims))
        if request.HasField("seat"):
            forwarded.seat = request.seat
        owner = await self._owner(request.match_id)
        result: match_pb2.ListLegalActionsResponse = (
            await owner.on_owner(request.match_id, "ListLegalActions", forwarded)
        ).result
        return result

    async def SubmitAction(
        self, request: match_pb2.SubmitActionRequest, context: Any
    ) -> match_pb2.SubmitActionResponse:
        claims = await self._caller(context)
        which = request.WhichOneof("action")
        if which is None or not getattr(request, which):
            raise _bad("give action_id (from ListLegalActions) or action_json")
        check_action_payload(request.action_json, request.request_id)
        forwarded = live_pb2.PlayRequest(
            match_id=request.match_id,
            caller=_caller_proto(claims),
            request_id=request.request_id or uuid.uuid4().hex,
        )
        if which == "action_id":
            forwarded.action_id = request.action_id
        else:
            forwarded.action_json = request.action_json
        if request.HasField("seat"):
            forwarded.seat = request.seat
        if request.HasField("expected_version"):
            forwarded.expected_version = request.expected_version
        owner = await self._owner(request.match_id)
        result: match_pb2.SubmitActionResponse = (await owner.on_owner(request.match_id, "Play", forwarded)).result
        return result

    # ----------------------------------------------------------------- watch and replay
    async def WatchMatch(
        self, request: match_pb2.WatchMatchRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[match_pb2.WatchMatchResponse]:
        claims, key = await self._reader(context)
        with self.slots.hold(key):
            async for update in self.watcher.watch(request, claims, context):
                yield update

    async def PlaySeat(
        self, requests: AsyncIterator[match_pb2.PlaySeatRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[match_pb2.PlaySeatResponse]:
        """One stream per seat: WatchMatch's updates, each with the seat's legal actions when it must act, and
        the client's actions on the same stream, each played as SubmitAction would play it and answered by
        request id (a refusal as a google.rpc.Status: the stream goes on). Ends with the match. Reopened at the
        version the seat must still act at, it starts with that turn again (the action may have died with the old
        stream, and nothing else would move the match)."""
        claims = await self._caller(context)
        first = await anext(aiter(requests), None)
        if first is None or first.WhichOneof("kind") != "open":
            raise _bad("the first message of a play stream is `open` (match_id, seat, from_version)")
        check_request("PlaySeat", first)
        opened = first.open
        watch = match_pb2.WatchMatchRequest(match_id=opened.match_id, from_version=opened.from_version)
        if opened.HasField("seat"):
            watch.seat = opened.seat
        out: asyncio.Queue[match_pb2.PlaySeatResponse | BaseException | None] = asyncio.Queue()

        async def updates() -> None:
            try:
                async for step in self.watcher.watch(watch, claims, context, owed_turn=True):
                    update = match_pb2.SeatUpdate(step=step)
                    if step.HasField("seat") and step.seat in step.to_act and not step.HasField("outcome"):
                        if step.legal_actions:  # pushed by the owner with the view: no call per turn
                            update.legal.version, update.legal.seat = step.version, step.seat
                            update.legal.actions.extend(step.legal_actions)
                            update.step.ClearField("legal_actions")
                        else:  # a message that filled a gap: ask the owner
                            legal = await self._legal(opened.match_id, int(step.seat), claims)
                            if legal.version == step.version:
                                update.legal.CopyFrom(legal)
                    await out.put(match_pb2.PlaySeatResponse(update=update))
                await out.put(None)
            except BaseException as exc:
                await out.put(exc)

        answering = asyncio.Event()  # set while an action is being played: its answer goes out before the end
        answering.set()

        async def actions() -> None:
            try:
                async for message in requests:
                    answering.clear()
                    try:
                        result = await self._seat_action(message, opened, context)
                        await out.put(match_pb2.PlaySeatResponse(result=result))
                    finally:
                        answering.set()
            except BaseException as exc:
                await out.put(exc)

        with self.slots.hold(claims.account_id):
            tasks = [asyncio.create_task(updates()), asyncio.create_task(actions())]
            try:
                while True:
                    item = await out.get()
                    if item is None:  # the match is over: the answer of an action in play still goes out
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(answering.wait(), FINAL_ANSWER_SECONDS)
                        while not out.empty():
                            last = out.get_nowait()
                            if isinstance(last, match_pb2.PlaySeatResponse):
                                yield last
                        return
                    if isinstance(item, BaseException):
                        raise item
                    yield item
            finally:
                for task in tasks:
                    task.cancel()

    async def _legal(self, match_id: str, seat: int, claims: Claims) -> match_pb2.ListLegalActionsResponse:
        forwarded = live_pb2.ListLegalActionsRequest(match_id=match_id, caller=_caller_proto(claims), seat=seat)
        owner = await self._owner(match_id)
        result: match_pb2.ListLegalActionsResponse = (
            await owner.on_owner(match_id, "ListLegalActions", forwarded)
        ).result
        return result

    async def _seat_action(
        self, message: match_pb2.PlaySeatRequest, opened: match_pb2.OpenSeatStream, context: Any
    ) -> match_pb2.SeatActionResult:
        """One action of a play stream, played as a SubmitAction (same bounds, rate, idempotency), metered as one."""
        action = message.action
        submit = match_pb2.SubmitActionRequest(match_id=opened.match_id, request_id=action.request_id)
        which = action.WhichOneof("action")
        if which is not None:
            setattr(submit, which, getattr(action, which))
        if action.HasField("expected_version"):
            submit.expected_version = action.expected_version
        if opened.HasField("seat"):
            submit.seat = opened.seat

        async def play() -> match_pb2.SubmitActionResponse:
            if message.WhichOneof("kind") != "action":
                raise _bad("a play stream is opened once; later messages are actions")
            check_request("PlaySeat", message)
            return await self.SubmitAction(submit, context)

        done = await SEAT_ACTIONS.run(play, trace_id=uuid.uuid4().hex[:16], timeout=None)
        if isinstance(done, Failure):
            return match_pb2.SeatActionResult(request_id=action.request_id, error=done.status().SerializeToString())
        return match_pb2.SeatActionResult(request_id=action.request_id, played=done)

    async def GetReplay(self, request: match_pb2.GetReplayRequest, context: Any) -> match_pb2.GetReplayResponse:
        """A page of the replay (AIP-158; a client sending no page_size gets the default page and a token)."""
        claims, _ = await self._reader(context)
        size = pages.page_size(request.page_size, pages.REPLAY_STEPS)
        filters = {"match": request.match_id, "caller": claims.account_id}
        start = pages.offset_of(request.page_token, "replay", filters) or 1
        record = await self._record(request.match_id)
        forwarded = live_pb2.GetReplayRequest(
            match_id=record.id, caller=_caller_proto(claims), from_version=start, page_size=size
        )
        owner = self.upstream.replicas(record.game)
        page = await owner.on_owner(record.id, "GetReplay", forwarded)
        result: match_pb2.GetReplayResponse = page.result
        result.match.CopyFrom(public_match(await self._fresh_record(record.id)))
        if page.next_version:
            result.next_page_token = pages.encode_token(int(page.next_version), "replay", filters)
        return result


def _caller_proto(claims: Claims) -> live_pb2.Caller:
    return live_pb2.Caller(account_id=claims.account_id, role=claims.role)
