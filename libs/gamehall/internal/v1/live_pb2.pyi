from gamehall.internal.v1 import persistence_pb2 as _persistence_pb2
from gamehall_sdk.v1 import common_pb2 as _common_pb2
from gamehall_sdk.v1 import match_pb2 as _match_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Caller(_message.Message):
    __slots__ = ("account_id", "role")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    role: str
    def __init__(self, account_id: _Optional[str] = ..., role: _Optional[str] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("match_id", "caller", "seat", "action_id", "action_json", "request_id", "expected_version")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_JSON_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    caller: Caller
    seat: int
    action_id: str
    action_json: str
    request_id: str
    expected_version: int
    def __init__(self, match_id: _Optional[str] = ..., caller: _Optional[_Union[Caller, _Mapping]] = ..., seat: _Optional[int] = ..., action_id: _Optional[str] = ..., action_json: _Optional[str] = ..., request_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class GetViewRequest(_message.Message):
    __slots__ = ("match_id", "caller", "seat", "at_version")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AT_VERSION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    caller: Caller
    seat: int
    at_version: int
    def __init__(self, match_id: _Optional[str] = ..., caller: _Optional[_Union[Caller, _Mapping]] = ..., seat: _Optional[int] = ..., at_version: _Optional[int] = ...) -> None: ...

class ListLegalActionsRequest(_message.Message):
    __slots__ = ("match_id", "caller", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    caller: Caller
    seat: int
    def __init__(self, match_id: _Optional[str] = ..., caller: _Optional[_Union[Caller, _Mapping]] = ..., seat: _Optional[int] = ...) -> None: ...

class GetReplayRequest(_message.Message):
    __slots__ = ("match_id", "caller", "from_version", "page_size")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    caller: Caller
    from_version: int
    page_size: int
    def __init__(self, match_id: _Optional[str] = ..., caller: _Optional[_Union[Caller, _Mapping]] = ..., from_version: _Optional[int] = ..., page_size: _Optional[int] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _match_pb2.SubmitActionResponse
    def __init__(self, result: _Optional[_Union[_match_pb2.SubmitActionResponse, _Mapping]] = ...) -> None: ...

class PlayStreamRequest(_message.Message):
    __slots__ = ("calls",)
    CALLS_FIELD_NUMBER: _ClassVar[int]
    calls: _containers.RepeatedCompositeFieldContainer[PlayCall]
    def __init__(self, calls: _Optional[_Iterable[_Union[PlayCall, _Mapping]]] = ...) -> None: ...

class PlayCall(_message.Message):
    __slots__ = ("id", "request", "timeout_ms", "trace_id", "get_view", "list_legal_actions")
    ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    TRACE_ID_FIELD_NUMBER: _ClassVar[int]
    GET_VIEW_FIELD_NUMBER: _ClassVar[int]
    LIST_LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    id: int
    request: PlayRequest
    timeout_ms: int
    trace_id: str
    get_view: GetViewRequest
    list_legal_actions: ListLegalActionsRequest
    def __init__(self, id: _Optional[int] = ..., request: _Optional[_Union[PlayRequest, _Mapping]] = ..., timeout_ms: _Optional[int] = ..., trace_id: _Optional[str] = ..., get_view: _Optional[_Union[GetViewRequest, _Mapping]] = ..., list_legal_actions: _Optional[_Union[ListLegalActionsRequest, _Mapping]] = ...) -> None: ...

class PlayStreamResponse(_message.Message):
    __slots__ = ("answers",)
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    answers: _containers.RepeatedCompositeFieldContainer[PlayAnswer]
    def __init__(self, answers: _Optional[_Iterable[_Union[PlayAnswer, _Mapping]]] = ...) -> None: ...

class PlayAnswer(_message.Message):
    __slots__ = ("id", "response", "error", "view", "legal")
    ID_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    id: int
    response: PlayResponse
    error: bytes
    view: GetViewResponse
    legal: ListLegalActionsResponse
    def __init__(self, id: _Optional[int] = ..., response: _Optional[_Union[PlayResponse, _Mapping]] = ..., error: _Optional[bytes] = ..., view: _Optional[_Union[GetViewResponse, _Mapping]] = ..., legal: _Optional[_Union[ListLegalActionsResponse, _Mapping]] = ...) -> None: ...

class GetViewResponse(_message.Message):
    __slots__ = ("view",)
    VIEW_FIELD_NUMBER: _ClassVar[int]
    view: _match_pb2.WatchMatchResponse
    def __init__(self, view: _Optional[_Union[_match_pb2.WatchMatchResponse, _Mapping]] = ...) -> None: ...

class ListLegalActionsResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _match_pb2.ListLegalActionsResponse
    def __init__(self, result: _Optional[_Union[_match_pb2.ListLegalActionsResponse, _Mapping]] = ...) -> None: ...

class GetReplayResponse(_message.Message):
    __slots__ = ("result", "next_version")
    RESULT_FIELD_NUMBER: _ClassVar[int]
    NEXT_VERSION_FIELD_NUMBER: _ClassVar[int]
    result: _match_pb2.GetReplayResponse
    next_version: int
    def __init__(self, result: _Optional[_Union[_match_pb2.GetReplayResponse, _Mapping]] = ..., next_version: _Optional[int] = ...) -> None: ...

class CloseRequest(_message.Message):
    __slots__ = ("match_id", "status", "outcome_json", "expected_version")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_JSON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    status: str
    outcome_json: str
    expected_version: int
    def __init__(self, match_id: _Optional[str] = ..., status: _Optional[str] = ..., outcome_json: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class CloseResponse(_message.Message):
    __slots__ = ("version",)
    VERSION_FIELD_NUMBER: _ClassVar[int]
    version: int
    def __init__(self, version: _Optional[int] = ...) -> None: ...

class LeaveMatchRequest(_message.Message):
    __slots__ = ("match_id", "caller", "why", "request_id")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    WHY_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    caller: Caller
    why: str
    request_id: str
    def __init__(self, match_id: _Optional[str] = ..., caller: _Optional[_Union[Caller, _Mapping]] = ..., why: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class LeaveMatchResponse(_message.Message):
    __slots__ = ("match", "replayed")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    match: _persistence_pb2.MatchRecord
    replayed: bool
    def __init__(self, match: _Optional[_Union[_persistence_pb2.MatchRecord, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class OpenMatchRequest(_message.Message):
    __slots__ = ("match_id", "caller", "config", "seats", "join_seat", "public", "clock")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    JOIN_SEAT_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    caller: Caller
    config: _common_pb2.MatchConfig
    seats: _containers.RepeatedCompositeFieldContainer[_match_pb2.SeatSpec]
    join_seat: int
    public: bool
    clock: _common_pb2.ClockSpec
    def __init__(self, match_id: _Optional[str] = ..., caller: _Optional[_Union[Caller, _Mapping]] = ..., config: _Optional[_Union[_common_pb2.MatchConfig, _Mapping]] = ..., seats: _Optional[_Iterable[_Union[_match_pb2.SeatSpec, _Mapping]]] = ..., join_seat: _Optional[int] = ..., public: _Optional[bool] = ..., clock: _Optional[_Union[_common_pb2.ClockSpec, _Mapping]] = ...) -> None: ...

class OpenMatchResponse(_message.Message):
    __slots__ = ("match", "existed")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    EXISTED_FIELD_NUMBER: _ClassVar[int]
    match: _persistence_pb2.MatchRecord
    existed: bool
    def __init__(self, match: _Optional[_Union[_persistence_pb2.MatchRecord, _Mapping]] = ..., existed: _Optional[bool] = ...) -> None: ...

class JoinMatchRequest(_message.Message):
    __slots__ = ("match_id", "caller", "seat", "request_id")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    caller: Caller
    seat: int
    request_id: str
    def __init__(self, match_id: _Optional[str] = ..., caller: _Optional[_Union[Caller, _Mapping]] = ..., seat: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class JoinMatchResponse(_message.Message):
    __slots__ = ("match", "seat", "replayed")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    match: _persistence_pb2.MatchRecord
    seat: int
    replayed: bool
    def __init__(self, match: _Optional[_Union[_persistence_pb2.MatchRecord, _Mapping]] = ..., seat: _Optional[int] = ..., replayed: _Optional[bool] = ...) -> None: ...

class GetHeadRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetHeadResponse(_message.Message):
    __slots__ = ("version", "status", "outcome_json", "clock_state_json")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_JSON_FIELD_NUMBER: _ClassVar[int]
    CLOCK_STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    version: int
    status: str
    outcome_json: str
    clock_state_json: str
    def __init__(self, version: _Optional[int] = ..., status: _Optional[str] = ..., outcome_json: _Optional[str] = ..., clock_state_json: _Optional[str] = ...) -> None: ...
