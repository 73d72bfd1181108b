from gamehall_sdk.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StateSummary(_message.Message):
    __slots__ = ("to_act", "outcome", "seats")
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    to_act: _containers.RepeatedScalarFieldContainer[int]
    outcome: _common_pb2.Outcome
    seats: int
    def __init__(self, to_act: _Optional[_Iterable[int]] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., seats: _Optional[int] = ...) -> None: ...

class DescribeGameRequest(_message.Message):
    __slots__ = ("skip_view_schema",)
    SKIP_VIEW_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    skip_view_schema: bool
    def __init__(self, skip_view_schema: _Optional[bool] = ...) -> None: ...

class DescribeGameResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: _common_pb2.GameDescriptor
    def __init__(self, game: _Optional[_Union[_common_pb2.GameDescriptor, _Mapping]] = ...) -> None: ...

class NewMatchRequest(_message.Message):
    __slots__ = ("config", "seed")
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    config: _common_pb2.MatchConfig
    seed: int
    def __init__(self, config: _Optional[_Union[_common_pb2.MatchConfig, _Mapping]] = ..., seed: _Optional[int] = ...) -> None: ...

class NewMatchResponse(_message.Message):
    __slots__ = ("state", "summary", "config")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    summary: StateSummary
    config: _common_pb2.MatchConfig
    def __init__(self, state: _Optional[bytes] = ..., summary: _Optional[_Union[StateSummary, _Mapping]] = ..., config: _Optional[_Union[_common_pb2.MatchConfig, _Mapping]] = ...) -> None: ...

class LegalActionsRequest(_message.Message):
    __slots__ = ("state", "seat")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    seat: int
    def __init__(self, state: _Optional[bytes] = ..., seat: _Optional[int] = ...) -> None: ...

class LegalActionsResponse(_message.Message):
    __slots__ = ("actions",)
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedCompositeFieldContainer[_common_pb2.LegalAction]
    def __init__(self, actions: _Optional[_Iterable[_Union[_common_pb2.LegalAction, _Mapping]]] = ...) -> None: ...

class ApplyRequest(_message.Message):
    __slots__ = ("state", "seat", "action_id", "action_json")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_JSON_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    seat: int
    action_id: str
    action_json: str
    def __init__(self, state: _Optional[bytes] = ..., seat: _Optional[int] = ..., action_id: _Optional[str] = ..., action_json: _Optional[str] = ...) -> None: ...

class ApplyResponse(_message.Message):
    __slots__ = ("state", "summary", "events", "action")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    summary: StateSummary
    events: _containers.RepeatedCompositeFieldContainer[_common_pb2.GameEvent]
    action: _common_pb2.LegalAction
    def __init__(self, state: _Optional[bytes] = ..., summary: _Optional[_Union[StateSummary, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_common_pb2.GameEvent, _Mapping]]] = ..., action: _Optional[_Union[_common_pb2.LegalAction, _Mapping]] = ...) -> None: ...

class ViewRequest(_message.Message):
    __slots__ = ("state", "seat")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    seat: int
    def __init__(self, state: _Optional[bytes] = ..., seat: _Optional[int] = ...) -> None: ...

class ViewResponse(_message.Message):
    __slots__ = ("view_json", "summary")
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    view_json: str
    summary: StateSummary
    def __init__(self, view_json: _Optional[str] = ..., summary: _Optional[_Union[StateSummary, _Mapping]] = ...) -> None: ...

class DefaultActionRequest(_message.Message):
    __slots__ = ("state", "seat")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    seat: int
    def __init__(self, state: _Optional[bytes] = ..., seat: _Optional[int] = ...) -> None: ...

class DefaultActionResponse(_message.Message):
    __slots__ = ("action",)
    ACTION_FIELD_NUMBER: _ClassVar[int]
    action: _common_pb2.LegalAction
    def __init__(self, action: _Optional[_Union[_common_pb2.LegalAction, _Mapping]] = ...) -> None: ...
