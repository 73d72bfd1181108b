from gamehall.events.v1 import log_pb2 as _log_pb2
from gamehall_sdk.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MatchEvent(_message.Message):
    __slots__ = ("match_id", "version", "game", "created", "seat_joined", "action_applied", "turn_to_act", "finished")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    SEAT_JOINED_FIELD_NUMBER: _ClassVar[int]
    ACTION_APPLIED_FIELD_NUMBER: _ClassVar[int]
    TURN_TO_ACT_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    version: int
    game: str
    created: MatchCreated
    seat_joined: SeatJoined
    action_applied: ActionApplied
    turn_to_act: TurnToAct
    finished: MatchFinished
    def __init__(self, match_id: _Optional[str] = ..., version: _Optional[int] = ..., game: _Optional[str] = ..., created: _Optional[_Union[MatchCreated, _Mapping]] = ..., seat_joined: _Optional[_Union[SeatJoined, _Mapping]] = ..., action_applied: _Optional[_Union[ActionApplied, _Mapping]] = ..., turn_to_act: _Optional[_Union[TurnToAct, _Mapping]] = ..., finished: _Optional[_Union[MatchFinished, _Mapping]] = ...) -> None: ...

class MatchCreated(_message.Message):
    __slots__ = ("mode", "seats", "seed_commitment")
    MODE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    mode: str
    seats: int
    seed_commitment: str
    def __init__(self, mode: _Optional[str] = ..., seats: _Optional[int] = ..., seed_commitment: _Optional[str] = ...) -> None: ...

class SeatJoined(_message.Message):
    __slots__ = ("seat", "account_id", "kind")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    account_id: str
    kind: str
    def __init__(self, seat: _Optional[int] = ..., account_id: _Optional[str] = ..., kind: _Optional[str] = ...) -> None: ...

class ActionApplied(_message.Message):
    __slots__ = ("seat", "public_events", "to_act")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_EVENTS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    public_events: _containers.RepeatedCompositeFieldContainer[_common_pb2.GameEvent]
    to_act: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., public_events: _Optional[_Iterable[_Union[_common_pb2.GameEvent, _Mapping]]] = ..., to_act: _Optional[_Iterable[int]] = ...) -> None: ...

class TurnToAct(_message.Message):
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
    legal: _containers.RepeatedCompositeFieldContainer[_log_pb2.BotChoice]
    def __init__(self, seat: _Optional[int] = ..., difficulty: _Optional[str] = ..., deadline_unix_ms: _Optional[int] = ..., view_json: _Optional[str] = ..., legal: _Optional[_Iterable[_Union[_log_pb2.BotChoice, _Mapping]]] = ...) -> None: ...

class MatchFinished(_message.Message):
    __slots__ = ("outcome", "seed", "mode", "seats", "tournament_id", "ratings_settled")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    RATINGS_SETTLED_FIELD_NUMBER: _ClassVar[int]
    outcome: _common_pb2.Outcome
    seed: int
    mode: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatJoined]
    tournament_id: str
    ratings_settled: bool
    def __init__(self, outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., seed: _Optional[int] = ..., mode: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatJoined, _Mapping]]] = ..., tournament_id: _Optional[str] = ..., ratings_settled: _Optional[bool] = ...) -> None: ...
