"""WatchMatch: the views a match's owner pushes after each step, forwarded to one watcher in order.

The owner publishes each watched audience's message (a seat's view, the spectators') on a core-NATS
subject of its own; this stream subscribes to the caller's audience, holds a lease on it so the owner
pushes there (interest.py), and forwards what arrives, version by version. Nothing is replayed per
watcher: a version that did not arrive (a start, a resume with `from_version`, a lost push, a push
before the owner heard the lease) is asked of the owner once (`GetView` at that version), and a
delayed spectator's feed is the pushed feed held back `delay_actions` versions in a buffer.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import grpc
import structlog

from gamehall.auth import Claims
from gamehall.internal.v1 import live_pb2
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches import require_watch, seat_of
from gamehall.runtime.bus import Bus, view_subject
from gamehall.runtime.errors import ClientError
from gamehall_sdk.v1 import common_pb2, match_pb2
from gamehall_services.gateway.interest import Interest
from gamehall_services.gateway.upstream import Upstream, call

log = structlog.get_logger("gamehall.gateway.watch")

QUIET_SECONDS = 5.0
"""With no push for this long, the stream asks the owner once whether it missed something."""
POLL_SECONDS = 1.0
"""Without NATS, how often the owner is asked for news."""


class Watcher:
    def __init__(self, upstream: Upstream, bus: Bus | None = None) -> None:
        self.upstream = upstream
        self.bus = bus
        self.interest = Interest(self._publish)

    async def _publish(self, subject: str, payload: bytes) -> None:
        if self.bus is not None:
            await self.bus.nc.publish(subject, payload)

    async def watch(
        self,
        request: match_pb2.WatchMatchRequest,
        claims: Claims,
        context: grpc.aio.ServicerContext,
        *,
        owed_turn: bool = False,
    ) -> AsyncIterator[match_pb2.WatchMatchResponse]:
        """The caller's audience's messages from `request.from_version` on, in order, each once. With `owed_turn`
        (a seat's play stream), a resume at the current version the seat must still act at starts with that
        version again: the seat's action may have been lost with its previous stream."""
        if not request.match_id:
            raise ClientError(
                grpc.StatusCode.INVALID_ARGUMENT, "match_id is required", common_pb2.ERROR_REASON_MALFORMED
            )
        record = (await call(self.upstream.persistence.GetMatch(ppb.GetMatchRequest(match_id=request.match_id)))).match
        require_watch(record, claims)
        seat = seat_of(record, claims, int(request.seat) if request.HasField("seat") else None)
        follow = _Follow(self.upstream, record, claims, seat, int(request.delay_actions) if seat is None else 0)
        pushed: asyncio.Queue[match_pb2.WatchMatchResponse] = asyncio.Queue()
        subscription = await self._subscribe(record.id, seat, pushed)
        lease = self.interest.hold(record.game, record.id, seat) if subscription is not None else _no_lease()
        try:
            async with lease:
                resumed = follow.run(
                    pushed, int(request.from_version), subscribed=subscription is not None, owed_turn=owed_turn
                )
                async for message in resumed:
                    yield message
        finally:
            if subscription is not None:
                with contextlib.suppress(Exception):
                    await subscription.unsubscribe()

    async def _subscribe(self, match_id: str, seat: int | None, into: asyncio.Queue[Any]) -> Any:
        if self.bus is None or any(c in match_id for c in ".*> "):
            return None

        async def on_push(msg: Any) -> None:
            with contextlib.suppress(Exception):
                into.put_nowait(match_pb2.WatchMatchResponse.FromString(msg.data))

        try:
            return await self.bus.nc.subscribe(view_subject(match_id, seat), cb=on_push)
        except Exception as exc:  # NATS away: the stream asks the owner instead
            log.warning("watch subscription failed; polling the owner", error=str(exc))
            return None


@contextlib.asynccontextmanager
async def _no_lease() -> AsyncIterator[None]:
    yield


class _Follow:
    """One watcher's position in the match and the pushed messages it holds back (delay)."""

    def __init__(
        self, upstream: Upstream, record: ppb.MatchRecord, claims: Claims, seat: int | None, delay: int
    ) -> None:
        self.owner = upstream.replicas(record.game)
        self.match_id = record.id
        self.caller = live_pb2.Caller(account_id=claims.account_id, role=claims.role)
        self.seat = seat
        self.delay = delay
        self.held: dict[int, match_pb2.WatchMatchResponse] = {}
        self.sent = -1
        self.newest = -1
        self.final: match_pb2.WatchMatchResponse | None = None

    async def _view(self, at_version: int | None = None) -> match_pb2.WatchMatchResponse:
        request = live_pb2.GetViewRequest(match_id=self.match_id, caller=self.caller)
        if self.seat is not None:
            request.seat = self.seat
        if at_version is not None:
            request.at_version = at_version
        view: match_pb2.WatchMatchResponse = (await self.owner.on_owner(self.match_id, "GetView", request)).view
        return view

    def _heard(self, message: match_pb2.WatchMatchResponse) -> None:
        self.newest = max(self.newest, int(message.version))
        if message.HasField("outcome"):
            self.final = message
        elif message.version > self.sent:
            self.held[int(message.version)] = message

    def _owes(self, now: match_pb2.WatchMatchResponse) -> bool:
        """True when this watcher's seat must act at `now` (a running match)."""
        return self.seat is not None and self.seat in now.to_act and not now.HasField("outcome")

    async def run(
        self,
        pushed: asyncio.Queue[match_pb2.WatchMatchResponse],
        from_version: int,
        *,
        subscribed: bool,
        owed_turn: bool = False,
    ) -> AsyncIterator[match_pb2.WatchMatchResponse]:
        now = await self._view()
        self._heard(now)
        if from_version:
            if from_version > now.version:
                raise ClientError(
                    grpc.StatusCode.OUT_OF_RANGE,
                    f"match {self.match_id} is at version {now.version}, not {from_version} yet",
                    common_pb2.ERROR_REASON_MALFORMED,
                )
            self.sent = from_version
            if owed_turn and from_version == now.version and self._owes(now):
                yield now  # the turn again: nothing else would move the match (see `watch`)
        else:
            first = now.version if self.final is not None else max(0, now.version - self.delay)
            opening = now if first == now.version else await self._view(first)
            self.sent = first
            yield opening
            if opening.HasField("outcome"):
                return
        while True:
            async for message in self._due():
                yield message
                if message.HasField("outcome"):
                    return
            try:
                self._heard(await asyncio.wait_for(pushed.get(), QUIET_SECONDS if subscribed else POLL_SECONDS))
                while not pushed.empty():
                    self._heard(pushed.get_nowait())
            except TimeoutError:
                self._heard(await self._view())  # a quiet match, or a push that was lost

    async def _due(self) -> AsyncIterator[match_pb2.WatchMatchResponse]:
        """Every version this watcher may see now, in order, each once; the one with the outcome last."""
        final = self.final
        limit = self.newest if final is not None else self.newest - self.delay
        while self.sent < limit:
            version = self.sent + 1
            if final is not None and version == final.version:
                message = final
            else:
                held = self.held.pop(version) if version in self.held else None
                message = held if held is not None else await self._view(version)
            self.sent = version
            yield message
            if message.HasField("outcome"):
                return
        for version in [v for v in self.held if v <= self.sent]:
            del self.held[version]
        if final is not None and final.version == self.sent:
            yield final  # ended outside the log (a forfeit) after this version was sent: the outcome
