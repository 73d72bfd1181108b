"""Engine types <-> protobuf messages. JSON travels as compact, key-sorted text."""

from __future__ import annotations

import json
from typing import Any

import grpc

from gamehall.engine import Event, Game, MatchConfig, Outcome
from gamehall.runtime.errors import ClientError
from gamehall.wire.json_limits import check_json_text
from gamehall_sdk.v1 import common_pb2


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, allow_nan=False)


def parse_json_object(text: str, what: str, *, empty_ok: bool = True) -> dict[str, Any]:
    """A JSON object from a request field; INVALID_ARGUMENT naming the field when it is not one (or nests
    too deep: checked on the text first, so no parser recursion), INVALID_ARGUMENT (TOO_LARGE) when it is too large."""
    if not text:
        if empty_ok:
            return {}
        raise ClientError(grpc.StatusCode.INVALID_ARGUMENT, f"{what} is required", common_pb2.ERROR_REASON_MALFORMED)
    check_json_text(text, what)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ClientError(
            grpc.StatusCode.INVALID_ARGUMENT,
            f"{what} is not valid JSON: {str(exc)[:120]}",
            common_pb2.ERROR_REASON_MALFORMED,
        ) from exc
    if not isinstance(value, dict):
        raise ClientError(
            grpc.StatusCode.INVALID_ARGUMENT, f"{what} must be a JSON object", common_pb2.ERROR_REASON_MALFORMED
        )
    return value


def config_from_proto(msg: common_pb2.MatchConfig) -> MatchConfig:
    return MatchConfig(
        mode=msg.mode,
        seats=msg.seats,
        options=parse_json_object(msg.options_json, "config.options_json"),
        flags=parse_json_object(msg.flags_json, "config.flags_json"),
    )


def outcome_to_proto(outcome: Outcome) -> common_pb2.Outcome:
    return common_pb2.Outcome(ranks=list(outcome.ranks), scores=list(outcome.scores or ()), reason=outcome.reason)


def outcome_from_proto(msg: common_pb2.Outcome) -> Outcome:
    return Outcome(tuple(msg.ranks), tuple(msg.scores) if msg.scores else None, msg.reason)


def event_to_proto(event: Event) -> common_pb2.GameEvent:
    return common_pb2.GameEvent(
        kind=event.kind, data_json=dumps(dict(event.data)), audience=sorted(event.audience or ())
    )


def _option(opt: Any) -> common_pb2.OptionDescriptor:
    return common_pb2.OptionDescriptor(
        name=opt.name,
        default_json=dumps(opt.default),
        description=opt.description,
        choices_json=[dumps(c) for c in opt.choices or ()],
        modes=list(opt.modes or ()),
    )


def game_to_proto(game: Game[Any]) -> common_pb2.GameDescriptor:
    return common_pb2.GameDescriptor(
        id=game.id,
        name=game.name,
        description=game.description,
        modes=[
            common_pb2.ModeDescriptor(
                id=m.id, name=m.name, seats=list(m.seats), description=m.description, team_size=m.team_size or 0
            )
            for m in game.modes
        ],
        options=[_option(o) for o in game.options],
        flags=[_option(o) for o in game.flags],
        action_schema_json=dumps(game.action_schema()),
        has_hidden_information=game.has_hidden_information,
        state_version=game.state_version,
    )
