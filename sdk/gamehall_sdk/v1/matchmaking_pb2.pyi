import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TicketStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TICKET_STATUS_UNSPECIFIED: _ClassVar[TicketStatus]
    TICKET_STATUS_QUEUED: _ClassVar[TicketStatus]
    TICKET_STATUS_MATCHED: _ClassVar[TicketStatus]
    TICKET_STATUS_CANCELLED: _ClassVar[TicketStatus]
TICKET_STATUS_UNSPECIFIED: TicketStatus
TICKET_STATUS_QUEUED: TicketStatus
TICKET_STATUS_MATCHED: TicketStatus
TICKET_STATUS_CANCELLED: TicketStatus

class Ticket(_message.Message):
    __slots__ = ("id", "game", "mode", "players", "status", "enqueue_time", "match_id", "seats", "allow_bots", "pool", "submitted_by")
    ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ENQUEUE_TIME_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    ALLOW_BOTS_FIELD_NUMBER: _ClassVar[int]
    POOL_FIELD_NUMBER: _ClassVar[int]
    SUBMITTED_BY_FIELD_NUMBER: _ClassVar[int]
    id: str
    game: str
    mode: str
    players: _containers.RepeatedScalarFieldContainer[str]
    status: TicketStatus
    enqueue_time: _timestamp_pb2.Timestamp
    match_id: str
    seats: _containers.RepeatedScalarFieldContainer[int]
    allow_bots: bool
    pool: str
    submitted_by: str
    def __init__(self, id: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ..., status: _Optional[_Union[TicketStatus, str]] = ..., enqueue_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., match_id: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., allow_bots: _Optional[bool] = ..., pool: _Optional[str] = ..., submitted_by: _Optional[str] = ...) -> None: ...

class EnqueueTicketRequest(_message.Message):
    __slots__ = ("game", "mode", "players", "no_bots", "pool", "request_id")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    NO_BOTS_FIELD_NUMBER: _ClassVar[int]
    POOL_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    game: str
    mode: str
    players: _containers.RepeatedScalarFieldContainer[str]
    no_bots: bool
    pool: str
    request_id: str
    def __init__(self, game: _Optional[str] = ..., mode: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ..., no_bots: _Optional[bool] = ..., pool: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class EnqueueTicketResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class CancelTicketRequest(_message.Message):
    __slots__ = ("ticket_id",)
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    def __init__(self, ticket_id: _Optional[str] = ...) -> None: ...

class CancelTicketResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class GetTicketRequest(_message.Message):
    __slots__ = ("ticket_id",)
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    def __init__(self, ticket_id: _Optional[str] = ...) -> None: ...

class GetTicketResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class WatchTicketsRequest(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: str
    def __init__(self, game: _Optional[str] = ...) -> None: ...

class WatchTicketsResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class Rating(_message.Message):
    __slots__ = ("account_id", "game", "mode", "mu", "sigma", "ordinal", "matches", "rank", "username")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    ORDINAL_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    game: str
    mode: str
    mu: float
    sigma: float
    ordinal: float
    matches: int
    rank: int
    username: str
    def __init__(self, account_id: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., ordinal: _Optional[float] = ..., matches: _Optional[int] = ..., rank: _Optional[int] = ..., username: _Optional[str] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ("game", "mode", "page_size", "page_token")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game: str
    mode: str
    page_size: int
    page_token: str
    def __init__(self, game: _Optional[str] = ..., mode: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class GetLeaderboardResponse(_message.Message):
    __slots__ = ("entries", "next_page_token")
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[Rating]
    next_page_token: str
    def __init__(self, entries: _Optional[_Iterable[_Union[Rating, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetRatingRequest(_message.Message):
    __slots__ = ("game", "mode", "account_id")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    game: str
    mode: str
    account_id: str
    def __init__(self, game: _Optional[str] = ..., mode: _Optional[str] = ..., account_id: _Optional[str] = ...) -> None: ...

class GetRatingResponse(_message.Message):
    __slots__ = ("rating",)
    RATING_FIELD_NUMBER: _ClassVar[int]
    rating: Rating
    def __init__(self, rating: _Optional[_Union[Rating, _Mapping]] = ...) -> None: ...
