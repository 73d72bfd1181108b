"""Store records <-> persistence protobuf messages. JSON objects travel as text; '' means None."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from gamehall.internal.v1 import persistence_pb2 as pb
from gamehall.store import Account, ActionRecord, Match, NewSeat, OutboxMessage, Seat, StartPlan
from gamehall.store.errors import InvalidArgument
from gamehall.wire.convert import dumps as canonical_json


def unix_ms(when: datetime | None) -> int:
    return 0 if when is None else int(when.timestamp() * 1000)


def dumps(value: Any) -> str:
    """Canonical JSON (`gamehall.wire.convert.dumps`), '' for None."""
    return "" if value is None else canonical_json(value)


def loads(text: str, what: str) -> dict[str, Any] | None:
    """A JSON object from a request field, None when empty; InvalidArgument otherwise."""
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise InvalidArgument(f"{what} is not valid JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise InvalidArgument(f"{what} must be a JSON object")
    return value


def account_to_proto(account: Account) -> pb.AccountRecord:
    return pb.AccountRecord(
        id=account.id,
        username=account.username,
        password_hash=account.password_hash,
        role=account.role,
        created_unix_ms=unix_ms(account.created_at),
    )


def seat_to_proto(seat: Seat) -> pb.SeatRecord:
    return pb.SeatRecord(
        seat=seat.seat, kind=seat.kind, account_id=seat.account_id or "", bot_difficulty=seat.bot_difficulty or ""
    )


def new_seat_from_proto(seat: pb.SeatRecord) -> NewSeat:
    return NewSeat(
        kind=seat.kind or "open",  # type: ignore[arg-type]
        account_id=seat.account_id or None,
        bot_difficulty=seat.bot_difficulty or None,
    )


def match_to_proto(match: Match) -> pb.MatchRecord:
    return pb.MatchRecord(
        id=match.id,
        game=match.game,
        mode=match.mode,
        config_json=dumps(match.config),
        public=match.public,
        status=match.status,
        seed=match.seed,
        seed_commitment=match.seed_commitment,
        version=match.version,
        outcome_json=dumps(match.outcome),
        created_by=match.created_by or "",
        created_unix_ms=unix_ms(match.created_at),
        finished_unix_ms=unix_ms(match.finished_at),
        clock_json=dumps(match.clock),
        clock_state_json=dumps(match.clock_state),
        tournament_id=match.tournament_id or "",
        labels_json=dumps(match.labels),
        seats=[seat_to_proto(s) for s in match.seats],
    )


def action_to_proto(record: ActionRecord) -> pb.ActionEntry:
    return pb.ActionEntry(
        version=record.version,
        seat=record.seat,
        action_json=dumps(record.action),
        request_id=record.request_id,
        state_digest=record.state_digest,
        created_unix_ms=unix_ms(record.created_at),
    )


def outbox_from_proto(entries: Iterable[pb.OutboxEntry]) -> list[OutboxMessage]:
    return [OutboxMessage(subject=e.subject, msg_id=e.msg_id, payload=e.payload) for e in entries]


def start_plan(request: pb.StartMatchRequest) -> StartPlan:
    """How a match starts (its clock state, the events of the start), from a StartMatchRequest."""
    return StartPlan(
        clock_state=loads(request.clock_state_json, "clock_state_json"), outbox=tuple(outbox_from_proto(request.outbox))
    )
