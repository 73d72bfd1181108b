from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class TicketsMatched(_message.Message):
    __slots__ = ("game", "mode", "match_id", "ticket_ids", "players", "reason")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    TICKET_IDS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    game: str
    mode: str
    match_id: str
    ticket_ids: _containers.RepeatedScalarFieldContainer[str]
    players: _containers.RepeatedScalarFieldContainer[str]
    reason: str
    def __init__(self, game: _Optional[str] = ..., mode: _Optional[str] = ..., match_id: _Optional[str] = ..., ticket_ids: _Optional[_Iterable[str]] = ..., players: _Optional[_Iterable[str]] = ..., reason: _Optional[str] = ...) -> None: ...

class TournamentEvent(_message.Message):
    __slots__ = ("tournament_id", "revision", "kind", "status", "round", "pairing_id", "match_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    PAIRING_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    revision: int
    kind: str
    status: str
    round: int
    pairing_id: str
    match_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., revision: _Optional[int] = ..., kind: _Optional[str] = ..., status: _Optional[str] = ..., round: _Optional[int] = ..., pairing_id: _Optional[str] = ..., match_id: _Optional[str] = ...) -> None: ...
