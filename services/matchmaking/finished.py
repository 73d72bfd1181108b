"""The finished-match consumer: step the match's tournament.

Persistence rates the match and puts its outcome in its tournament's inbox in the transaction that
projects the finish (ARCHITECTURE rule 6), and the event names that tournament (`tournament_id`): the
driver steps that tournament at once on this replica, nothing is read or written here.

An event that can never be handled (undecodable, no match id) is a `PermanentEventError`, so it is
dead-lettered at once (issue 20, finding 2).
"""

from __future__ import annotations

from typing import Protocol

import structlog
from google.protobuf.message import DecodeError
from nats.aio.msg import Msg

from gamehall.events.v1 import match_pb2
from gamehall.runtime.bus import PermanentEventError

log = structlog.get_logger("gamehall.matchmaking.finished")


class _Book(Protocol):
    def result_recorded(self, tournament_id: str) -> None: ...


class FinishedMatches:
    """Handler of `gamehall.v1.match.*.finished` on the shared durable consumer."""

    def __init__(self, book: _Book) -> None:
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
        tournament = event.finished.tournament_id
        if tournament:  # its inbox already holds the outcome (written with the finish)
            self.book.result_recorded(tournament)
        log.info("match finished", match_id=event.match_id, tournament=tournament or None)
