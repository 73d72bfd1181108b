"""Matches are created through the gateway's public `MatchService.CreateMatch`, like any client's.

Why not a shared function: the gateway owns match creation (config defaults from the rules
host, seed commitment, seat validation, clocks, the outbox events that wake the bots), and
calling it keeps one code path with no second copy of that logic in this service. The service
acts as its own account (`matchmaking-service`, created in persistence at start with an
unusable password) with a token signed by the shared key, like the ai service does. Every
create carries a `request_id` (the queue match or tournament pairing id), so a retry after a
crash returns the same match instead of a second one.
"""

from __future__ import annotations

import time
from typing import Any

import grpc

from gamehall.auth import Tokens
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall.runtime.channels import internal_channel
from gamehall.runtime.errors import ClientError
from gamehall.runtime.identity import ensure_service_account
from gamehall.runtime.upstream import translate
from gamehall.v1 import common_pb2, gateway_pb2, gateway_pb2_grpc

SERVICE_USERNAME = "matchmaking-service"
TOKEN_TTL_SECONDS = 900.0


class MatchCreator:
    """Creates matches via the gateway and reads match records from persistence."""

    def __init__(self, tokens: Tokens, gateway_addr: str, persistence_addr: str) -> None:
        self.tokens = tokens
        self._gateway_addr = gateway_addr
        self._persistence_addr = persistence_addr
        self._channels: list[grpc.aio.Channel] = []
        self.gateway: gateway_pb2_grpc.MatchServiceStub | None = None
        self.persistence: persistence_pb2_grpc.PersistenceServiceStub | None = None
        self.account: ppb.AccountRecord | None = None
        self._token = ""
        self._renew_at = 0.0

    async def connect(self) -> None:
        gateway = internal_channel(self._gateway_addr)
        persistence = internal_channel(self._persistence_addr)
        self._channels = [gateway, persistence]
        self.gateway = gateway_pb2_grpc.MatchServiceStub(gateway)
        self.persistence = persistence_pb2_grpc.PersistenceServiceStub(persistence)
        self.account = await self._service_account()

    async def _service_account(self) -> ppb.AccountRecord:
        """The service's own account (idempotent across replicas and restarts)."""
        assert self.persistence is not None
        return await ensure_service_account(self.persistence, SERVICE_USERNAME, "player")

    def metadata(self) -> tuple[tuple[str, str], ...]:
        now = time.monotonic()
        if now >= self._renew_at:
            assert self.account is not None, "connect() first"
            self._token = self.tokens.issue(self.account, TOKEN_TTL_SECONDS)
            self._renew_at = now + TOKEN_TTL_SECONDS / 2
        return (("authorization", f"Bearer {self._token}"),)

    async def create(
        self,
        game: str,
        mode: str,
        seats: list[gateway_pb2.SeatSpec],
        request_id: str,
        *,
        public: bool = True,
        clock: gateway_pb2.ClockSpec | None = None,
    ) -> gateway_pb2.Match:
        """Create (or find again, same `request_id`) a match with these seats."""
        assert self.gateway is not None
        request: Any = gateway_pb2.CreateMatchRequest(game=game, seats=seats, public=public, request_id=request_id)
        request.config.mode = mode
        request.config.seats = len(seats)
        if clock is not None:
            request.clock.CopyFrom(clock)
        reply = await self.gateway.CreateMatch(request, metadata=self.metadata(), timeout=15)
        match: gateway_pb2.Match = reply.match
        return match

    async def require_account(self, account_id: str) -> None:
        """Raise NOT_FOUND unless `account_id` is an account (before queueing or registering it for someone)."""
        assert self.persistence is not None
        try:
            await self.persistence.GetAccount(ppb.GetAccountRequest(id=account_id), timeout=10)
        except grpc.aio.AioRpcError as exc:
            if exc.code() == grpc.StatusCode.NOT_FOUND:
                raise ClientError(
                    grpc.StatusCode.NOT_FOUND, f"no account {account_id!r}", common_pb2.ERROR_REASON_NOT_FOUND
                ) from None
            raise translate(exc) from exc

    async def record(self, match_id: str) -> ppb.MatchRecord:
        assert self.persistence is not None
        record: ppb.MatchRecord = (
            await self.persistence.GetMatch(ppb.GetMatchRequest(match_id=match_id), timeout=10)
        ).match
        return record

    async def abort(self, match_id: str, reason: str) -> None:
        """Close a match nobody will play (a no-show); an already closed match is left as it is."""
        assert self.persistence is not None
        try:
            await self.persistence.CloseMatch(ppb.CloseMatchRequest(match_id=match_id, status="aborted"), timeout=10)
        except grpc.aio.AioRpcError as exc:
            if exc.code() not in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED):
                raise

    async def close(self) -> None:
        for channel in self._channels:
            await channel.close()
