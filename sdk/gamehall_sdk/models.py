"""Typed, decoded forms of what the match API returns as JSON strings (views, actions, events)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from gamehall_sdk.v1 import common_pb2

JsonDict = dict[str, Any]


def decode(text: str) -> JsonDict:
    """A JSON object from the wire ({} for an empty string)."""
    value = json.loads(text) if text else {}
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, got {type(value).__name__}")
    return value


def outcome_of(message: Any) -> common_pb2.Outcome | None:
    """The message's `outcome` when it is set (a finished match), else None."""
    if message.HasField("outcome"):
        outcome: common_pb2.Outcome = message.outcome
        return outcome
    return None


@dataclass(frozen=True)
class LegalAction:
    """An action a seat may take now: its stable id (what SubmitAction accepts), label and JSON form."""

    id: str
    label: str
    action: JsonDict

    @property
    def kind(self) -> str:
        return str(self.action.get("kind", ""))

    @classmethod
    def from_proto(cls, message: common_pb2.LegalAction) -> LegalAction:
        return cls(id=message.id, label=message.label, action=decode(message.action_json))


@dataclass(frozen=True)
class LegalActions(Sequence[LegalAction]):
    """A seat's legal actions at one match version (empty when it may not act)."""

    version: int
    seat: int
    actions: tuple[LegalAction, ...]

    @overload
    def __getitem__(self, index: int) -> LegalAction: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[LegalAction]: ...
    def __getitem__(self, index: int | slice) -> LegalAction | Sequence[LegalAction]:
        return self.actions[index]

    def __len__(self) -> int:
        return len(self.actions)

    def __iter__(self) -> Iterator[LegalAction]:
        return iter(self.actions)


@dataclass(frozen=True)
class View:
    """What a seat (or a spectator, seat None) sees of a match at one version."""

    version: int
    seat: int | None
    data: JsonDict
    to_act: tuple[int, ...]
    outcome: common_pb2.Outcome | None

    @property
    def finished(self) -> bool:
        return self.outcome is not None


@dataclass(frozen=True)
class GameEvent:
    """Something that happened when an action was applied (audience empty: public)."""

    kind: str
    data: JsonDict
    audience: tuple[int, ...]


@dataclass(frozen=True)
class MatchUpdate(View):
    """One message of a watch stream: the watcher's view after a change, with that change's events."""

    events: tuple[GameEvent, ...] = field(default=())


@dataclass(frozen=True)
class SeatTurn(MatchUpdate):
    """One update of a seat's play stream: the seat's view after a step and, when the seat must act at this
    version, its legal actions (None otherwise)."""

    legal: LegalActions | None = None


@dataclass(frozen=True)
class Submitted:
    """The result of a submitted action: the new version, the action as played, who acts next."""

    version: int
    action: LegalAction
    to_act: tuple[int, ...]
    outcome: common_pb2.Outcome | None
    replayed: bool
    request_id: str
