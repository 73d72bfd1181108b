"""The libraries' names and times <-> the public API's enums, Timestamps and Durations (AIP-126, AIP-142).

The libraries name kinds and statuses in lower case with hyphens (`single-elimination`, `no-show`);
the public enums spell them `<PREFIX>_SINGLE_ELIMINATION`, with `<PREFIX>_UNSPECIFIED = 0` for none.
Times are Unix seconds or milliseconds inside, `google.protobuf.Timestamp`/`Duration` outside.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.duration_pb2 import Duration
from google.protobuf.timestamp_pb2 import Timestamp

from gamehall.matches.clocks import ClockSpec
from gamehall_sdk.v1 import common_pb2


def enum_value(enum: Any, prefix: str, name: str) -> Any:
    """The value of library name `name` in the public `enum` (0, unspecified, for "" or an unknown name)."""
    if not name:
        return 0
    try:
        return enum.Value(f"{prefix}_{name.upper().replace('-', '_')}")
    except ValueError:
        return 0


def enum_name(enum: Any, prefix: str, value: int) -> str:
    """The library name of public enum `value` ("" for unspecified or unknown)."""
    if not value:
        return ""
    try:
        full = str(enum.Name(value))
    except ValueError:
        return ""
    return full.removeprefix(prefix + "_").lower().replace("_", "-")


def timestamp(seconds: float) -> Timestamp:
    """A Timestamp of Unix `seconds` (fractions kept to the nanosecond)."""
    stamp = Timestamp()
    stamp.FromNanoseconds(round(seconds * 1e9))
    return stamp


def seconds_of(stamp: Timestamp) -> float:
    """Unix seconds of a Timestamp (0 when unset)."""
    return float(stamp.ToNanoseconds()) / 1e9


def duration_ms(ms: int) -> Duration:
    """A Duration of `ms` milliseconds."""
    span = Duration()
    span.FromMilliseconds(int(ms))
    return span


def ms_of(span: Duration) -> int:
    """Whole milliseconds of a Duration (rounded down; 0 when unset)."""
    return int(span.ToMilliseconds())


def clock_to_proto(spec: ClockSpec) -> common_pb2.ClockSpec:
    """The public ClockSpec of a match's clock; a part that is off stays unset."""
    msg = common_pb2.ClockSpec()
    for name, ms in (("per_move", spec.per_move_ms), ("bank", spec.bank_ms), ("increment", spec.increment_ms)):
        if ms:
            getattr(msg, name).CopyFrom(duration_ms(ms))
    return msg


def clock_from_proto(msg: common_pb2.ClockSpec) -> tuple[int, int, int]:
    """(per move, bank, increment) in milliseconds of a public ClockSpec."""
    return ms_of(msg.per_move), ms_of(msg.bank), ms_of(msg.increment)


def bot_level_name(level: int) -> str:
    """The bot difficulty name ("easy", ...) of a `gamehall.v1.BotDifficulty` value ("" for unspecified)."""
    return enum_name(common_pb2.BotDifficulty, "BOT_DIFFICULTY", level)


def bot_level_value(name: str) -> common_pb2.BotDifficulty:
    """The `gamehall.v1.BotDifficulty` value of a bot difficulty name (0, unspecified, for "" or unknown)."""
    value: common_pb2.BotDifficulty = enum_value(common_pb2.BotDifficulty, "BOT_DIFFICULTY", name)
    return value
