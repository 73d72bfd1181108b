from gamehall.internal.v1 import persistence_pb2 as _persistence_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StoredTicket(_message.Message):
    __slots__ = ("id", "game", "mode", "state", "ticket", "submitted_by", "players", "enqueued_at", "match_request", "match_id", "seats", "created_unix_ms", "closed_unix_ms")
    ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    TICKET_FIELD_NUMBER: _ClassVar[int]
    SUBMITTED_BY_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ENQUEUED_AT_FIELD_NUMBER: _ClassVar[int]
    MATCH_REQUEST_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    CLOSED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    id: str
    game: str
    mode: str
    state: str
    ticket: bytes
    submitted_by: str
    players: _containers.RepeatedScalarFieldContainer[str]
    enqueued_at: float
    match_request: str
    match_id: str
    seats: _containers.RepeatedScalarFieldContainer[int]
    created_unix_ms: int
    closed_unix_ms: int
    def __init__(self, id: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., state: _Optional[str] = ..., ticket: _Optional[bytes] = ..., submitted_by: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ..., enqueued_at: _Optional[float] = ..., match_request: _Optional[str] = ..., match_id: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., created_unix_ms: _Optional[int] = ..., closed_unix_ms: _Optional[int] = ...) -> None: ...

class PendingMatchRecord(_message.Message):
    __slots__ = ("request_id", "game", "mode", "match", "ticket_ids", "claimed_unix_ms")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    TICKET_IDS_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    game: str
    mode: str
    match: bytes
    ticket_ids: _containers.RepeatedScalarFieldContainer[str]
    claimed_unix_ms: int
    def __init__(self, request_id: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., match: _Optional[bytes] = ..., ticket_ids: _Optional[_Iterable[str]] = ..., claimed_unix_ms: _Optional[int] = ...) -> None: ...

class RatingRecord(_message.Message):
    __slots__ = ("game", "mode", "account", "mu", "sigma", "matches", "updated_unix_ms")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    UPDATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    game: str
    mode: str
    account: str
    mu: float
    sigma: float
    matches: int
    updated_unix_ms: int
    def __init__(self, game: _Optional[str] = ..., mode: _Optional[str] = ..., account: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., matches: _Optional[int] = ..., updated_unix_ms: _Optional[int] = ...) -> None: ...

class TournamentRecord(_message.Message):
    __slots__ = ("id", "name", "game", "mode", "format", "status", "revision", "doc", "created_by", "created_unix_ms", "updated_unix_ms")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    DOC_FIELD_NUMBER: _ClassVar[int]
    CREATED_BY_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    game: str
    mode: str
    format: str
    status: str
    revision: int
    doc: bytes
    created_by: str
    created_unix_ms: int
    updated_unix_ms: int
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., format: _Optional[str] = ..., status: _Optional[str] = ..., revision: _Optional[int] = ..., doc: _Optional[bytes] = ..., created_by: _Optional[str] = ..., created_unix_ms: _Optional[int] = ..., updated_unix_ms: _Optional[int] = ...) -> None: ...

class TournamentMatchRecord(_message.Message):
    __slots__ = ("match_id", "tournament_id", "round", "pairing_id", "created_unix_ms")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    PAIRING_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    tournament_id: str
    round: int
    pairing_id: str
    created_unix_ms: int
    def __init__(self, match_id: _Optional[str] = ..., tournament_id: _Optional[str] = ..., round: _Optional[int] = ..., pairing_id: _Optional[str] = ..., created_unix_ms: _Optional[int] = ...) -> None: ...

class TournamentResultRecord(_message.Message):
    __slots__ = ("match_id", "tournament_id", "pairing_id", "round", "ranks", "reason", "recorded_unix_ms")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PAIRING_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RECORDED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    tournament_id: str
    pairing_id: str
    round: int
    ranks: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    recorded_unix_ms: int
    def __init__(self, match_id: _Optional[str] = ..., tournament_id: _Optional[str] = ..., pairing_id: _Optional[str] = ..., round: _Optional[int] = ..., ranks: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ..., recorded_unix_ms: _Optional[int] = ...) -> None: ...

class EnqueueTicketRequest(_message.Message):
    __slots__ = ("id", "game", "mode", "ticket", "players", "submitted_by", "enqueued_at")
    ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    TICKET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SUBMITTED_BY_FIELD_NUMBER: _ClassVar[int]
    ENQUEUED_AT_FIELD_NUMBER: _ClassVar[int]
    id: str
    game: str
    mode: str
    ticket: bytes
    players: _containers.RepeatedScalarFieldContainer[str]
    submitted_by: str
    enqueued_at: float
    def __init__(self, id: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., ticket: _Optional[bytes] = ..., players: _Optional[_Iterable[str]] = ..., submitted_by: _Optional[str] = ..., enqueued_at: _Optional[float] = ...) -> None: ...

class EnqueueTicketResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: StoredTicket
    def __init__(self, ticket: _Optional[_Union[StoredTicket, _Mapping]] = ...) -> None: ...

class CancelTicketRequest(_message.Message):
    __slots__ = ("ticket_id", "outbox")
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    OUTBOX_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    outbox: _containers.RepeatedCompositeFieldContainer[_persistence_pb2.OutboxEntry]
    def __init__(self, ticket_id: _Optional[str] = ..., outbox: _Optional[_Iterable[_Union[_persistence_pb2.OutboxEntry, _Mapping]]] = ...) -> None: ...

class CancelTicketResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: StoredTicket
    def __init__(self, ticket: _Optional[_Union[StoredTicket, _Mapping]] = ...) -> None: ...

class GetTicketRequest(_message.Message):
    __slots__ = ("ticket_id",)
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    def __init__(self, ticket_id: _Optional[str] = ...) -> None: ...

class GetTicketResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: StoredTicket
    def __init__(self, ticket: _Optional[_Union[StoredTicket, _Mapping]] = ...) -> None: ...

class ListQueuedTicketsRequest(_message.Message):
    __slots__ = ("game", "mode", "after_enqueued_at", "after_id", "limit")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    AFTER_ENQUEUED_AT_FIELD_NUMBER: _ClassVar[int]
    AFTER_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    game: str
    mode: str
    after_enqueued_at: float
    after_id: str
    limit: int
    def __init__(self, game: _Optional[str] = ..., mode: _Optional[str] = ..., after_enqueued_at: _Optional[float] = ..., after_id: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class ListQueuedTicketsResponse(_message.Message):
    __slots__ = ("tickets",)
    TICKETS_FIELD_NUMBER: _ClassVar[int]
    tickets: _containers.RepeatedCompositeFieldContainer[StoredTicket]
    def __init__(self, tickets: _Optional[_Iterable[_Union[StoredTicket, _Mapping]]] = ...) -> None: ...

class ListAccountTicketsRequest(_message.Message):
    __slots__ = ("account", "game", "closed_since_unix_ms", "limit")
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    CLOSED_SINCE_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    account: str
    game: str
    closed_since_unix_ms: int
    limit: int
    def __init__(self, account: _Optional[str] = ..., game: _Optional[str] = ..., closed_since_unix_ms: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class ListAccountTicketsResponse(_message.Message):
    __slots__ = ("tickets",)
    TICKETS_FIELD_NUMBER: _ClassVar[int]
    tickets: _containers.RepeatedCompositeFieldContainer[StoredTicket]
    def __init__(self, tickets: _Optional[_Iterable[_Union[StoredTicket, _Mapping]]] = ...) -> None: ...

class ProposedMatch(_message.Message):
    __slots__ = ("request_id", "mode", "match", "ticket_ids")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    TICKET_IDS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    mode: str
    match: bytes
    ticket_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, request_id: _Optional[str] = ..., mode: _Optional[str] = ..., match: _Optional[bytes] = ..., ticket_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class ClaimTicketsRequest(_message.Message):
    __slots__ = ("game", "proposals")
    GAME_FIELD_NUMBER: _ClassVar[int]
    PROPOSALS_FIELD_NUMBER: _ClassVar[int]
    game: str
    proposals: _containers.RepeatedCompositeFieldContainer[ProposedMatch]
    def __init__(self, game: _Optional[str] = ..., proposals: _Optional[_Iterable[_Union[ProposedMatch, _Mapping]]] = ...) -> None: ...

class ClaimTicketsResponse(_message.Message):
    __slots__ = ("claimed_request_ids",)
    CLAIMED_REQUEST_IDS_FIELD_NUMBER: _ClassVar[int]
    claimed_request_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, claimed_request_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class ListPendingMatchesRequest(_message.Message):
    __slots__ = ("game", "limit")
    GAME_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    game: str
    limit: int
    def __init__(self, game: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class ListPendingMatchesResponse(_message.Message):
    __slots__ = ("matches",)
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[PendingMatchRecord]
    def __init__(self, matches: _Optional[_Iterable[_Union[PendingMatchRecord, _Mapping]]] = ...) -> None: ...

class TicketSeats(_message.Message):
    __slots__ = ("seats",)
    SEATS_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seats: _Optional[_Iterable[int]] = ...) -> None: ...

class SettleMatchRequest(_message.Message):
    __slots__ = ("request_id", "match_id", "seats", "outbox")
    class SeatsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: TicketSeats
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[TicketSeats, _Mapping]] = ...) -> None: ...
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OUTBOX_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    match_id: str
    seats: _containers.MessageMap[str, TicketSeats]
    outbox: _containers.RepeatedCompositeFieldContainer[_persistence_pb2.OutboxEntry]
    def __init__(self, request_id: _Optional[str] = ..., match_id: _Optional[str] = ..., seats: _Optional[_Mapping[str, TicketSeats]] = ..., outbox: _Optional[_Iterable[_Union[_persistence_pb2.OutboxEntry, _Mapping]]] = ...) -> None: ...

class SettleMatchResponse(_message.Message):
    __slots__ = ("tickets",)
    TICKETS_FIELD_NUMBER: _ClassVar[int]
    tickets: _containers.RepeatedCompositeFieldContainer[StoredTicket]
    def __init__(self, tickets: _Optional[_Iterable[_Union[StoredTicket, _Mapping]]] = ...) -> None: ...

class GetRatingsRequest(_message.Message):
    __slots__ = ("game", "mode", "accounts")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    game: str
    mode: str
    accounts: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, game: _Optional[str] = ..., mode: _Optional[str] = ..., accounts: _Optional[_Iterable[str]] = ...) -> None: ...

class GetRatingsResponse(_message.Message):
    __slots__ = ("ratings",)
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    ratings: _containers.RepeatedCompositeFieldContainer[RatingRecord]
    def __init__(self, ratings: _Optional[_Iterable[_Union[RatingRecord, _Mapping]]] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ("game", "mode", "limit", "offset", "min_matches")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    MIN_MATCHES_FIELD_NUMBER: _ClassVar[int]
    game: str
    mode: str
    limit: int
    offset: int
    min_matches: int
    def __init__(self, game: _Optional[str] = ..., mode: _Optional[str] = ..., limit: _Optional[int] = ..., offset: _Optional[int] = ..., min_matches: _Optional[int] = ...) -> None: ...

class GetLeaderboardResponse(_message.Message):
    __slots__ = ("ratings",)
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    ratings: _containers.RepeatedCompositeFieldContainer[RatingRecord]
    def __init__(self, ratings: _Optional[_Iterable[_Union[RatingRecord, _Mapping]]] = ...) -> None: ...

class CreateTournamentRequest(_message.Message):
    __slots__ = ("id", "name", "game", "mode", "format", "status", "doc", "created_by", "outbox")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    DOC_FIELD_NUMBER: _ClassVar[int]
    CREATED_BY_FIELD_NUMBER: _ClassVar[int]
    OUTBOX_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    game: str
    mode: str
    format: str
    status: str
    doc: bytes
    created_by: str
    outbox: _containers.RepeatedCompositeFieldContainer[_persistence_pb2.OutboxEntry]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., format: _Optional[str] = ..., status: _Optional[str] = ..., doc: _Optional[bytes] = ..., created_by: _Optional[str] = ..., outbox: _Optional[_Iterable[_Union[_persistence_pb2.OutboxEntry, _Mapping]]] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: TournamentRecord
    def __init__(self, tournament: _Optional[_Union[TournamentRecord, _Mapping]] = ...) -> None: ...

class GetTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "newer_than")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    NEWER_THAN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    newer_than: int
    def __init__(self, tournament_id: _Optional[str] = ..., newer_than: _Optional[int] = ...) -> None: ...

class GetTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: TournamentRecord
    def __init__(self, tournament: _Optional[_Union[TournamentRecord, _Mapping]] = ...) -> None: ...

class ListTournamentsRequest(_message.Message):
    __slots__ = ("statuses", "limit", "with_docs")
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    WITH_DOCS_FIELD_NUMBER: _ClassVar[int]
    statuses: _containers.RepeatedScalarFieldContainer[str]
    limit: int
    with_docs: bool
    def __init__(self, statuses: _Optional[_Iterable[str]] = ..., limit: _Optional[int] = ..., with_docs: _Optional[bool] = ...) -> None: ...

class ListTournamentsResponse(_message.Message):
    __slots__ = ("tournaments",)
    TOURNAMENTS_FIELD_NUMBER: _ClassVar[int]
    tournaments: _containers.RepeatedCompositeFieldContainer[TournamentRecord]
    def __init__(self, tournaments: _Optional[_Iterable[_Union[TournamentRecord, _Mapping]]] = ...) -> None: ...

class UpdateTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "expected_revision", "doc", "status", "folded_match_ids", "outbox")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_REVISION_FIELD_NUMBER: _ClassVar[int]
    DOC_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    FOLDED_MATCH_IDS_FIELD_NUMBER: _ClassVar[int]
    OUTBOX_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    expected_revision: int
    doc: bytes
    status: str
    folded_match_ids: _containers.RepeatedScalarFieldContainer[str]
    outbox: _containers.RepeatedCompositeFieldContainer[_persistence_pb2.OutboxEntry]
    def __init__(self, tournament_id: _Optional[str] = ..., expected_revision: _Optional[int] = ..., doc: _Optional[bytes] = ..., status: _Optional[str] = ..., folded_match_ids: _Optional[_Iterable[str]] = ..., outbox: _Optional[_Iterable[_Union[_persistence_pb2.OutboxEntry, _Mapping]]] = ...) -> None: ...

class UpdateTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: TournamentRecord
    def __init__(self, tournament: _Optional[_Union[TournamentRecord, _Mapping]] = ...) -> None: ...

class LinkTournamentMatchRequest(_message.Message):
    __slots__ = ("tournament_id", "round", "pairing_id", "match_id", "outbox")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    PAIRING_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    OUTBOX_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    round: int
    pairing_id: str
    match_id: str
    outbox: _containers.RepeatedCompositeFieldContainer[_persistence_pb2.OutboxEntry]
    def __init__(self, tournament_id: _Optional[str] = ..., round: _Optional[int] = ..., pairing_id: _Optional[str] = ..., match_id: _Optional[str] = ..., outbox: _Optional[_Iterable[_Union[_persistence_pb2.OutboxEntry, _Mapping]]] = ...) -> None: ...

class LinkTournamentMatchResponse(_message.Message):
    __slots__ = ("link",)
    LINK_FIELD_NUMBER: _ClassVar[int]
    link: TournamentMatchRecord
    def __init__(self, link: _Optional[_Union[TournamentMatchRecord, _Mapping]] = ...) -> None: ...

class ListTournamentMatchesRequest(_message.Message):
    __slots__ = ("tournament_id", "round")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    round: int
    def __init__(self, tournament_id: _Optional[str] = ..., round: _Optional[int] = ...) -> None: ...

class ListTournamentMatchesResponse(_message.Message):
    __slots__ = ("matches",)
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[TournamentMatchRecord]
    def __init__(self, matches: _Optional[_Iterable[_Union[TournamentMatchRecord, _Mapping]]] = ...) -> None: ...

class RecordTournamentResultRequest(_message.Message):
    __slots__ = ("match_id", "ranks", "reason")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    ranks: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    def __init__(self, match_id: _Optional[str] = ..., ranks: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ...) -> None: ...

class RecordTournamentResultResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: TournamentResultRecord
    def __init__(self, result: _Optional[_Union[TournamentResultRecord, _Mapping]] = ...) -> None: ...

class ListUnfoldedResultsRequest(_message.Message):
    __slots__ = ("tournament_id", "limit")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    limit: int
    def __init__(self, tournament_id: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class ListUnfoldedResultsResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[TournamentResultRecord]
    def __init__(self, results: _Optional[_Iterable[_Union[TournamentResultRecord, _Mapping]]] = ...) -> None: ...
