import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BotDifficulty(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BOT_DIFFICULTY_UNSPECIFIED: _ClassVar[BotDifficulty]
    BOT_DIFFICULTY_RANDOM: _ClassVar[BotDifficulty]
    BOT_DIFFICULTY_EASY: _ClassVar[BotDifficulty]
    BOT_DIFFICULTY_NORMAL: _ClassVar[BotDifficulty]
    BOT_DIFFICULTY_HARD: _ClassVar[BotDifficulty]
    BOT_DIFFICULTY_EXPERT: _ClassVar[BotDifficulty]

class ErrorReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ERROR_REASON_UNSPECIFIED: _ClassVar[ErrorReason]
    ERROR_REASON_ILLEGAL_ACTION: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_YOUR_TURN: _ClassVar[ErrorReason]
    ERROR_REASON_MATCH_OVER: _ClassVar[ErrorReason]
    ERROR_REASON_BAD_CONFIG: _ClassVar[ErrorReason]
    ERROR_REASON_UNKNOWN_GAME: _ClassVar[ErrorReason]
    ERROR_REASON_CORRUPT_STATE: _ClassVar[ErrorReason]
    ERROR_REASON_VERSION_CONFLICT: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_FOUND: _ClassVar[ErrorReason]
    ERROR_REASON_ALREADY_EXISTS: _ClassVar[ErrorReason]
    ERROR_REASON_UNAUTHENTICATED: _ClassVar[ErrorReason]
    ERROR_REASON_PERMISSION_DENIED: _ClassVar[ErrorReason]
    ERROR_REASON_RATE_LIMITED: _ClassVar[ErrorReason]
    ERROR_REASON_MALFORMED: _ClassVar[ErrorReason]
    ERROR_REASON_INTERNAL: _ClassVar[ErrorReason]
    ERROR_REASON_FAILED_PRECONDITION: _ClassVar[ErrorReason]
    ERROR_REASON_NO_OPEN_SEAT: _ClassVar[ErrorReason]
    ERROR_REASON_MATCH_NOT_STARTED: _ClassVar[ErrorReason]
    ERROR_REASON_UNAVAILABLE: _ClassVar[ErrorReason]
    ERROR_REASON_DEADLINE_EXCEEDED: _ClassVar[ErrorReason]
    ERROR_REASON_INVALID_PAGE_TOKEN: _ClassVar[ErrorReason]
    ERROR_REASON_SEAT_TAKEN: _ClassVar[ErrorReason]
    ERROR_REASON_ALREADY_SEATED: _ClassVar[ErrorReason]
    ERROR_REASON_TICKET_NOT_OPEN: _ClassVar[ErrorReason]
    ERROR_REASON_TOO_LARGE: _ClassVar[ErrorReason]
BOT_DIFFICULTY_UNSPECIFIED: BotDifficulty
BOT_DIFFICULTY_RANDOM: BotDifficulty
BOT_DIFFICULTY_EASY: BotDifficulty
BOT_DIFFICULTY_NORMAL: BotDifficulty
BOT_DIFFICULTY_HARD: BotDifficulty
BOT_DIFFICULTY_EXPERT: BotDifficulty
ERROR_REASON_UNSPECIFIED: ErrorReason
ERROR_REASON_ILLEGAL_ACTION: ErrorReason
ERROR_REASON_NOT_YOUR_TURN: ErrorReason
ERROR_REASON_MATCH_OVER: ErrorReason
ERROR_REASON_BAD_CONFIG: ErrorReason
ERROR_REASON_UNKNOWN_GAME: ErrorReason
ERROR_REASON_CORRUPT_STATE: ErrorReason
ERROR_REASON_VERSION_CONFLICT: ErrorReason
ERROR_REASON_NOT_FOUND: ErrorReason
ERROR_REASON_ALREADY_EXISTS: ErrorReason
ERROR_REASON_UNAUTHENTICATED: ErrorReason
ERROR_REASON_PERMISSION_DENIED: ErrorReason
ERROR_REASON_RATE_LIMITED: ErrorReason
ERROR_REASON_MALFORMED: ErrorReason
ERROR_REASON_INTERNAL: ErrorReason
ERROR_REASON_FAILED_PRECONDITION: ErrorReason
ERROR_REASON_NO_OPEN_SEAT: ErrorReason
ERROR_REASON_MATCH_NOT_STARTED: ErrorReason
ERROR_REASON_UNAVAILABLE: ErrorReason
ERROR_REASON_DEADLINE_EXCEEDED: ErrorReason
ERROR_REASON_INVALID_PAGE_TOKEN: ErrorReason
ERROR_REASON_SEAT_TAKEN: ErrorReason
ERROR_REASON_ALREADY_SEATED: ErrorReason
ERROR_REASON_TICKET_NOT_OPEN: ErrorReason
ERROR_REASON_TOO_LARGE: ErrorReason

class OptionDescriptor(_message.Message):
    __slots__ = ("name", "default_json", "description", "choices_json", "modes")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_JSON_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CHOICES_JSON_FIELD_NUMBER: _ClassVar[int]
    MODES_FIELD_NUMBER: _ClassVar[int]
    name: str
    default_json: str
    description: str
    choices_json: _containers.RepeatedScalarFieldContainer[str]
    modes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., default_json: _Optional[str] = ..., description: _Optional[str] = ..., choices_json: _Optional[_Iterable[str]] = ..., modes: _Optional[_Iterable[str]] = ...) -> None: ...

class ModeDescriptor(_message.Message):
    __slots__ = ("id", "name", "seats", "description", "team_size")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    TEAM_SIZE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    seats: _containers.RepeatedScalarFieldContainer[int]
    description: str
    team_size: int
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., description: _Optional[str] = ..., team_size: _Optional[int] = ...) -> None: ...

class GameDescriptor(_message.Message):
    __slots__ = ("id", "name", "description", "modes", "options", "flags", "action_schema_json", "has_hidden_information", "state_version", "view_schema_json")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    MODES_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    FLAGS_FIELD_NUMBER: _ClassVar[int]
    ACTION_SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    HAS_HIDDEN_INFORMATION_FIELD_NUMBER: _ClassVar[int]
    STATE_VERSION_FIELD_NUMBER: _ClassVar[int]
    VIEW_SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    description: str
    modes: _containers.RepeatedCompositeFieldContainer[ModeDescriptor]
    options: _containers.RepeatedCompositeFieldContainer[OptionDescriptor]
    flags: _containers.RepeatedCompositeFieldContainer[OptionDescriptor]
    action_schema_json: str
    has_hidden_information: bool
    state_version: int
    view_schema_json: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., modes: _Optional[_Iterable[_Union[ModeDescriptor, _Mapping]]] = ..., options: _Optional[_Iterable[_Union[OptionDescriptor, _Mapping]]] = ..., flags: _Optional[_Iterable[_Union[OptionDescriptor, _Mapping]]] = ..., action_schema_json: _Optional[str] = ..., has_hidden_information: _Optional[bool] = ..., state_version: _Optional[int] = ..., view_schema_json: _Optional[str] = ...) -> None: ...

class MatchConfig(_message.Message):
    __slots__ = ("mode", "seats", "options_json", "flags_json")
    MODE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    FLAGS_JSON_FIELD_NUMBER: _ClassVar[int]
    mode: str
    seats: int
    options_json: str
    flags_json: str
    def __init__(self, mode: _Optional[str] = ..., seats: _Optional[int] = ..., options_json: _Optional[str] = ..., flags_json: _Optional[str] = ...) -> None: ...

class LegalAction(_message.Message):
    __slots__ = ("id", "label", "action_json")
    ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    ACTION_JSON_FIELD_NUMBER: _ClassVar[int]
    id: str
    label: str
    action_json: str
    def __init__(self, id: _Optional[str] = ..., label: _Optional[str] = ..., action_json: _Optional[str] = ...) -> None: ...

class Outcome(_message.Message):
    __slots__ = ("ranks", "scores", "reason")
    RANKS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[float]
    reason: str
    def __init__(self, ranks: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[float]] = ..., reason: _Optional[str] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ("kind", "data_json", "audience")
    KIND_FIELD_NUMBER: _ClassVar[int]
    DATA_JSON_FIELD_NUMBER: _ClassVar[int]
    AUDIENCE_FIELD_NUMBER: _ClassVar[int]
    kind: str
    data_json: str
    audience: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, kind: _Optional[str] = ..., data_json: _Optional[str] = ..., audience: _Optional[_Iterable[int]] = ...) -> None: ...

class ClockSpec(_message.Message):
    __slots__ = ("per_move", "bank", "increment")
    PER_MOVE_FIELD_NUMBER: _ClassVar[int]
    BANK_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_FIELD_NUMBER: _ClassVar[int]
    per_move: _duration_pb2.Duration
    bank: _duration_pb2.Duration
    increment: _duration_pb2.Duration
    def __init__(self, per_move: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., bank: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., increment: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...
