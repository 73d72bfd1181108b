import datetime

from gamehall_sdk.v1 import common_pb2 as _common_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MatchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_STATUS_UNSPECIFIED: _ClassVar[MatchStatus]
    MATCH_STATUS_OPEN: _ClassVar[MatchStatus]
    MATCH_STATUS_RUNNING: _ClassVar[MatchStatus]
    MATCH_STATUS_FINISHED: _ClassVar[MatchStatus]
    MATCH_STATUS_ABORTED: _ClassVar[MatchStatus]

class SeatKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_KIND_UNSPECIFIED: _ClassVar[SeatKind]
    SEAT_KIND_OPEN: _ClassVar[SeatKind]
    SEAT_KIND_RESERVED: _ClassVar[SeatKind]
    SEAT_KIND_HUMAN: _ClassVar[SeatKind]
    SEAT_KIND_BOT: _ClassVar[SeatKind]
MATCH_STATUS_UNSPECIFIED: MatchStatus
MATCH_STATUS_OPEN: MatchStatus
MATCH_STATUS_RUNNING: MatchStatus
MATCH_STATUS_FINISHED: MatchStatus
MATCH_STATUS_ABORTED: MatchStatus
SEAT_KIND_UNSPECIFIED: SeatKind
SEAT_KIND_OPEN: SeatKind
SEAT_KIND_RESERVED: SeatKind
SEAT_KIND_HUMAN: SeatKind
SEAT_KIND_BOT: SeatKind

class SeatSpec(_message.Message):
    __slots__ = ("open", "reserved_for", "bot", "bot_level")
    OPEN_FIELD_NUMBER: _ClassVar[int]
    RESERVED_FOR_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    open: bool
    reserved_for: str
    bot: str
    bot_level: _common_pb2.BotDifficulty
    def __init__(self, open: _Optional[bool] = ..., reserved_for: _Optional[str] = ..., bot: _Optional[str] = ..., bot_level: _Optional[_Union[_common_pb2.BotDifficulty, str]] = ...) -> None: ...

class Seat(_message.Message):
    __slots__ = ("seat", "kind", "account_id", "username", "bot_difficulty", "clock_remaining", "bot_level")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    BOT_DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    CLOCK_REMAINING_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: SeatKind
    account_id: str
    username: str
    bot_difficulty: str
    clock_remaining: _duration_pb2.Duration
    bot_level: _common_pb2.BotDifficulty
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[SeatKind, str]] = ..., account_id: _Optional[str] = ..., username: _Optional[str] = ..., bot_difficulty: _Optional[str] = ..., clock_remaining: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., bot_level: _Optional[_Union[_common_pb2.BotDifficulty, str]] = ...) -> None: ...

class Match(_message.Message):
    __slots__ = ("id", "game", "config", "status", "seats", "version", "to_act", "outcome", "seed_commitment", "seed", "public", "clock", "created_by", "create_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    CREATED_BY_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    game: str
    config: _common_pb2.MatchConfig
    status: MatchStatus
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    version: int
    to_act: _containers.RepeatedScalarFieldContainer[int]
    outcome: _common_pb2.Outcome
    seed_commitment: str
    seed: int
    public: bool
    clock: _common_pb2.ClockSpec
    created_by: str
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., game: _Optional[str] = ..., config: _Optional[_Union[_common_pb2.MatchConfig, _Mapping]] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., version: _Optional[int] = ..., to_act: _Optional[_Iterable[int]] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., seed_commitment: _Optional[str] = ..., seed: _Optional[int] = ..., public: _Optional[bool] = ..., clock: _Optional[_Union[_common_pb2.ClockSpec, _Mapping]] = ..., created_by: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ("game", "config", "seats", "clock", "public", "join_seat", "request_id")
    GAME_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_FIELD_NUMBER: _ClassVar[int]
    JOIN_SEAT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    game: str
    config: _common_pb2.MatchConfig
    seats: _containers.RepeatedCompositeFieldContainer[SeatSpec]
    clock: _common_pb2.ClockSpec
    public: bool
    join_seat: int
    request_id: str
    def __init__(self, game: _Optional[str] = ..., config: _Optional[_Union[_common_pb2.MatchConfig, _Mapping]] = ..., seats: _Optional[_Iterable[_Union[SeatSpec, _Mapping]]] = ..., clock: _Optional[_Union[_common_pb2.ClockSpec, _Mapping]] = ..., public: _Optional[bool] = ..., join_seat: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class CreateMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: Match
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("game", "status", "mine", "page_size", "page_token")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    MINE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game: str
    status: MatchStatus
    mine: bool
    page_size: int
    page_token: str
    def __init__(self, game: _Optional[str] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., mine: _Optional[bool] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_page_token")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[Match]
    next_page_token: str
    def __init__(self, matches: _Optional[_Iterable[_Union[Match, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: Match
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class JoinMatchRequest(_message.Message):
    __slots__ = ("match_id", "seat", "request_id")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    request_id: str
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class JoinMatchResponse(_message.Message):
    __slots__ = ("match", "seat")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match: Match
    seat: int
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ..., seat: _Optional[int] = ...) -> None: ...

class LeaveMatchRequest(_message.Message):
    __slots__ = ("match_id", "request_id")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    request_id: str
    def __init__(self, match_id: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class LeaveMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: Match
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class GetViewRequest(_message.Message):
    __slots__ = ("match_id", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class GetViewResponse(_message.Message):
    __slots__ = ("version", "seat", "view_json", "to_act", "outcome")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    version: int
    seat: int
    view_json: str
    to_act: _containers.RepeatedScalarFieldContainer[int]
    outcome: _common_pb2.Outcome
    def __init__(self, version: _Optional[int] = ..., seat: _Optional[int] = ..., view_json: _Optional[str] = ..., to_act: _Optional[_Iterable[int]] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ...) -> None: ...

class ListLegalActionsRequest(_message.Message):
    __slots__ = ("match_id", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class ListLegalActionsResponse(_message.Message):
    __slots__ = ("version", "seat", "actions")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    version: int
    seat: int
    actions: _containers.RepeatedCompositeFieldContainer[_common_pb2.LegalAction]
    def __init__(self, version: _Optional[int] = ..., seat: _Optional[int] = ..., actions: _Optional[_Iterable[_Union[_common_pb2.LegalAction, _Mapping]]] = ...) -> None: ...

class SubmitActionRequest(_message.Message):
    __slots__ = ("match_id", "action_id", "action_json", "request_id", "expected_version", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_JSON_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    action_id: str
    action_json: str
    request_id: str
    expected_version: int
    seat: int
    def __init__(self, match_id: _Optional[str] = ..., action_id: _Optional[str] = ..., action_json: _Optional[str] = ..., request_id: _Optional[str] = ..., expected_version: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class SubmitActionResponse(_message.Message):
    __slots__ = ("version", "action", "to_act", "outcome", "replayed")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    version: int
    action: _common_pb2.LegalAction
    to_act: _containers.RepeatedScalarFieldContainer[int]
    outcome: _common_pb2.Outcome
    replayed: bool
    def __init__(self, version: _Optional[int] = ..., action: _Optional[_Union[_common_pb2.LegalAction, _Mapping]] = ..., to_act: _Optional[_Iterable[int]] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., replayed: _Optional[bool] = ...) -> None: ...

class WatchMatchRequest(_message.Message):
    __slots__ = ("match_id", "from_version", "delay_actions", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    DELAY_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    from_version: int
    delay_actions: int
    seat: int
    def __init__(self, match_id: _Optional[str] = ..., from_version: _Optional[int] = ..., delay_actions: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class WatchMatchResponse(_message.Message):
    __slots__ = ("version", "seat", "view_json", "to_act", "outcome", "events", "legal_actions")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    version: int
    seat: int
    view_json: str
    to_act: _containers.RepeatedScalarFieldContainer[int]
    outcome: _common_pb2.Outcome
    events: _containers.RepeatedCompositeFieldContainer[_common_pb2.GameEvent]
    legal_actions: _containers.RepeatedCompositeFieldContainer[_common_pb2.LegalAction]
    def __init__(self, version: _Optional[int] = ..., seat: _Optional[int] = ..., view_json: _Optional[str] = ..., to_act: _Optional[_Iterable[int]] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_common_pb2.GameEvent, _Mapping]]] = ..., legal_actions: _Optional[_Iterable[_Union[_common_pb2.LegalAction, _Mapping]]] = ...) -> None: ...

class GetReplayRequest(_message.Message):
    __slots__ = ("match_id", "page_size", "page_token")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    page_size: int
    page_token: str
    def __init__(self, match_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ReplayStep(_message.Message):
    __slots__ = ("version", "seat", "action", "view_json")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    version: int
    seat: int
    action: _common_pb2.LegalAction
    view_json: str
    def __init__(self, version: _Optional[int] = ..., seat: _Optional[int] = ..., action: _Optional[_Union[_common_pb2.LegalAction, _Mapping]] = ..., view_json: _Optional[str] = ...) -> None: ...

class GetReplayResponse(_message.Message):
    __slots__ = ("match", "complete", "steps", "initial_view_json", "next_page_token")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    INITIAL_VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    match: Match
    complete: bool
    steps: _containers.RepeatedCompositeFieldContainer[ReplayStep]
    initial_view_json: str
    next_page_token: str
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ..., complete: _Optional[bool] = ..., steps: _Optional[_Iterable[_Union[ReplayStep, _Mapping]]] = ..., initial_view_json: _Optional[str] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class PlaySeatRequest(_message.Message):
    __slots__ = ("open", "action")
    OPEN_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    open: OpenSeatStream
    action: SeatAction
    def __init__(self, open: _Optional[_Union[OpenSeatStream, _Mapping]] = ..., action: _Optional[_Union[SeatAction, _Mapping]] = ...) -> None: ...

class OpenSeatStream(_message.Message):
    __slots__ = ("match_id", "seat", "from_version")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    from_version: int
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., from_version: _Optional[int] = ...) -> None: ...

class SeatAction(_message.Message):
    __slots__ = ("request_id", "action_id", "action_json", "expected_version")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_JSON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    action_id: str
    action_json: str
    expected_version: int
    def __init__(self, request_id: _Optional[str] = ..., action_id: _Optional[str] = ..., action_json: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class PlaySeatResponse(_message.Message):
    __slots__ = ("update", "result")
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    update: SeatUpdate
    result: SeatActionResult
    def __init__(self, update: _Optional[_Union[SeatUpdate, _Mapping]] = ..., result: _Optional[_Union[SeatActionResult, _Mapping]] = ...) -> None: ...

class SeatUpdate(_message.Message):
    __slots__ = ("step", "legal")
    STEP_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    step: WatchMatchResponse
    legal: ListLegalActionsResponse
    def __init__(self, step: _Optional[_Union[WatchMatchResponse, _Mapping]] = ..., legal: _Optional[_Union[ListLegalActionsResponse, _Mapping]] = ...) -> None: ...

class SeatActionResult(_message.Message):
    __slots__ = ("request_id", "played", "error")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    played: SubmitActionResponse
    error: bytes
    def __init__(self, request_id: _Optional[str] = ..., played: _Optional[_Union[SubmitActionResponse, _Mapping]] = ..., error: _Optional[bytes] = ...) -> None: ...
