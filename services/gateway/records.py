"""Stored match records -> the public `Match` message (the seed only once the match is closed)."""

from __future__ import annotations

import time
from typing import Any

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches import clocks
from gamehall.v1 import common_pb2, gateway_pb2
from gamehall.wire.convert import dumps
from gamehall.wire.matches import loads, outcome_from_json

STATUSES = {
    "open": gateway_pb2.MATCH_STATUS_OPEN,
    "running": gateway_pb2.MATCH_STATUS_RUNNING,
    "finished": gateway_pb2.MATCH_STATUS_FINISHED,
    "aborted": gateway_pb2.MATCH_STATUS_ABORTED,
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


def public_match(match: ppb.MatchRecord, usernames: dict[str, str] | None = None) -> gateway_pb2.Match:
    spec = clocks.ClockSpec.from_json(loads(match.clock_json))
    clock_state = loads(match.clock_state_json)
    now = now_ms()
    msg = gateway_pb2.Match(
        id=match.id,
        game=match.game,
        config=config_to_proto(loads(match.config_json) or {}),
        status=STATUSES.get(match.status, gateway_pb2.MATCH_STATUS_UNSPECIFIED),
        version=match.version,
        to_act=to_act_of(match),
        seed_commitment=match.seed_commitment,
        seed=match.seed if match.status in CLOSED else 0,
        public=match.public,
        clock=gateway_pb2.ClockSpec(per_move_ms=spec.per_move_ms, bank_ms=spec.bank_ms, increment_ms=spec.increment_ms),
        created_by=match.created_by,
        created_unix=match.created_unix_ms // 1000,
        seats=[
            gateway_pb2.Seat(
                seat=s.seat,
                kind=s.kind,
                account_id=s.account_id,
                username=(usernames or {}).get(s.account_id, ""),
                bot_difficulty=s.bot_difficulty,
                clock_remaining_ms=clocks.remaining_now(spec, clock_state, s.seat, now),
            )
            for s in match.seats
        ],
    )
    outcome = outcome_from_json(loads(match.outcome_json))
    if outcome is not None:
        msg.outcome.CopyFrom(outcome)
    return msg
