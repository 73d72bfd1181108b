"""Conversions between engine types and their protobuf messages (shared by every service and client)."""

from gamehall.wire.convert import (
    config_from_proto,
    event_to_proto,
    game_to_proto,
    outcome_from_proto,
    outcome_to_proto,
    parse_json_object,
)

__all__ = [
    "config_from_proto",
    "event_to_proto",
    "game_to_proto",
    "outcome_from_proto",
    "outcome_to_proto",
    "parse_json_object",
]
