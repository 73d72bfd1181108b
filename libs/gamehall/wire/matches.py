"""Stored match records and log entries (persistence protos) <-> the match library's types."""

from __future__ import annotations

import json
from typing import Any

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches.clocks import ClockSpec
from gamehall.matches.live import LoggedAction, MatchFacts, SeatFacts
from gamehall.v1 import common_pb2


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
        action_json=json.dumps(dict(entry.action), separators=(",", ":"), sort_keys=True),
    )


def outcome_from_json(data: dict[str, Any] | None) -> common_pb2.Outcome | None:
    if not data:
        return None
    return common_pb2.Outcome(ranks=data["ranks"], scores=data.get("scores") or [], reason=data.get("reason", ""))


__all__ = ["facts_from_record", "loads", "logged_from_entry", "logged_to_public", "outcome_from_json"]
