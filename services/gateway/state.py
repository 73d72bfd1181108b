"""Rebuilding a match's engine state: the newest snapshot, or the initial state from the seed,
then the later logged actions replayed through the game's rules host (the gateway runs no engine).

Actions are logged as ``{"id", "label", "action": {"kind": ...}}``: the action and how it was shown.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import grpc

from gamehall.auth import Claims
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.internal.v1 import rules_pb2
from gamehall.runtime.errors import ClientError
from gamehall.v1 import common_pb2
from gamehall_services.gateway.records import config_to_proto, loads
from gamehall_services.gateway.upstream import Upstream, call


@dataclass(frozen=True)
class Loaded:
    match: ppb.MatchRecord
    state: bytes
    version: int
    prior: ppb.ActionEntry | None = None


class StateCache:
    """The last state this replica appended per running match, to skip a load before the next move.

    Only the move path uses it, and only as a first guess: the append is a compare-and-swap on
    the version, so a stale entry (another replica moved, a clock, a forfeit) just fails the
    append, is dropped, and the move is retried from persistence. Reads never use it.
    """

    def __init__(self, capacity: int = 20_000) -> None:
        self.capacity = capacity
        self._entries: dict[str, Loaded] = {}

    def get(self, match_id: str) -> Loaded | None:
        return self._entries.get(match_id)

    def put(self, loaded: Loaded) -> None:
        entries = self._entries
        entries.pop(loaded.match.id, None)
        entries[loaded.match.id] = loaded
        if len(entries) > self.capacity:
            del entries[next(iter(entries))]  # the least recently written

    def drop(self, match_id: str) -> None:
        self._entries.pop(match_id, None)


def stored_action(entry: ppb.ActionEntry) -> dict[str, Any]:
    """The logged form: {"id", "label", "action"}."""
    data: dict[str, Any] = json.loads(entry.action_json)
    return data


def public_action(entry: ppb.ActionEntry) -> common_pb2.LegalAction:
    data = stored_action(entry)
    return common_pb2.LegalAction(
        id=data.get("id", ""),
        label=data.get("label", ""),
        action_json=json.dumps(data.get("action", {}), separators=(",", ":"), sort_keys=True),
    )


async def initial_state(upstream: Upstream, match: ppb.MatchRecord) -> rules_pb2.NewMatchResponse:
    config = config_to_proto(loads(match.config_json) or {})
    return await call(upstream.rules(match.game).NewMatch(rules_pb2.NewMatchRequest(config=config, seed=match.seed)))


async def replay_onto(upstream: Upstream, game: str, state: bytes, actions: Sequence[ppb.ActionEntry]) -> bytes:
    rules = upstream.rules(game)
    for entry in actions:
        applied = await call(
            rules.Apply(
                rules_pb2.ApplyRequest(
                    state=state, seat=entry.seat, action_json=json.dumps(stored_action(entry)["action"])
                )
            )
        )
        state = applied.state
    return state


async def load(upstream: Upstream, match_id: str, *, request_id: str = "", at_version: int | None = None) -> Loaded:
    """The match record and its state at its version (or `at_version`), in one persistence round trip."""
    if not match_id:
        raise ClientError(grpc.StatusCode.INVALID_ARGUMENT, "match_id is required", common_pb2.ERROR_REASON_MALFORMED)
    request = ppb.LoadMatchStateRequest(match_id=match_id, request_id=request_id)
    if at_version is not None:
        request.at_version = at_version
    loaded = await call(upstream.persistence.LoadMatchState(request))
    match = loaded.match
    state = loaded.snapshot or (await initial_state(upstream, match)).state
    state = await replay_onto(upstream, match.game, state, loaded.actions)
    version = at_version if at_version is not None else match.version
    return Loaded(match, state, version, loaded.prior if loaded.HasField("prior") else None)


# ----------------------------------------------------------------- who may do what
def is_operator(claims: Claims) -> bool:
    return claims.role == "operator"


def may_watch(match: ppb.MatchRecord, claims: Claims) -> bool:
    """Public matches are open to anyone; private ones to their seats, creator, operators, and bots
    when the match has a bot seat (the ai service plays it)."""
    return (
        match.public
        or is_operator(claims)
        or match.created_by == claims.account_id
        or any(s.account_id == claims.account_id for s in match.seats)
        or (claims.role == "bot" and any(s.kind == "bot" for s in match.seats))
    )


def require_watch(match: ppb.MatchRecord, claims: Claims) -> None:
    if not may_watch(match, claims):
        raise ClientError(
            grpc.StatusCode.PERMISSION_DENIED,
            f"match {match.id} is private: only its seats may see it",
            common_pb2.ERROR_REASON_PERMISSION_DENIED,
        )


def seat_of(match: ppb.MatchRecord, claims: Claims, wanted: int | None) -> int | None:
    """The seat the caller acts or sees as: the one asked for (if it may), else its first seat, else None."""
    if wanted is not None:
        seat = next((s for s in match.seats if s.seat == wanted), None)
        if seat is None:
            raise ClientError(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"match {match.id} has no seat {wanted}",
                common_pb2.ERROR_REASON_MALFORMED,
            )
        mine = seat.kind == "human" and seat.account_id == claims.account_id
        bot_work = seat.kind == "bot" and claims.role in ("bot", "operator")
        if not (mine or bot_work):
            raise ClientError(
                grpc.StatusCode.PERMISSION_DENIED,
                f"seat {wanted} of match {match.id} is not yours",
                common_pb2.ERROR_REASON_PERMISSION_DENIED,
            )
        return wanted
    for seat in match.seats:
        if seat.kind == "human" and seat.account_id == claims.account_id:
            return int(seat.seat)
    return None


def require_seat(match: ppb.MatchRecord, claims: Claims, wanted: int | None) -> int:
    seat = seat_of(match, claims, wanted)
    if seat is None:
        raise ClientError(
            grpc.StatusCode.PERMISSION_DENIED,
            f"you hold no seat in match {match.id}",
            common_pb2.ERROR_REASON_PERMISSION_DENIED,
        )
    return seat
