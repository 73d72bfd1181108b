from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AuditEvent(_message.Message):
    __slots__ = ("id", "at_unix_ms", "actor", "actor_name", "role", "action", "target", "detail_json", "outcome", "message", "finished_unix_ms")
    ID_FIELD_NUMBER: _ClassVar[int]
    AT_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    ACTOR_NAME_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    DETAIL_JSON_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    FINISHED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    id: str
    at_unix_ms: int
    actor: str
    actor_name: str
    role: str
    action: str
    target: str
    detail_json: str
    outcome: str
    message: str
    finished_unix_ms: int
    def __init__(self, id: _Optional[str] = ..., at_unix_ms: _Optional[int] = ..., actor: _Optional[str] = ..., actor_name: _Optional[str] = ..., role: _Optional[str] = ..., action: _Optional[str] = ..., target: _Optional[str] = ..., detail_json: _Optional[str] = ..., outcome: _Optional[str] = ..., message: _Optional[str] = ..., finished_unix_ms: _Optional[int] = ...) -> None: ...

class BeginAuditEventRequest(_message.Message):
    __slots__ = ("id", "actor", "actor_name", "role", "action", "target", "detail_json")
    ID_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    ACTOR_NAME_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    DETAIL_JSON_FIELD_NUMBER: _ClassVar[int]
    id: str
    actor: str
    actor_name: str
    role: str
    action: str
    target: str
    detail_json: str
    def __init__(self, id: _Optional[str] = ..., actor: _Optional[str] = ..., actor_name: _Optional[str] = ..., role: _Optional[str] = ..., action: _Optional[str] = ..., target: _Optional[str] = ..., detail_json: _Optional[str] = ...) -> None: ...

class BeginAuditEventResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: AuditEvent
    def __init__(self, event: _Optional[_Union[AuditEvent, _Mapping]] = ...) -> None: ...

class FinishAuditEventRequest(_message.Message):
    __slots__ = ("id", "outcome", "message", "target")
    ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    id: str
    outcome: str
    message: str
    target: str
    def __init__(self, id: _Optional[str] = ..., outcome: _Optional[str] = ..., message: _Optional[str] = ..., target: _Optional[str] = ...) -> None: ...

class FinishAuditEventResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: AuditEvent
    def __init__(self, event: _Optional[_Union[AuditEvent, _Mapping]] = ...) -> None: ...

class ListAuditEventsRequest(_message.Message):
    __slots__ = ("actor", "action", "since_unix_ms", "until_unix_ms", "page_size", "page_token")
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SINCE_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    UNTIL_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    actor: str
    action: str
    since_unix_ms: int
    until_unix_ms: int
    page_size: int
    page_token: str
    def __init__(self, actor: _Optional[str] = ..., action: _Optional[str] = ..., since_unix_ms: _Optional[int] = ..., until_unix_ms: _Optional[int] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListAuditEventsResponse(_message.Message):
    __slots__ = ("events", "next_page_token")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[AuditEvent]
    next_page_token: str
    def __init__(self, events: _Optional[_Iterable[_Union[AuditEvent, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
