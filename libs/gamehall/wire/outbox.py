"""The JetStream events a change produces, as outbox entries written with the change itself.

Subjects: `gamehall.v1.match.<id>.<kind>` and, for bot seats that must act, the work queue
`gamehall.v1.turn.<game>`. The dedupe id is `<match>:<version>:<kind>[:<seat>]`. Match events carry
only public game events; a bot's turn carries its seat's view and legal actions, on the turns work
queue that only the ai reads (its credentials: `gamehall.runtime.callers`/NATS permissions).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from gamehall.engine import Game
from gamehall.events.v1 import match_pb2 as epb
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.runtime.bus import match_subject, turn_subject
from gamehall.wire.matchlog import bot_turn, next_bot
from gamehall_sdk.v1 import common_pb2


def _entry(subject: str, msg_id: str, event: epb.MatchEvent) -> ppb.OutboxEntry:
    return ppb.OutboxEntry(subject=subject, msg_id=msg_id, payload=event.SerializeToString())


def created(match_id: str, game: str, mode: str, seats: int, commitment: str) -> ppb.OutboxEntry:
    event = epb.MatchEvent(
        match_id=match_id,
        version=0,
        game=game,
        created=epb.MatchCreated(mode=mode, seats=seats, seed_commitment=commitment),
    )
    return _entry(match_subject(match_id, "created"), f"{match_id}:0:created", event)


def seat_joined(match_id: str, game: str, version: int, seat: int, account_id: str, kind: str) -> ppb.OutboxEntry:
    """A seat taken; the id carries a nonce since a seat may be left and taken again at the same version."""
    event = epb.MatchEvent(
        match_id=match_id,
        version=version,
        game=game,
        seat_joined=epb.SeatJoined(seat=seat, account_id=account_id, kind=kind),
    )
    nonce = uuid.uuid4().hex[:12]
    return _entry(match_subject(match_id, "seat_joined"), f"{match_id}:{version}:seat_joined:{seat}:{nonce}", event)


def action_applied(
    match_id: str,
    game: str,
    version: int,
    seat: int,
    events: Iterable[common_pb2.GameEvent],
    to_act: Sequence[int],
) -> ppb.OutboxEntry:
    public = [e for e in events if not e.audience]
    event = epb.MatchEvent(
        match_id=match_id,
        version=version,
        game=game,
        action_applied=epb.ActionApplied(seat=seat, public_events=public, to_act=list(to_act)),
    )
    return _entry(match_subject(match_id, "action_applied"), f"{match_id}:{version}:action_applied", event)


def turns_for_bots(
    match_id: str,
    game: str,
    version: int,
    to_act: Iterable[int],
    bots: dict[int, str],
    deadlines: dict[int, int],
    engine: Game[Any] | None = None,
    state: Any = None,
) -> list[ppb.OutboxEntry]:
    """Work for the first bot among the seats to act (`gamehall.wire.matchlog.next_bot`: one turn per version),
    with the seat's view and legal actions when the `engine` and `state` are given."""
    entries = []
    first = next_bot(to_act, bots)
    for seat in () if first is None else (first,):
        turn = epb.TurnToAct(seat=seat, difficulty=bots[seat], deadline_unix_ms=deadlines.get(seat, 0))
        if engine is not None:
            work = bot_turn(engine, state, seat, bots[seat], deadlines.get(seat, 0))
            turn.view_json = work.view_json
            turn.legal.extend(work.legal)
        event = epb.MatchEvent(match_id=match_id, version=version, game=game, turn_to_act=turn)
        entries.append(_entry(turn_subject(game), f"{match_id}:{version}:turn_to_act:{seat}", event))
    return entries


def finished(
    match_id: str,
    game: str,
    version: int,
    outcome: common_pb2.Outcome,
    seed: int,
    *,
    mode: str = "",
    seats: Sequence[epb.SeatJoined] = (),
    tournament_id: str = "",
    ratings_settled: bool = False,
) -> ppb.OutboxEntry:
    finished = epb.MatchFinished(
        outcome=outcome,
        seed=seed,
        mode=mode,
        seats=seats,
        tournament_id=tournament_id,
        ratings_settled=ratings_settled,
    )
    event = epb.MatchEvent(match_id=match_id, version=version, game=game, finished=finished)
    return _entry(match_subject(match_id, "finished"), f"{match_id}:{version}:finished", event)
