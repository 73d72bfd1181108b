from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class LogEntry(_message.Message):
    __slots__ = ("match_id", "game", "version", "kind", "seat", "action_json", "request_id", "state_digest", "unix_ms", "clock_state_json", "to_act", "status", "outcome_json", "snapshot", "bot_turns")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[LogEntry.Kind]
        KIND_ACTION: _ClassVar[LogEntry.Kind]
        KIND_CLOSE: _ClassVar[LogEntry.Kind]
    KIND_UNSPECIFIED: LogEntry.Kind
    KIND_ACTION: LogEntry.Kind
    KIND_CLOSE: LogEntry.Kind
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_JSON_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_DIGEST_FIELD_NUMBER: _ClassVar[int]
    UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_JSON_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    BOT_TURNS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    version: int
    kind: LogEntry.Kind
    seat: int
    action_json: str
    request_id: str
    state_digest: bytes
    unix_ms: int
    clock_state_json: str
    to_act: _containers.RepeatedScalarFieldContainer[int]
    status: str
    outcome_json: str
    snapshot: bytes
    bot_turns: _containers.RepeatedCompositeFieldContainer[BotTurn]
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., version: _Optional[int] = ..., kind: _Optional[_Union[LogEntry.Kind, str]] = ..., seat: _Optional[int] = ..., action_json: _Optional[str] = ..., request_id: _Optional[str] = ..., state_digest: _Optional[bytes] = ..., unix_ms: _Optional[int] = ..., clock_state_json: _Optional[str] = ..., to_act: _Optional[_Iterable[int]] = ..., status: _Optional[str] = ..., outcome_json: _Optional[str] = ..., snapshot: _Optional[bytes] = ..., bot_turns: _Optional[_Iterable[_Union[BotTurn, _Mapping]]] = ...) -> None: ...

class BotTurn(_message.Message):
    __slots__ = ("seat", "difficulty", "deadline_unix_ms", "view_json", "legal")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    difficulty: str
    deadline_unix_ms: int
    view_json: str
    legal: _containers.RepeatedCompositeFieldContainer[BotChoice]
    def __init__(self, seat: _Optional[int] = ..., difficulty: _Optional[str] = ..., deadline_unix_ms: _Optional[int] = ..., view_json: _Optional[str] = ..., legal: _Optional[_Iterable[_Union[BotChoice, _Mapping]]] = ...) -> None: ...

class BotChoice(_message.Message):
    __slots__ = ("id", "action_json")
    ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_JSON_FIELD_NUMBER: _ClassVar[int]
    id: str
    action_json: str
    def __init__(self, id: _Optional[str] = ..., action_json: _Optional[str] = ...) -> None: ...
