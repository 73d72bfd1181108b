"""The public enums by their short names: `single-elimination` <-> `TOURNAMENT_FORMAT_SINGLE_ELIMINATION`."""

from __future__ import annotations

from typing import Any


def enum_value(enum: Any, prefix: str, name: str | int) -> Any:
    """The value of `name` (`running`, `no-show`; an int passes through) in the generated `enum`; 0 for ""."""
    if isinstance(name, int):
        return name
    if not name:
        return 0
    return enum.Value(f"{prefix}_{name.upper().replace('-', '_')}")


def enum_name(enum: Any, prefix: str, value: int) -> str:
    """The short name of `value`: `TOURNAMENT_STATUS_RUNNING` -> `running` ("" for the unspecified 0)."""
    if not value:
        return ""
    return str(enum.Name(value)).removeprefix(prefix + "_").lower().replace("_", "-")
