"""The finished-match consumer: step the match's tournament, and rate what persistence did not.

Persistence rates the match and puts its outcome in its tournament's inbox in the transaction that
projects the finish, and the event says both (`ratings_settled`, `tournament_id`): the driver steps,
nothing is read or written here (the tournament the event names is stepped on this replica at once). The
event of an older persistence is rated here from the seats it carries; one older still carries no seats: the
match is read back and its outcome recorded by a call.

Failures are sorted for the bus: an event that can never be handled (undecodable, no match id, a
match the store does not know, an outcome that cannot be rated) is a `PermanentEventError`, so it
is dead-lettered at once; a store that is away or a rating that kept moving is retried with
backoff, at most `max_deliver` times (issue 20, finding 2).
"""

from __future__ import annotations

from typing import Protocol

import grpc
import structlog
from google.protobuf.message import DecodeError
from nats.aio.msg import Msg

from gamehall.events.v1 import match_pb2
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matchmaking.errors import InvalidOutcome
from gamehall.runtime.bus import PermanentEventError, classify_rpc_error
from gamehall_services.matchmaking.ratings import Ratings, match_of_event

log = structlog.get_logger("gamehall.matchmaking.finished")


class _Records(Protocol):
    async def record(self, match_id: str) -> ppb.MatchRecord: ...


class _Book(Protocol):
    async def on_match_closed(self, match: ppb.MatchRecord, ranks: list[int], reason: str) -> bool: ...

    def result_recorded(self, tournament_id: str) -> None: ...


class FinishedMatches:
    """Handler of `gamehall.v1.match.*.finished` on the shared durable consumer."""

    def __init__(self, records: _Records, ratings: Ratings, book: _Book) -> None:
        self.records = records
        self.ratings = ratings
        self.book = book

    async def handle(self, msg: Msg) -> None:
        try:
            event = match_pb2.MatchEvent.FromString(msg.data)
        except DecodeError as exc:
            raise PermanentEventError(f"not a MatchEvent ({len(msg.data)} bytes): {exc}") from exc
        if event.WhichOneof("payload") != "finished":
            return
        if not event.match_id:
            raise PermanentEventError("finished event without a match id")
        outcome = event.finished.outcome
        ranks = list(outcome.ranks)
        try:
            # The event carries the seats, and its tournament's inbox already holds the outcome (written with the
            # finish); an event of an older persistence carries neither, and both are looked up as they were.
            settled = len(event.finished.seats) > 0
            match = match_of_event(event) if settled else await self.records.record(event.match_id)
            unratable: InvalidOutcome | None = None
            changes = None
            try:
                if not event.finished.ratings_settled:  # persistence rated it with the finish, or found it unratable
                    changes = await self.ratings.apply(match, ranks)
            except InvalidOutcome as exc:  # e.g. one account in two seats: never ratable; its tournament still hears
                unratable = exc
            if not settled:
                assert isinstance(match, ppb.MatchRecord)
                recorded = await self.book.on_match_closed(match, ranks, outcome.reason)
            elif recorded := bool(event.finished.tournament_id):
                self.book.result_recorded(event.finished.tournament_id)
        except grpc.aio.AioRpcError as exc:
            raise classify_rpc_error(exc, f"match {event.match_id[:64]}") from exc
        if unratable is not None:
            raise PermanentEventError(f"match {match.id} cannot be rated: {unratable}") from unratable
        rated = "with its finish" if event.finished.ratings_settled else changes is not None
        log.info("match finished", match_id=match.id, rated=rated, tournament=recorded)
