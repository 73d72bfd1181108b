"""The owner's store port (`gamehall.matches.ports.Store`) over persistence's API: each method one call, its
answer turned into the port's types. The transport is passed in as `call(method, request)`, which raises the
domain's errors (`NoSuchMatch`, `StoreRefused`, `AlreadyUsed`, `Unavailable`): a gRPC stub in the rules service
(`services/rules/store.py`), persistence's servicer in process in tests (`gamehall.matches.testing`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches.live import LoggedAction
from gamehall.matches.ports import Loaded
from gamehall.wire.matches import logged_from_entry

Call = Callable[[str, Any], Awaitable[Any]]
"""`call("GetMatch", GetMatchRequest(...))` -> the response message."""


def loaded_from(response: ppb.LoadMatchStateResponse) -> Loaded:
    return Loaded(
        record=response.match,
        snapshot=response.snapshot or None,
        snapshot_version=int(response.snapshot_version),
        actions=[logged_from_entry(a) for a in response.actions],
        logged_requests=[(int(k.seat), k.request_id) for k in response.logged_requests],
        log_seq=int(response.log_seq),
    )


class PersistenceStore:
    """The store port as calls to persistence (`heads`: a batched reader of heads, else one GetMatch each)."""

    def __init__(self, call: Call, heads: Callable[[str], Awaitable[tuple[str, int]]] | None = None) -> None:
        self._call = call
        self._heads = heads

    async def load(self, match_id: str) -> Loaded:
        request = ppb.LoadMatchStateRequest(match_id=match_id, with_request_ids=True)
        return loaded_from(await self._call("LoadMatchState", request))

    async def load_before(self, match_id: str, version: int) -> Loaded:
        request = ppb.LoadMatchStateRequest(match_id=match_id, at_version=version)
        return loaded_from(await self._call("LoadMatchState", request))

    async def prior_action(self, match_id: str, request_id: str, seat: int) -> LoggedAction | None:
        request = ppb.LoadMatchStateRequest(match_id=match_id, request_id=request_id, request_seat=seat, at_version=0)
        found = await self._call("LoadMatchState", request)
        return logged_from_entry(found.prior) if found.HasField("prior") else None

    async def actions(self, match_id: str, first: int, last: int) -> list[LoggedAction]:
        request = ppb.GetActionsRequest(match_id=match_id, from_version=first, to_version=last)
        return [logged_from_entry(a) for a in (await self._call("GetActions", request)).actions]

    async def record(self, match_id: str) -> ppb.MatchRecord:
        record: ppb.MatchRecord = (await self._call("GetMatch", ppb.GetMatchRequest(match_id=match_id))).match
        return record

    async def head(self, match_id: str) -> tuple[str, int]:
        if self._heads is not None:
            return await self._heads(match_id)
        record = await self.record(match_id)
        return record.status, int(record.version)

    async def lifecycle_request(self, account_id: str, kind: str, request_id: str) -> tuple[str, int] | None:
        lookup = ppb.GetLifecycleRequestRequest(account_id=account_id, kind=kind, request_id=request_id)
        prior = await self._call("GetLifecycleRequest", lookup)
        return (prior.match_id, int(prior.seat)) if prior.found else None

    async def clocked(self, game: str, after: tuple[int, str], limit: int) -> list[tuple[str, int]]:
        request = ppb.ListClockedMatchesRequest(
            game=game, after_deadline_unix_ms=after[0], after_match_id=after[1], limit=limit
        )
        page = await self._call("ListClockedMatches", request)
        return [(m.match_id, int(m.deadline_unix_ms)) for m in page.matches]

    async def create(self, request: ppb.CreateMatchRequest) -> ppb.MatchRecord:
        record: ppb.MatchRecord = (await self._call("CreateMatch", request)).match
        return record

    async def claim_seat(self, request: ppb.ClaimSeatRequest) -> None:
        await self._call("ClaimSeat", request)

    async def release_seat(self, request: ppb.ReleaseSeatRequest) -> None:
        await self._call("ReleaseSeat", request)

    async def start(self, request: ppb.StartMatchRequest) -> ppb.MatchRecord:
        record: ppb.MatchRecord = (await self._call("StartMatch", request)).match
        return record

    async def close_open(self, request: ppb.CloseMatchRequest) -> ppb.MatchRecord:
        record: ppb.MatchRecord = (await self._call("CloseMatch", request)).match
        return record


__all__ = ["Call", "PersistenceStore", "loaded_from"]
