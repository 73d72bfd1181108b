from gamehall.v1 import gateway_pb2 as _gateway_pb2
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
    __slots__ = ("id", "game", "mode", "players", "status", "enqueued_unix_ms", "match_id", "seats", "allow_bots", "pool", "submitted_by")
    ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ENQUEUED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
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
    enqueued_unix_ms: int
    match_id: str
    seats: _containers.RepeatedScalarFieldContainer[int]
    allow_bots: bool
    pool: str
    submitted_by: str
    def __init__(self, id: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ..., status: _Optional[_Union[TicketStatus, str]] = ..., enqueued_unix_ms: _Optional[int] = ..., match_id: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., allow_bots: _Optional[bool] = ..., pool: _Optional[str] = ..., submitted_by: _Optional[str] = ...) -> None: ...

class EnqueueTicketRequest(_message.Message):
    __slots__ = ("game", "mode", "players", "no_bots", "pool")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    NO_BOTS_FIELD_NUMBER: _ClassVar[int]
    POOL_FIELD_NUMBER: _ClassVar[int]
    game: str
    mode: str
    players: _containers.RepeatedScalarFieldContainer[str]
    no_bots: bool
    pool: str
    def __init__(self, game: _Optional[str] = ..., mode: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ..., no_bots: _Optional[bool] = ..., pool: _Optional[str] = ...) -> None: ...

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
    __slots__ = ("account_id", "game", "mode", "mu", "sigma", "ordinal", "matches", "rank")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    ORDINAL_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    game: str
    mode: str
    mu: float
    sigma: float
    ordinal: float
    matches: int
    rank: int
    def __init__(self, account_id: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., ordinal: _Optional[float] = ..., matches: _Optional[int] = ..., rank: _Optional[int] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ("game", "mode", "limit")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    game: str
    mode: str
    limit: int
    def __init__(self, game: _Optional[str] = ..., mode: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class GetLeaderboardResponse(_message.Message):
    __slots__ = ("entries",)
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[Rating]
    def __init__(self, entries: _Optional[_Iterable[_Union[Rating, _Mapping]]] = ...) -> None: ...

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

class TournamentEntrant(_message.Message):
    __slots__ = ("player", "seed", "checked_in", "dropped", "rating")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    CHECKED_IN_FIELD_NUMBER: _ClassVar[int]
    DROPPED_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    player: str
    seed: int
    checked_in: bool
    dropped: bool
    rating: float
    def __init__(self, player: _Optional[str] = ..., seed: _Optional[int] = ..., checked_in: _Optional[bool] = ..., dropped: _Optional[bool] = ..., rating: _Optional[float] = ...) -> None: ...

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
    forfeit_reason: str
    adjudicated: bool
    def __init__(self, id: _Optional[str] = ..., round: _Optional[int] = ..., table: _Optional[int] = ..., players: _Optional[_Iterable[str]] = ..., match_id: _Optional[str] = ..., ranks: _Optional[_Iterable[int]] = ..., forfeited: _Optional[_Iterable[str]] = ..., forfeit_reason: _Optional[str] = ..., adjudicated: _Optional[bool] = ...) -> None: ...

class Tournament(_message.Message):
    __slots__ = ("id", "name", "game", "mode", "format", "status", "round", "rounds_planned", "entrants", "pairings", "revision", "registration_opens_unix", "registration_closes_unix", "created_by", "seats")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_PLANNED_FIELD_NUMBER: _ClassVar[int]
    ENTRANTS_FIELD_NUMBER: _ClassVar[int]
    PAIRINGS_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_OPENS_UNIX_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_CLOSES_UNIX_FIELD_NUMBER: _ClassVar[int]
    CREATED_BY_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    game: str
    mode: str
    format: str
    status: str
    round: int
    rounds_planned: int
    entrants: _containers.RepeatedCompositeFieldContainer[TournamentEntrant]
    pairings: _containers.RepeatedCompositeFieldContainer[TournamentPairing]
    revision: int
    registration_opens_unix: int
    registration_closes_unix: int
    created_by: str
    seats: int
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., format: _Optional[str] = ..., status: _Optional[str] = ..., round: _Optional[int] = ..., rounds_planned: _Optional[int] = ..., entrants: _Optional[_Iterable[_Union[TournamentEntrant, _Mapping]]] = ..., pairings: _Optional[_Iterable[_Union[TournamentPairing, _Mapping]]] = ..., revision: _Optional[int] = ..., registration_opens_unix: _Optional[int] = ..., registration_closes_unix: _Optional[int] = ..., created_by: _Optional[str] = ..., seats: _Optional[int] = ...) -> None: ...

class CreateTournamentRequest(_message.Message):
    __slots__ = ("name", "game", "mode", "format", "rounds", "seats", "registration_opens_unix", "registration_closes_unix", "max_players", "require_check_in", "no_show_seconds", "clock")
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_OPENS_UNIX_FIELD_NUMBER: _ClassVar[int]
    REGISTRATION_CLOSES_UNIX_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_CHECK_IN_FIELD_NUMBER: _ClassVar[int]
    NO_SHOW_SECONDS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    name: str
    game: str
    mode: str
    format: str
    rounds: int
    seats: int
    registration_opens_unix: int
    registration_closes_unix: int
    max_players: int
    require_check_in: bool
    no_show_seconds: int
    clock: _gateway_pb2.ClockSpec
    def __init__(self, name: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., format: _Optional[str] = ..., rounds: _Optional[int] = ..., seats: _Optional[int] = ..., registration_opens_unix: _Optional[int] = ..., registration_closes_unix: _Optional[int] = ..., max_players: _Optional[int] = ..., require_check_in: _Optional[bool] = ..., no_show_seconds: _Optional[int] = ..., clock: _Optional[_Union[_gateway_pb2.ClockSpec, _Mapping]] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class ListTournamentsRequest(_message.Message):
    __slots__ = ("status",)
    STATUS_FIELD_NUMBER: _ClassVar[int]
    status: str
    def __init__(self, status: _Optional[str] = ...) -> None: ...

class ListTournamentsResponse(_message.Message):
    __slots__ = ("tournaments",)
    TOURNAMENTS_FIELD_NUMBER: _ClassVar[int]
    tournaments: _containers.RepeatedCompositeFieldContainer[Tournament]
    def __init__(self, tournaments: _Optional[_Iterable[_Union[Tournament, _Mapping]]] = ...) -> None: ...

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

class RegisterPlayerRequest(_message.Message):
    __slots__ = ("tournament_id", "account_id", "bot")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    account_id: str
    bot: str
    def __init__(self, tournament_id: _Optional[str] = ..., account_id: _Optional[str] = ..., bot: _Optional[str] = ...) -> None: ...

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
    __slots__ = ("rank", "player", "points", "tiebreaks", "games", "wins", "dropped")
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
    rank: int
    player: str
    points: float
    tiebreaks: _containers.ScalarMap[str, float]
    games: int
    wins: int
    dropped: bool
    def __init__(self, rank: _Optional[int] = ..., player: _Optional[str] = ..., points: _Optional[float] = ..., tiebreaks: _Optional[_Mapping[str, float]] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., dropped: _Optional[bool] = ...) -> None: ...

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
    status: str
    round: int
    rounds_planned: int
    revision: int
    rows: _containers.RepeatedCompositeFieldContainer[StandingRow]
    tiebreak_order: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tournament_id: _Optional[str] = ..., status: _Optional[str] = ..., round: _Optional[int] = ..., rounds_planned: _Optional[int] = ..., revision: _Optional[int] = ..., rows: _Optional[_Iterable[_Union[StandingRow, _Mapping]]] = ..., tiebreak_order: _Optional[_Iterable[str]] = ...) -> None: ...

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
    __slots__ = ("tournament_id", "pairing_id", "ranks")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PAIRING_ID_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    pairing_id: str
    ranks: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, tournament_id: _Optional[str] = ..., pairing_id: _Optional[str] = ..., ranks: _Optional[_Iterable[int]] = ...) -> None: ...

class AdjudicatePairingResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...
