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

class TournamentFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOURNAMENT_FORMAT_UNSPECIFIED: _ClassVar[TournamentFormat]
    TOURNAMENT_FORMAT_SWISS: _ClassVar[TournamentFormat]
    TOURNAMENT_FORMAT_SINGLE_ELIMINATION: _ClassVar[TournamentFormat]
    TOURNAMENT_FORMAT_DOUBLE_ELIMINATION: _ClassVar[TournamentFormat]
    TOURNAMENT_FORMAT_ROUND_ROBIN: _ClassVar[TournamentFormat]
    TOURNAMENT_FORMAT_PODS: _ClassVar[TournamentFormat]

class TournamentStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOURNAMENT_STATUS_UNSPECIFIED: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_REGISTRATION: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_RUNNING: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_PAUSED: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_FINISHED: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_CANCELLED: _ClassVar[TournamentStatus]

class ForfeitReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FORFEIT_REASON_UNSPECIFIED: _ClassVar[ForfeitReason]
    FORFEIT_REASON_NO_SHOW: _ClassVar[ForfeitReason]
    FORFEIT_REASON_CLOCK: _ClassVar[ForfeitReason]
TOURNAMENT_FORMAT_UNSPECIFIED: TournamentFormat
TOURNAMENT_FORMAT_SWISS: TournamentFormat
TOURNAMENT_FORMAT_SINGLE_ELIMINATION: TournamentFormat
TOURNAMENT_FORMAT_DOUBLE_ELIMINATION: TournamentFormat
TOURNAMENT_FORMAT_ROUND_ROBIN: TournamentFormat
TOURNAMENT_FORMAT_PODS: TournamentFormat
TOURNAMENT_STATUS_UNSPECIFIED: TournamentStatus
TOURNAMENT_STATUS_REGISTRATION: TournamentStatus
TOURNAMENT_STATUS_RUNNING: TournamentStatus
TOURNAMENT_STATUS_PAUSED: TournamentStatus
TOURNAMENT_STATUS_FINISHED: TournamentStatus
TOURNAMENT_STATUS_CANCELLED: TournamentStatus
FORFEIT_REASON_UNSPECIFIED: ForfeitReason
FORFEIT_REASON_NO_SHOW: ForfeitReason
FORFEIT_REASON_CLOCK: ForfeitReason

class TournamentEntrant(_message.Message):
    __slots__ = ("player", "seed", "checked_in", "dropped", "rating", "display_name")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    CHECKED_IN_FIELD_NUMBER: _ClassVar[int]
    DROPPED_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    player: str
    seed: int
    checked_in: bool
    dropped: bool
    rating: float
    display_name: str
    def __init__(self, player: _Optional[str] = ..., seed: _Optional[int] = ..., checked_in: _Optional[bool] = ..., dropped: _Optional[bool] = ..., rating: _Optional[float] = ..., display_name: _Optional[str] = ...) -> None: ...

class TournamentPairing(_message.Message):
    __slots__ = ("id", "round", "table", "players", "match_id", "ranks", "forfeited", "forfeit_reason", "adjudicated")
    ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_REASON_FIELD_NUMBER: _ClassVar[int]
    ADJUDICATED_FIELD_NUMBER: _ClassVar[int]
    id: str
    round: int
    table: int
    players: _containers.RepeatedScalarFieldContainer[str]
    match_id: str
    ranks: _containers.RepeatedScalarFieldContainer[int]
    forfeited: _containers.RepeatedScalarFieldContainer[str]
    forfeit_reason: ForfeitReason
    adjudicated: bool
    def __init__(self, id: _Optional[str] = ..., round: _Optional[int] = ..., table: _Optional[int] = ..., players: _Optional[_Iterable[str]] = ..., match_id: _Optional[str] = ..., ranks: _Optional[_Iterable[int]] = ..., forfeited: _Optional[_Iterable[str]] = ..., forfeit_reason: _Optional[_Union[ForfeitReason, str]] = ..., adjudicated: _Optional[bool] = ...) -> None: ...

class Tournament(_message.Message):
    __slots__ = ("id", "name", "game", "mode", "format", "status", "round", "rounds_planned", "entrants", "revision", "registration_open_time", "registration_close_time", "created_by", "seats", "pairing_count", "clock", "no_show_timeout")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_PLANNED_FIELD_NUMBER: _ClassVar[int]
    ENTRANTS_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_OPEN_TIME_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_CLOSE_TIME_FIELD_NUMBER: _ClassVar[int]
    CREATED_BY_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    PAIRING_COUNT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    NO_SHOW_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    game: str
    mode: str
    format: TournamentFormat
    status: TournamentStatus
    round: int
    rounds_planned: int
    entrants: _containers.RepeatedCompositeFieldContainer[TournamentEntrant]
    revision: int
    registration_open_time: _timestamp_pb2.Timestamp
    registration_close_time: _timestamp_pb2.Timestamp
    created_by: str
    seats: int
    pairing_count: int
    clock: _common_pb2.ClockSpec
    no_show_timeout: _duration_pb2.Duration
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., format: _Optional[_Union[TournamentFormat, str]] = ..., status: _Optional[_Union[TournamentStatus, str]] = ..., round: _Optional[int] = ..., rounds_planned: _Optional[int] = ..., entrants: _Optional[_Iterable[_Union[TournamentEntrant, _Mapping]]] = ..., revision: _Optional[int] = ..., registration_open_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., registration_close_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., created_by: _Optional[str] = ..., seats: _Optional[int] = ..., pairing_count: _Optional[int] = ..., clock: _Optional[_Union[_common_pb2.ClockSpec, _Mapping]] = ..., no_show_timeout: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class CreateTournamentRequest(_message.Message):
    __slots__ = ("name", "game", "mode", "format", "rounds", "seats", "registration_open_time", "registration_close_time", "max_players", "require_check_in", "no_show_timeout", "clock", "request_id")
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_OPEN_TIME_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_CLOSE_TIME_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_CHECK_IN_FIELD_NUMBER: _ClassVar[int]
    NO_SHOW_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    name: str
    game: str
    mode: str
    format: TournamentFormat
    rounds: int
    seats: int
    registration_open_time: _timestamp_pb2.Timestamp
    registration_close_time: _timestamp_pb2.Timestamp
    max_players: int
    require_check_in: bool
    no_show_timeout: _duration_pb2.Duration
    clock: _common_pb2.ClockSpec
    request_id: str
    def __init__(self, name: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., format: _Optional[_Union[TournamentFormat, str]] = ..., rounds: _Optional[int] = ..., seats: _Optional[int] = ..., registration_open_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., registration_close_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., max_players: _Optional[int] = ..., require_check_in: _Optional[bool] = ..., no_show_timeout: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., clock: _Optional[_Union[_common_pb2.ClockSpec, _Mapping]] = ..., request_id: _Optional[str] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class ListTournamentsRequest(_message.Message):
    __slots__ = ("status", "page_size", "page_token")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    status: TournamentStatus
    page_size: int
    page_token: str
    def __init__(self, status: _Optional[_Union[TournamentStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListTournamentsResponse(_message.Message):
    __slots__ = ("tournaments", "next_page_token")
    TOURNAMENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournaments: _containers.RepeatedCompositeFieldContainer[Tournament]
    next_page_token: str
    def __init__(self, tournaments: _Optional[_Iterable[_Union[Tournament, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class GetTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class ListPairingsRequest(_message.Message):
    __slots__ = ("tournament_id", "round", "page_size", "page_token")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    round: int
    page_size: int
    page_token: str
    def __init__(self, tournament_id: _Optional[str] = ..., round: _Optional[int] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListPairingsResponse(_message.Message):
    __slots__ = ("pairings", "next_page_token")
    PAIRINGS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    pairings: _containers.RepeatedCompositeFieldContainer[TournamentPairing]
    next_page_token: str
    def __init__(self, pairings: _Optional[_Iterable[_Union[TournamentPairing, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RegisterPlayerRequest(_message.Message):
    __slots__ = ("tournament_id", "account_id", "bot", "request_id", "bot_level", "username")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    account_id: str
    bot: str
    request_id: str
    bot_level: _common_pb2.BotDifficulty
    username: str
    def __init__(self, tournament_id: _Optional[str] = ..., account_id: _Optional[str] = ..., bot: _Optional[str] = ..., request_id: _Optional[str] = ..., bot_level: _Optional[_Union[_common_pb2.BotDifficulty, str]] = ..., username: _Optional[str] = ...) -> None: ...

class RegisterPlayerResponse(_message.Message):
    __slots__ = ("tournament", "player")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    player: str
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ..., player: _Optional[str] = ...) -> None: ...

class UnregisterPlayerRequest(_message.Message):
    __slots__ = ("tournament_id", "player")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player: str
    def __init__(self, tournament_id: _Optional[str] = ..., player: _Optional[str] = ...) -> None: ...

class UnregisterPlayerResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class CheckInRequest(_message.Message):
    __slots__ = ("tournament_id", "player")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player: str
    def __init__(self, tournament_id: _Optional[str] = ..., player: _Optional[str] = ...) -> None: ...

class CheckInResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class StartTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class StartTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class StandingRow(_message.Message):
    __slots__ = ("rank", "player", "points", "tiebreaks", "games", "wins", "dropped", "display_name")
    class TiebreaksEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    RANK_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    TIEBREAKS_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    DROPPED_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    rank: int
    player: str
    points: float
    tiebreaks: _containers.ScalarMap[str, float]
    games: int
    wins: int
    dropped: bool
    display_name: str
    def __init__(self, rank: _Optional[int] = ..., player: _Optional[str] = ..., points: _Optional[float] = ..., tiebreaks: _Optional[_Mapping[str, float]] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., dropped: _Optional[bool] = ..., display_name: _Optional[str] = ...) -> None: ...

class Standings(_message.Message):
    __slots__ = ("tournament_id", "status", "round", "rounds_planned", "revision", "rows", "tiebreak_order")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_PLANNED_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    TIEBREAK_ORDER_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    status: TournamentStatus
    round: int
    rounds_planned: int
    revision: int
    rows: _containers.RepeatedCompositeFieldContainer[StandingRow]
    tiebreak_order: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tournament_id: _Optional[str] = ..., status: _Optional[_Union[TournamentStatus, str]] = ..., round: _Optional[int] = ..., rounds_planned: _Optional[int] = ..., revision: _Optional[int] = ..., rows: _Optional[_Iterable[_Union[StandingRow, _Mapping]]] = ..., tiebreak_order: _Optional[_Iterable[str]] = ...) -> None: ...

class GetStandingsRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class GetStandingsResponse(_message.Message):
    __slots__ = ("standings",)
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    standings: Standings
    def __init__(self, standings: _Optional[_Union[Standings, _Mapping]] = ...) -> None: ...

class WatchStandingsRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class WatchStandingsResponse(_message.Message):
    __slots__ = ("standings",)
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    standings: Standings
    def __init__(self, standings: _Optional[_Union[Standings, _Mapping]] = ...) -> None: ...

class PauseTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class PauseTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class ResumeTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class ResumeTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class DropPlayerRequest(_message.Message):
    __slots__ = ("tournament_id", "player")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player: str
    def __init__(self, tournament_id: _Optional[str] = ..., player: _Optional[str] = ...) -> None: ...

class DropPlayerResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class RepairRoundRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class RepairRoundResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class AdjudicatePairingRequest(_message.Message):
    __slots__ = ("tournament_id", "pairing_id", "ranks", "request_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PAIRING_ID_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    pairing_id: str
    ranks: _containers.RepeatedScalarFieldContainer[int]
    request_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., pairing_id: _Optional[str] = ..., ranks: _Optional[_Iterable[int]] = ..., request_id: _Optional[str] = ...) -> None: ...

class AdjudicatePairingResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...
