from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AccountRecord(_message.Message):
    __slots__ = ("id", "username", "password_hash", "role", "created_unix_ms")
    ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_HASH_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    id: str
    username: str
    password_hash: str
    role: str
    created_unix_ms: int
    def __init__(self, id: _Optional[str] = ..., username: _Optional[str] = ..., password_hash: _Optional[str] = ..., role: _Optional[str] = ..., created_unix_ms: _Optional[int] = ...) -> None: ...

class SeatRecord(_message.Message):
    __slots__ = ("seat", "kind", "account_id", "bot_difficulty")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: str
    account_id: str
    bot_difficulty: str
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[str] = ..., account_id: _Optional[str] = ..., bot_difficulty: _Optional[str] = ...) -> None: ...

class MatchRecord(_message.Message):
    __slots__ = ("id", "game", "mode", "config_json", "public", "status", "seed", "seed_commitment", "version", "outcome_json", "created_by", "created_unix_ms", "finished_unix_ms", "clock_json", "clock_state_json", "tournament_id", "labels_json", "seats")
    ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    CONFIG_JSON_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_JSON_FIELD_NUMBER: _ClassVar[int]
    CREATED_BY_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_JSON_FIELD_NUMBER: _ClassVar[int]
    CLOCK_STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    LABELS_JSON_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    id: str
    game: str
    mode: str
    config_json: str
    public: bool
    status: str
    seed: int
    seed_commitment: str
    version: int
    outcome_json: str
    created_by: str
    created_unix_ms: int
    finished_unix_ms: int
    clock_json: str
    clock_state_json: str
    tournament_id: str
    labels_json: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatRecord]
    def __init__(self, id: _Optional[str] = ..., game: _Optional[str] = ..., mode: _Optional[str] = ..., config_json: _Optional[str] = ..., public: _Optional[bool] = ..., status: _Optional[str] = ..., seed: _Optional[int] = ..., seed_commitment: _Optional[str] = ..., version: _Optional[int] = ..., outcome_json: _Optional[str] = ..., created_by: _Optional[str] = ..., created_unix_ms: _Optional[int] = ..., finished_unix_ms: _Optional[int] = ..., clock_json: _Optional[str] = ..., clock_state_json: _Optional[str] = ..., tournament_id: _Optional[str] = ..., labels_json: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatRecord, _Mapping]]] = ...) -> None: ...

class OutboxEntry(_message.Message):
    __slots__ = ("subject", "msg_id", "payload")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    MSG_ID_FIELD_NUMBER: _ClassVar[int]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    subject: str
    msg_id: str
    payload: bytes
    def __init__(self, subject: _Optional[str] = ..., msg_id: _Optional[str] = ..., payload: _Optional[bytes] = ...) -> None: ...

class ActionEntry(_message.Message):
    __slots__ = ("version", "seat", "action_json", "request_id", "state_digest", "created_unix_ms")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_JSON_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_DIGEST_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    version: int
    seat: int
    action_json: str
    request_id: str
    state_digest: bytes
    created_unix_ms: int
    def __init__(self, version: _Optional[int] = ..., seat: _Optional[int] = ..., action_json: _Optional[str] = ..., request_id: _Optional[str] = ..., state_digest: _Optional[bytes] = ..., created_unix_ms: _Optional[int] = ...) -> None: ...

class CreateAccountRequest(_message.Message):
    __slots__ = ("username", "password_hash", "role")
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_HASH_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    username: str
    password_hash: str
    role: str
    def __init__(self, username: _Optional[str] = ..., password_hash: _Optional[str] = ..., role: _Optional[str] = ...) -> None: ...

class CreateAccountResponse(_message.Message):
    __slots__ = ("account",)
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    account: AccountRecord
    def __init__(self, account: _Optional[_Union[AccountRecord, _Mapping]] = ...) -> None: ...

class GetAccountRequest(_message.Message):
    __slots__ = ("id", "username")
    ID_FIELD_NUMBER: _ClassVar[int]
    USERNAME_FIELD_NUMBER: _ClassVar[int]
    id: str
    username: str
    def __init__(self, id: _Optional[str] = ..., username: _Optional[str] = ...) -> None: ...

class GetAccountResponse(_message.Message):
    __slots__ = ("account",)
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    account: AccountRecord
    def __init__(self, account: _Optional[_Union[AccountRecord, _Mapping]] = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ("match_id", "game", "config_json", "public", "seed", "created_by", "seats", "clock_json", "status", "outbox", "clock_state_json")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    CONFIG_JSON_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    CREATED_BY_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_JSON_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OUTBOX_FIELD_NUMBER: _ClassVar[int]
    CLOCK_STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    config_json: str
    public: bool
    seed: int
    created_by: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatRecord]
    clock_json: str
    status: str
    outbox: _containers.RepeatedCompositeFieldContainer[OutboxEntry]
    clock_state_json: str
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., config_json: _Optional[str] = ..., public: _Optional[bool] = ..., seed: _Optional[int] = ..., created_by: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatRecord, _Mapping]]] = ..., clock_json: _Optional[str] = ..., status: _Optional[str] = ..., outbox: _Optional[_Iterable[_Union[OutboxEntry, _Mapping]]] = ..., clock_state_json: _Optional[str] = ...) -> None: ...

class CreateMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: MatchRecord
    def __init__(self, match: _Optional[_Union[MatchRecord, _Mapping]] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: MatchRecord
    def __init__(self, match: _Optional[_Union[MatchRecord, _Mapping]] = ...) -> None: ...

class GetMatchHeadsRequest(_message.Message):
    __slots__ = ("match_ids",)
    MATCH_IDS_FIELD_NUMBER: _ClassVar[int]
    match_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, match_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class MatchHead(_message.Message):
    __slots__ = ("match_id", "status", "version")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    status: str
    version: int
    def __init__(self, match_id: _Optional[str] = ..., status: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...

class GetMatchHeadsResponse(_message.Message):
    __slots__ = ("heads",)
    HEADS_FIELD_NUMBER: _ClassVar[int]
    heads: _containers.RepeatedCompositeFieldContainer[MatchHead]
    def __init__(self, heads: _Optional[_Iterable[_Union[MatchHead, _Mapping]]] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("game", "statuses", "public", "account_id", "limit", "cursor", "clocked_only")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    CLOCKED_ONLY_FIELD_NUMBER: _ClassVar[int]
    game: str
    statuses: _containers.RepeatedScalarFieldContainer[str]
    public: bool
    account_id: str
    limit: int
    cursor: str
    clocked_only: bool
    def __init__(self, game: _Optional[str] = ..., statuses: _Optional[_Iterable[str]] = ..., public: _Optional[bool] = ..., account_id: _Optional[str] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ..., clocked_only: _Optional[bool] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_cursor")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[MatchRecord]
    next_cursor: str
    def __init__(self, matches: _Optional[_Iterable[_Union[MatchRecord, _Mapping]]] = ..., next_cursor: _Optional[str] = ...) -> None: ...

class ClaimSeatRequest(_message.Message):
    __slots__ = ("match_id", "seat", "account_id", "kind", "bot_difficulty", "outbox", "start_when_full", "request_id")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    BOT_DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    OUTBOX_FIELD_NUMBER: _ClassVar[int]
    START_WHEN_FULL_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    account_id: str
    kind: str
    bot_difficulty: str
    outbox: _containers.RepeatedCompositeFieldContainer[OutboxEntry]
    start_when_full: StartMatchRequest
    request_id: str
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., account_id: _Optional[str] = ..., kind: _Optional[str] = ..., bot_difficulty: _Optional[str] = ..., outbox: _Optional[_Iterable[_Union[OutboxEntry, _Mapping]]] = ..., start_when_full: _Optional[_Union[StartMatchRequest, _Mapping]] = ..., request_id: _Optional[str] = ...) -> None: ...

class ClaimSeatResponse(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: SeatRecord
    def __init__(self, seat: _Optional[_Union[SeatRecord, _Mapping]] = ...) -> None: ...

class ReleaseSeatRequest(_message.Message):
    __slots__ = ("match_id", "seat", "account_id", "outbox", "request_id")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    OUTBOX_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    account_id: str
    outbox: _containers.RepeatedCompositeFieldContainer[OutboxEntry]
    request_id: str
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., account_id: _Optional[str] = ..., outbox: _Optional[_Iterable[_Union[OutboxEntry, _Mapping]]] = ..., request_id: _Optional[str] = ...) -> None: ...

class GetLifecycleRequestRequest(_message.Message):
    __slots__ = ("account_id", "kind", "request_id")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    kind: str
    request_id: str
    def __init__(self, account_id: _Optional[str] = ..., kind: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class GetLifecycleRequestResponse(_message.Message):
    __slots__ = ("found", "match_id", "seat")
    FOUND_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    found: bool
    match_id: str
    seat: int
    def __init__(self, found: _Optional[bool] = ..., match_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class ReleaseSeatResponse(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: SeatRecord
    def __init__(self, seat: _Optional[_Union[SeatRecord, _Mapping]] = ...) -> None: ...

class StartMatchRequest(_message.Message):
    __slots__ = ("match_id", "outbox", "clock_state_json")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    OUTBOX_FIELD_NUMBER: _ClassVar[int]
    CLOCK_STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    outbox: _containers.RepeatedCompositeFieldContainer[OutboxEntry]
    clock_state_json: str
    def __init__(self, match_id: _Optional[str] = ..., outbox: _Optional[_Iterable[_Union[OutboxEntry, _Mapping]]] = ..., clock_state_json: _Optional[str] = ...) -> None: ...

class StartMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: MatchRecord
    def __init__(self, match: _Optional[_Union[MatchRecord, _Mapping]] = ...) -> None: ...

class CloseMatchRequest(_message.Message):
    __slots__ = ("match_id", "status", "outcome_json", "expected_version", "outbox")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_JSON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    OUTBOX_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    status: str
    outcome_json: str
    expected_version: int
    outbox: _containers.RepeatedCompositeFieldContainer[OutboxEntry]
    def __init__(self, match_id: _Optional[str] = ..., status: _Optional[str] = ..., outcome_json: _Optional[str] = ..., expected_version: _Optional[int] = ..., outbox: _Optional[_Iterable[_Union[OutboxEntry, _Mapping]]] = ...) -> None: ...

class CloseMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: MatchRecord
    def __init__(self, match: _Optional[_Union[MatchRecord, _Mapping]] = ...) -> None: ...

class LoadMatchStateRequest(_message.Message):
    __slots__ = ("match_id", "request_id", "at_version", "with_request_ids", "request_seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    AT_VERSION_FIELD_NUMBER: _ClassVar[int]
    WITH_REQUEST_IDS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    request_id: str
    at_version: int
    with_request_ids: bool
    request_seat: int
    def __init__(self, match_id: _Optional[str] = ..., request_id: _Optional[str] = ..., at_version: _Optional[int] = ..., with_request_ids: _Optional[bool] = ..., request_seat: _Optional[int] = ...) -> None: ...

class LoggedRequest(_message.Message):
    __slots__ = ("seat", "request_id")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    request_id: str
    def __init__(self, seat: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class LoadMatchStateResponse(_message.Message):
    __slots__ = ("match", "snapshot", "snapshot_version", "actions", "prior", "log_seq", "request_ids", "logged_requests")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    PRIOR_FIELD_NUMBER: _ClassVar[int]
    LOG_SEQ_FIELD_NUMBER: _ClassVar[int]
    REQUEST_IDS_FIELD_NUMBER: _ClassVar[int]
    LOGGED_REQUESTS_FIELD_NUMBER: _ClassVar[int]
    match: MatchRecord
    snapshot: bytes
    snapshot_version: int
    actions: _containers.RepeatedCompositeFieldContainer[ActionEntry]
    prior: ActionEntry
    log_seq: int
    request_ids: _containers.RepeatedScalarFieldContainer[str]
    logged_requests: _containers.RepeatedCompositeFieldContainer[LoggedRequest]
    def __init__(self, match: _Optional[_Union[MatchRecord, _Mapping]] = ..., snapshot: _Optional[bytes] = ..., snapshot_version: _Optional[int] = ..., actions: _Optional[_Iterable[_Union[ActionEntry, _Mapping]]] = ..., prior: _Optional[_Union[ActionEntry, _Mapping]] = ..., log_seq: _Optional[int] = ..., request_ids: _Optional[_Iterable[str]] = ..., logged_requests: _Optional[_Iterable[_Union[LoggedRequest, _Mapping]]] = ...) -> None: ...

class GetActionsRequest(_message.Message):
    __slots__ = ("match_id", "from_version", "to_version")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    TO_VERSION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    from_version: int
    to_version: int
    def __init__(self, match_id: _Optional[str] = ..., from_version: _Optional[int] = ..., to_version: _Optional[int] = ...) -> None: ...

class GetActionsResponse(_message.Message):
    __slots__ = ("actions",)
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedCompositeFieldContainer[ActionEntry]
    def __init__(self, actions: _Optional[_Iterable[_Union[ActionEntry, _Mapping]]] = ...) -> None: ...

class ListClockedMatchesRequest(_message.Message):
    __slots__ = ("game", "after_deadline_unix_ms", "after_match_id", "limit")
    GAME_FIELD_NUMBER: _ClassVar[int]
    AFTER_DEADLINE_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    AFTER_MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    game: str
    after_deadline_unix_ms: int
    after_match_id: str
    limit: int
    def __init__(self, game: _Optional[str] = ..., after_deadline_unix_ms: _Optional[int] = ..., after_match_id: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class ClockedMatch(_message.Message):
    __slots__ = ("match_id", "deadline_unix_ms")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    deadline_unix_ms: int
    def __init__(self, match_id: _Optional[str] = ..., deadline_unix_ms: _Optional[int] = ...) -> None: ...

class ListClockedMatchesResponse(_message.Message):
    __slots__ = ("matches",)
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[ClockedMatch]
    def __init__(self, matches: _Optional[_Iterable[_Union[ClockedMatch, _Mapping]]] = ...) -> None: ...

class SetPasswordHashRequest(_message.Message):
    __slots__ = ("account_id", "password_hash")
    ACCOUNT_ID_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_HASH_FIELD_NUMBER: _ClassVar[int]
    account_id: str
    password_hash: str
    def __init__(self, account_id: _Optional[str] = ..., password_hash: _Optional[str] = ...) -> None: ...

class SetPasswordHashResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
