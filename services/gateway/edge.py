"""Bounds of every public request field, checked at the gateway's edge before a handler runs.

One table (`BOUNDS`, per protobuf message type) gives every string, number, JSON text and list in
the public API (`gamehall.v1`) its limit; the harness's interceptor calls `check_request` on each
call's request before authentication or any parsing, so a bad value costs one table walk (issue 20,
findings 4 and 5). A string over its length, a number out of range, an unknown enum value or a list
too long is INVALID_ARGUMENT; JSON text over its byte limit is INVALID_ARGUMENT too (reason TOO_LARGE, with the
limit; never a rate limit with a RetryInfo, as resending cannot help), and JSON nested
deeper than its limit INVALID_ARGUMENT (checked on the text, no parser involved). Error messages
name the field and show at most a short prefix of the value. The README's "Input bounds" section
lists the table; a test checks that every field of every public request has its entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from gamehall.auth.passwords import DEFAULT_PASSWORD_POLICY, DEFAULT_USERNAME_POLICY
from gamehall.runtime.errors import ClientError
from gamehall.wire.json_limits import MAX_JSON_DEPTH, check_json_text, preview
from gamehall_sdk.v1 import common_pb2

MAX_SEATS = 16
"""Seats of one match (the largest mode hosted has 8)."""
MAX_VERSION = 2**40
"""Versions and counters: far above any match, far below where clients' integers lose precision."""
DAY_S = 24 * 3600


@dataclass(frozen=True)
class Text:
    max_chars: int
    pattern: re.Pattern[str] | None = None
    what: str = ""


@dataclass(frozen=True)
class Number:
    low: int
    high: int


@dataclass(frozen=True)
class Json:
    max_bytes: int
    max_depth: int = MAX_JSON_DEPTH


@dataclass(frozen=True)
class Many:
    """A repeated field: at most `max_items`, each within `each` (messages: their own table)."""

    max_items: int
    each: Text | Number | None = None


@dataclass(frozen=True)
class Flag:
    """A bool: nothing to bound."""


@dataclass(frozen=True)
class Choice:
    """An enum: one of its declared values."""


@dataclass(frozen=True)
class Nested:
    """A message field: bounded by its own type's table."""


@dataclass(frozen=True)
class Span:
    """A google.protobuf.Duration: within [0, `max_seconds`]."""

    max_seconds: int


@dataclass(frozen=True)
class Instant:
    """A google.protobuf.Timestamp: within the Unix epoch and `max_seconds` after it."""

    max_seconds: int = 2**33


Bound = Text | Number | Json | Many | Flag | Choice | Nested | Span | Instant

_ID_CHARS = re.compile(r"[\x21-\x7e]*")  # printable ASCII, no spaces or controls
_NAME_CHARS = re.compile(r"[A-Za-z0-9_.:-]*")
ID = Text(64, _ID_CHARS, "an id")
NAME = Text(64, _NAME_CHARS, "a name (letters, digits, _ . : -)")
REQUEST_ID = Text(128, _ID_CHARS, "a request id")
SEAT = Number(0, MAX_SEATS - 1)
VERSION = Number(0, MAX_VERSION)
PAGE_SIZE = Number(0, 2**31 - 1)
"""Any non-negative size: sizes above a list's maximum are lowered to it (AIP-158)."""
PAGE_TOKEN = Text(512, _ID_CHARS, "a page token")
USERNAME = Text(DEFAULT_USERNAME_POLICY.max_length)
PASSWORD = Text(DEFAULT_PASSWORD_POLICY.max_length)
ACTION_JSON = Json(16 * 1024)
CONFIG_JSON = Json(4 * 1024, max_depth=8)

_V1 = "gamehall.v1."
_MATCH_ID: dict[str, Bound] = {"match_id": ID}
_TOURNAMENT_ID: dict[str, Bound] = {"tournament_id": ID}

BOUNDS: dict[str, dict[str, Bound]] = {
    # nested types
    "MatchConfig": {
        "mode": NAME,
        "seats": Number(0, MAX_SEATS),
        "options_json": CONFIG_JSON,
        "flags_json": CONFIG_JSON,
    },
    "SeatSpec": {"open": Flag(), "reserved_for": ID, "bot": NAME, "bot_level": Choice()},
    "ClockSpec": {"per_move": Span(7 * DAY_S), "bank": Span(30 * DAY_S), "increment": Span(DAY_S)},
    # AuthService
    "RegisterRequest": {
        "username": USERNAME,
        "password": PASSWORD,
        "invite_code": Text(128),
        "request_id": REQUEST_ID,
    },
    "LoginRequest": {"username": USERNAME, "password": PASSWORD},
    "WhoAmIRequest": {},
    "LogoutRequest": {},
    # CatalogService
    "ListGamesRequest": {"page_size": PAGE_SIZE, "page_token": PAGE_TOKEN},
    # MatchService
    "CreateMatchRequest": {
        "game": NAME,
        "config": Nested(),
        "seats": Many(MAX_SEATS),
        "clock": Nested(),
        "public": Flag(),
        "join_seat": SEAT,
        "request_id": REQUEST_ID,
    },
    "ListMatchesRequest": {
        "game": NAME,
        "status": Choice(),
        "mine": Flag(),
        "page_size": PAGE_SIZE,
        "page_token": PAGE_TOKEN,
    },
    "GetMatchRequest": _MATCH_ID,
    "JoinMatchRequest": {**_MATCH_ID, "seat": SEAT, "request_id": REQUEST_ID},
    "LeaveMatchRequest": {**_MATCH_ID, "request_id": REQUEST_ID},
    "GetViewRequest": {**_MATCH_ID, "seat": SEAT},
    "ListLegalActionsRequest": {**_MATCH_ID, "seat": SEAT},
    "SubmitActionRequest": {
        **_MATCH_ID,
        "action_id": Text(1024),
        "action_json": ACTION_JSON,
        "request_id": REQUEST_ID,
        "expected_version": VERSION,
        "seat": SEAT,
    },
    "WatchMatchRequest": {**_MATCH_ID, "from_version": VERSION, "delay_actions": Number(0, 1000), "seat": SEAT},
    "GetReplayRequest": {**_MATCH_ID, "page_size": PAGE_SIZE, "page_token": PAGE_TOKEN},
    "PlaySeatRequest": {"open": Nested(), "action": Nested()},
    "OpenSeatStream": {**_MATCH_ID, "seat": SEAT, "from_version": VERSION},
    "SeatAction": {
        "request_id": REQUEST_ID,
        "action_id": Text(1024),
        "action_json": ACTION_JSON,
        "expected_version": VERSION,
    },
    # MatchmakingService
    "EnqueueTicketRequest": {
        "game": NAME,
        "mode": NAME,
        "players": Many(MAX_SEATS, ID),
        "no_bots": Flag(),
        "pool": NAME,
        "request_id": REQUEST_ID,
    },
    "CancelTicketRequest": {"ticket_id": ID},
    "GetTicketRequest": {"ticket_id": ID},
    "WatchTicketsRequest": {"game": NAME},
    "GetLeaderboardRequest": {"game": NAME, "mode": NAME, "page_size": PAGE_SIZE, "page_token": PAGE_TOKEN},
    "GetRatingRequest": {"game": NAME, "mode": NAME, "account_id": ID},
    # TournamentService
    "CreateTournamentRequest": {
        "name": Text(100),
        "game": NAME,
        "mode": NAME,
        "format": Choice(),
        "rounds": Number(0, 64),
        "seats": Number(0, MAX_SEATS),
        "registration_open_time": Instant(),
        "registration_close_time": Instant(),
        "max_players": Number(0, 100_000),
        "require_check_in": Flag(),
        "no_show_timeout": Span(7 * DAY_S),
        "clock": Nested(),
        "request_id": REQUEST_ID,
    },
    "ListTournamentsRequest": {"status": Choice(), "page_size": PAGE_SIZE, "page_token": PAGE_TOKEN},
    "GetTournamentRequest": _TOURNAMENT_ID,
    "ListPairingsRequest": {
        **_TOURNAMENT_ID,
        "round": Number(0, 1000),
        "page_size": PAGE_SIZE,
        "page_token": PAGE_TOKEN,
    },
    "RegisterPlayerRequest": {
        **_TOURNAMENT_ID,
        "account_id": ID,
        "bot": NAME,
        "bot_level": Choice(),
        "request_id": REQUEST_ID,
        "username": USERNAME,
    },
    "UnregisterPlayerRequest": {**_TOURNAMENT_ID, "player": ID},
    "CheckInRequest": {**_TOURNAMENT_ID, "player": ID},
    "StartTournamentRequest": _TOURNAMENT_ID,
    "GetStandingsRequest": _TOURNAMENT_ID,
    "WatchStandingsRequest": _TOURNAMENT_ID,
    "PauseTournamentRequest": _TOURNAMENT_ID,
    "ResumeTournamentRequest": _TOURNAMENT_ID,
    "DropPlayerRequest": {**_TOURNAMENT_ID, "player": ID},
    "RepairRoundRequest": _TOURNAMENT_ID,
    "AdjudicatePairingRequest": {
        **_TOURNAMENT_ID,
        "pairing_id": ID,
        "ranks": Many(MAX_SEATS, Number(0, MAX_SEATS)),
        "request_id": REQUEST_ID,
    },
    # AuditService: an actor is an account id or a username; an action an RPC name or a prefix ending in "."
    "ListAuditEventsRequest": {
        "actor": ID,
        "action": NAME,
        "start_time": Instant(),
        "end_time": Instant(),
        "page_size": PAGE_SIZE,
        "page_token": PAGE_TOKEN,
    },
}


def _bad(message: str, path: str = "") -> ClientError:
    """INVALID_ARGUMENT (MALFORMED), naming the field at fault in a BadRequest when there is one."""
    return ClientError(grpc.StatusCode.INVALID_ARGUMENT, message, common_pb2.ERROR_REASON_MALFORMED, field=path)


_NOT_PUBLIC: dict[str, Bound] = {}
_TABLES: dict[type, dict[str, Bound] | None] = {}
"""Each message type's table, looked up once per type (the name test and lookup cost more than the walk)."""


def _table_of(message: Any) -> dict[str, Bound] | None:
    """The type's table; `_NOT_PUBLIC` for a message outside the public API; None for a public type without one."""
    kind = type(message)
    try:
        return _TABLES[kind]
    except KeyError:
        pass
    if not isinstance(message, Message) or not message.DESCRIPTOR.full_name.startswith(_V1):
        table: dict[str, Bound] | None = _NOT_PUBLIC
    else:
        table = BOUNDS.get(message.DESCRIPTOR.full_name[len(_V1) :])
    _TABLES[kind] = table
    return table


def check_request(method: str, request: Any) -> None:
    """Refuse a public request with a value out of its bounds; other services' requests pass untouched."""
    table = _table_of(request)
    if table is not _NOT_PUBLIC:
        _check_message(request, "", table)


def _check_message(message: Message, prefix: str, table: dict[str, Bound] | None = _NOT_PUBLIC) -> None:
    """Only the fields set are walked (`ListFields`, in C): an unset field is its type's zero, inside
    every bound."""
    if table is _NOT_PUBLIC:
        table = _table_of(message)
    if table is None or table is _NOT_PUBLIC:
        raise _bad(f"{message.DESCRIPTOR.full_name} is not accepted here")
    for field, value in message.ListFields():
        bound = table.get(field.name)
        path = prefix + field.name if prefix else field.name
        if bound is None:  # a field added to the protos without a bound: refused until it has one
            raise _bad(f"{path} has no declared bound yet", path)
        if field.is_repeated:
            _check_many(field, value, bound, path)
        elif isinstance(bound, Span | Instant):
            _check_time(value, bound, path)
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            _check_message(value, path + ".")
        else:
            _check_scalar(field, value, bound, path)


def _check_time(value: Any, bound: Span | Instant, path: str) -> None:
    """A Duration or Timestamp: a valid one (nanos within a second, same sign) within its range."""
    high = bound.max_seconds
    if not 0 <= value.nanos < 1_000_000_000:  # named apart: "not 3 seconds" would blame a valid `seconds`
        raise _bad(f"{path}.nanos must be between 0 and 999999999, not {preview(str(value.nanos))}", f"{path}.nanos")
    if not 0 <= value.seconds <= high:
        raise _bad(f"{path} must be between 0 and {high} seconds, not {preview(str(value.seconds))}", path)


def _check_many(field: FieldDescriptor, values: Any, bound: Bound, path: str) -> None:
    if not isinstance(bound, Many):
        raise _bad(f"{path} has no declared bound yet", path)
    if len(values) > bound.max_items:
        raise _bad(f"{path} has {len(values)} items; at most {bound.max_items} are accepted", path)
    for k, value in enumerate(values):
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            _check_message(value, f"{path}[{k}].")
        elif bound.each is not None:
            _check_scalar(field, value, bound.each, f"{path}[{k}]")


def _check_scalar(field: FieldDescriptor, value: Any, bound: Bound, path: str) -> None:
    if isinstance(bound, Text):
        if len(value) > bound.max_chars:
            raise _bad(f"{path} has {len(value)} characters; at most {bound.max_chars} are accepted", path)
        if bound.pattern is not None and not bound.pattern.fullmatch(value):
            raise _bad(f"{path} must be {bound.what}, not {preview(value)}", path)
    elif isinstance(bound, Number):
        if not bound.low <= value <= bound.high:
            raise _bad(f"{path} must be between {bound.low} and {bound.high}, not {preview(str(value))}", path)
    elif isinstance(bound, Json):
        if value:
            check_json_text(value, path, max_bytes=bound.max_bytes, max_depth=bound.max_depth)
    elif isinstance(bound, Choice):
        if field.enum_type is None or value not in field.enum_type.values_by_number:
            raise _bad(f"{path} has no value {preview(str(value))}", path)
    elif not isinstance(bound, Flag):
        raise _bad(f"{path} has no declared bound yet", path)
