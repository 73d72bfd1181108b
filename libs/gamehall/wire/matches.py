"""Stored match records and log entries (persistence protos) <-> the match library's types and the public
`Match` message (the seed only once the match is closed)."""

from __future__ import annotations

import json
import time
from typing import Any

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches import clocks
from gamehall.matches.clocks import ClockSpec
from gamehall.matches.live import LoggedAction, MatchFacts, SeatFacts
from gamehall.wire.convert import dumps
from gamehall.wire.public import bot_level_value, clock_to_proto, duration_ms, enum_value, timestamp
from gamehall_sdk.v1 import common_pb2, match_pb2


def loads(text: str) -> Any:
    """A stored JSON column ('' is None)."""
    return json.loads(text) if text else None


def facts_from_record(match: ppb.MatchRecord) -> MatchFacts:
    return MatchFacts(
        id=match.id,
        game=match.game,
        status=match.status,
        seed=int(match.seed),
        config=loads(match.config_json) or {},
        seats=tuple(SeatFacts(int(s.seat), s.kind, s.account_id, s.bot_difficulty) for s in match.seats),
        public=match.public,
        created_by=match.created_by,
        clock=ClockSpec.from_json(loads(match.clock_json)),
        clock_state=loads(match.clock_state_json),
        outcome=loads(match.outcome_json),
    )


def logged_from_entry(entry: ppb.ActionEntry) -> LoggedAction:
    """A log entry; its `action_json` is the logged form {"id", "label", "action"}."""
    data = json.loads(entry.action_json)
    return LoggedAction(
        version=int(entry.version),
        seat=int(entry.seat),
        action=data.get("action", {}),
        request_id=entry.request_id,
        action_id=data.get("id", ""),
        label=data.get("label", ""),
    )


def logged_to_public(entry: LoggedAction) -> common_pb2.LegalAction:
    return common_pb2.LegalAction(
        id=entry.action_id,
        label=entry.label,
        action_json=dumps(dict(entry.action)),
    )


def outcome_from_json(data: dict[str, Any] | None) -> common_pb2.Outcome | None:
    if not data:
        return None
    return common_pb2.Outcome(ranks=data["ranks"], scores=data.get("scores") or [], reason=data.get("reason", ""))


STATUSES = {
    "open": match_pb2.MATCH_STATUS_OPEN,
    "running": match_pb2.MATCH_STATUS_RUNNING,
    "finished": match_pb2.MATCH_STATUS_FINISHED,
    "aborted": match_pb2.MATCH_STATUS_ABORTED,
}
STATUS_NAMES = {v: k for k, v in STATUSES.items()}
CLOSED = frozenset({"finished", "aborted"})


def now_ms() -> int:
    return int(time.time() * 1000)


def to_act_of(match: ppb.MatchRecord) -> list[int]:
    if match.status != "running":
        return []
    state = loads(match.clock_state_json) or {}
    return list(state.get("to_act", []))


def config_to_proto(config: dict[str, Any]) -> common_pb2.MatchConfig:
    return common_pb2.MatchConfig(
        mode=config.get("mode", ""),
        seats=int(config.get("seats", 0)),
        options_json=dumps(config.get("options", {})),
        flags_json=dumps(config.get("flags", {})),
    )


def public_match(match: ppb.MatchRecord, usernames: dict[str, str] | None = None) -> match_pb2.Match:
    spec = clocks.ClockSpec.from_json(loads(match.clock_json))
    clock_state = loads(match.clock_state_json)
    now = now_ms()
    msg = match_pb2.Match(
        id=match.id,
        game=match.game,
        config=config_to_proto(loads(match.config_json) or {}),
        status=STATUSES.get(match.status, match_pb2.MATCH_STATUS_UNSPECIFIED),
        version=match.version,
        to_act=to_act_of(match),
        seed_commitment=match.seed_commitment,
        seed=match.seed if match.status in CLOSED else 0,
        public=match.public,
        clock=clock_to_proto(spec),
        created_by=match.created_by,
        create_time=timestamp(match.created_unix_ms / 1000),
        seats=[
            match_pb2.Seat(
                seat=s.seat,
                kind=enum_value(match_pb2.SeatKind, "SEAT_KIND", s.kind),
                account_id=s.account_id,
                username=(usernames or {}).get(s.account_id, ""),
                bot_difficulty=s.bot_difficulty,
                bot_level=bot_level_value(s.bot_difficulty),
            )
            for s in match.seats
        ],
    )
    if spec.bank_ms:
        for seat in msg.seats:
            seat.clock_remaining.CopyFrom(duration_ms(clocks.remaining_now(spec, clock_state, seat.seat, now)))
    outcome = outcome_from_json(loads(match.outcome_json))
    if outcome is not None:
        msg.outcome.CopyFrom(outcome)
    return msg


__all__ = [
    "CLOSED",
    "STATUSES",
    "STATUS_NAMES",
    "config_to_proto",
    "facts_from_record",
    "loads",
    "logged_from_entry",
    "logged_to_public",
    "now_ms",
    "outcome_from_json",
    "public_match",
    "to_act_of",
]
