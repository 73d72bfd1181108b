"""Conversions between records and table rows: JSON columns, times, booleans, column lists."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from gamehall.store.dialect import Dialect
from gamehall.store.errors import InvalidArgument
from gamehall.store.records import Account, ActionRecord, JsonObject, Match, OutboxRow, Seat, Snapshot
from gamehall.store.transaction import Row

_encoder = msgspec.json.Encoder(order="sorted")

ACCOUNT_COLUMNS = "id, username, password_hash, role, created_at"
MATCH_COLUMNS = (
    "id, game, mode, config, public, status, seed, seed_commitment, version, outcome, created_by, "
    "created_at, finished_at, clock, clock_state, tournament_id, labels, next_deadline_ms"
)
MATCH_COLUMN_COUNT = len(MATCH_COLUMNS.split(","))
SEAT_COLUMNS = "match_id, seat, kind, account_id, bot_difficulty"
ACTION_COLUMNS = "match_id, version, seat, action, request_id, state_digest, created_at"
SNAPSHOT_COLUMNS = "match_id, version, state, created_at"
OUTBOX_COLUMNS = "id, subject, msg_id, payload, created_at, published_at"


def dump_json(value: Mapping[str, Any] | str, what: str) -> str:
    """A JSON object as canonical text (sorted keys); a str is checked to hold a JSON object."""
    if isinstance(value, str):
        try:
            decoded = msgspec.json.decode(value)
        except msgspec.DecodeError as exc:
            raise InvalidArgument(f"{what} is not valid JSON: {exc}") from exc
        value = decoded
    if not isinstance(value, Mapping):
        raise InvalidArgument(f"{what} must be a JSON object, not {type(value).__name__}")
    try:
        return _encoder.encode(value).decode()
    except (TypeError, msgspec.EncodeError) as exc:
        raise InvalidArgument(f"{what} is not JSON-serialisable: {exc}") from exc


def dump_optional_json(value: Mapping[str, Any] | str | None, what: str) -> str | None:
    return None if value is None else dump_json(value, what)


def load_json(text: Any) -> JsonObject:
    value = msgspec.json.decode(text)
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object in the database, found {type(value).__name__}")
    return value


def load_optional_json(text: Any) -> JsonObject | None:
    return None if text is None else load_json(text)


def account_from(row: Row, d: Dialect) -> Account:
    return Account(
        id=row["id"],
        username=row["username"],
        password_hash=row["password_hash"],
        role=row["role"],
        created_at=d.load_time(row["created_at"]),
    )


def seat_from(row: Row) -> Seat:
    return Seat(
        match_id=row["match_id"],
        seat=int(row["seat"]),
        kind=row["kind"],
        account_id=row["account_id"],
        bot_difficulty=row["bot_difficulty"],
    )


def match_from(row: Row, seats: tuple[Seat, ...], d: Dialect) -> Match:
    return Match(
        id=row["id"],
        game=row["game"],
        mode=row["mode"],
        config=load_json(row["config"]),
        public=d.load_bool(row["public"]),
        status=row["status"],
        seed=int(row["seed"]),
        seed_commitment=row["seed_commitment"],
        version=int(row["version"]),
        outcome=load_optional_json(row["outcome"]),
        created_by=row["created_by"],
        created_at=d.load_time(row["created_at"]),
        finished_at=d.load_optional_time(row["finished_at"]),
        clock=load_optional_json(row["clock"]),
        clock_state=load_optional_json(row["clock_state"]),
        tournament_id=row["tournament_id"],
        labels=load_json(row["labels"]),
        next_deadline_ms=None if row["next_deadline_ms"] is None else int(row["next_deadline_ms"]),
        seats=seats,
    )


def action_from(row: Row, d: Dialect) -> ActionRecord:
    return ActionRecord(
        match_id=row["match_id"],
        version=int(row["version"]),
        seat=int(row["seat"]),
        action=load_json(row["action"]),
        request_id=row["request_id"],
        state_digest=bytes(row["state_digest"]),
        created_at=d.load_time(row["created_at"]),
    )


def snapshot_from(row: Row, d: Dialect) -> Snapshot:
    return Snapshot(
        match_id=row["match_id"],
        version=int(row["version"]),
        state=bytes(row["state"]),
        created_at=d.load_time(row["created_at"]),
    )


def outbox_from(row: Row, d: Dialect) -> OutboxRow:
    return OutboxRow(
        id=int(row["id"]),
        subject=row["subject"],
        msg_id=row["msg_id"],
        payload=bytes(row["payload"]),
        created_at=d.load_time(row["created_at"]),
        published_at=d.load_optional_time(row["published_at"]),
    )
