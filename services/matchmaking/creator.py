"""Matches are opened on the rules replica that will own them (`LiveMatchService.OpenMatch`), the same
call the gateway makes for a client: the lobby (config defaults, seed commitment, seat planning,
clocks, the events that wake the bots) is the match library's, so this service neither copies it
nor calls the public gateway. It acts as its own account (`matchmaking-service`, created in
persistence at start with an unusable password). Every open carries the queue match's or
tournament pairing's request id, from which the match id follows, so a retry after a crash returns
the same match instead of a second one.
"""

from __future__ import annotations

import grpc

from gamehall.internal.v1 import live_pb2, persistence_pb2_grpc
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches.lifecycle import match_id_for
from gamehall.runtime.channels import internal_channel
from gamehall.runtime.errors import ClientError
from gamehall.runtime.identity import ensure_service_account
from gamehall.runtime.rules_replicas import RulesReplicas
from gamehall.runtime.upstream import translate
from gamehall.wire.matches import public_match
from gamehall_sdk.v1 import common_pb2, match_pb2

SERVICE_USERNAME = "matchmaking-service"
OPEN_DEADLINE_SECONDS = 15.0


class MatchCreator:
    """Opens matches on their owning rules replica and reads match records from persistence."""

    def __init__(self, rules_addrs: dict[str, str], persistence_addr: str) -> None:
        self._rules_addrs = dict(rules_addrs)
        self._persistence_addr = persistence_addr
        self._channels: list[grpc.aio.Channel] = []
        self.rules: dict[str, RulesReplicas] = {}
        self.persistence: persistence_pb2_grpc.PersistenceServiceStub | None = None
        self.account: ppb.AccountRecord | None = None

    async def connect(self) -> None:
        persistence = internal_channel(self._persistence_addr)
        self._channels = [persistence]
        self.persistence = persistence_pb2_grpc.PersistenceServiceStub(persistence)
        self.rules = {
            game: RulesReplicas(game, spec, OPEN_DEADLINE_SECONDS) for game, spec in self._rules_addrs.items()
        }
        self.account = await ensure_service_account(self.persistence, SERVICE_USERNAME, "player")

    def _replicas(self, game: str) -> RulesReplicas:
        """The rules replicas of `game` (NOT_FOUND when no rules service of it is configured)."""
        replicas = self.rules.get(game)
        if replicas is None:
            unknown = common_pb2.ERROR_REASON_UNKNOWN_GAME
            raise ClientError(grpc.StatusCode.NOT_FOUND, f"no rules service for {game!r} is known", unknown)
        return replicas

    def persistence_stub(self) -> persistence_pb2_grpc.PersistenceServiceStub:
        """The persistence stub (after `connect`)."""
        assert self.persistence is not None, "connect() first"
        return self.persistence

    async def create(
        self,
        game: str,
        mode: str,
        seats: list[match_pb2.SeatSpec],
        request_id: str,
        *,
        public: bool = True,
        clock: common_pb2.ClockSpec | None = None,
        hold_reserved: bool = False,
    ) -> match_pb2.Match:
        """Open (or find again, same `request_id`) a match with these seats; ClientError when refused.

        `hold_reserved`: take every reserved seat for its account as well (a queue's match: the player finds
        the seat held when the ticket says matched, and the match running once every seat is taken). A
        retry is harmless: the owner answers a seated account's join with the seat it holds. Tournament
        matches leave their seats reserved (a player who never joins is a no-show)."""
        assert self.account is not None, "connect() first"
        replicas = self._replicas(game)
        match_id = match_id_for(self.account.id, request_id)
        request = live_pb2.OpenMatchRequest(
            match_id=match_id,
            caller=live_pb2.Caller(account_id=self.account.id, role=self.account.role),
            config=common_pb2.MatchConfig(mode=mode, seats=len(seats)),
            seats=seats,
            public=public,
        )
        if clock is not None:
            request.clock.CopyFrom(clock)
        opened = await replicas.on_owner(match_id, "OpenMatch", request)
        record = opened.match
        if hold_reserved:
            for spec in seats:
                if spec.WhichOneof("kind") == "reserved_for":
                    join = live_pb2.JoinMatchRequest(
                        match_id=match_id, caller=live_pb2.Caller(account_id=spec.reserved_for, role="player")
                    )
                    record = (await replicas.on_owner(match_id, "JoinMatch", join)).match
        return public_match(record)

    async def require_account(self, account_id: str) -> str:
        """The username of account `account_id`; NOT_FOUND unless it is an account (before queueing or
        registering it for someone)."""
        assert self.persistence is not None
        try:
            found = await self.persistence.GetAccount(ppb.GetAccountRequest(id=account_id), timeout=10)
        except grpc.aio.AioRpcError as exc:
            if exc.code() == grpc.StatusCode.NOT_FOUND:
                raise ClientError(
                    grpc.StatusCode.NOT_FOUND, f"no account {account_id!r}", common_pb2.ERROR_REASON_NOT_FOUND
                ) from None
            raise translate(exc) from exc
        return str(found.account.username)

    async def account_named(self, username: str) -> tuple[str, str]:
        """(account id, username) of the account with this username (any case); NOT_FOUND when there is none."""
        assert self.persistence is not None
        try:
            found = await self.persistence.GetAccount(ppb.GetAccountRequest(username=username), timeout=10)
        except grpc.aio.AioRpcError as exc:
            if exc.code() == grpc.StatusCode.NOT_FOUND:
                raise ClientError(
                    grpc.StatusCode.NOT_FOUND, "no account has this username", common_pb2.ERROR_REASON_NOT_FOUND
                ) from None
            raise translate(exc) from exc
        return str(found.account.id), str(found.account.username)

    async def record(self, match_id: str) -> ppb.MatchRecord:
        assert self.persistence is not None
        record: ppb.MatchRecord = (
            await self.persistence.GetMatch(ppb.GetMatchRequest(match_id=match_id), timeout=10)
        ).match
        return record

    async def abort(self, match_id: str, game: str, reason: str) -> None:
        """Close a match nobody will play (`reason`: a no-show), asking its owner (ARCHITECTURE rule 6); an
        already closed match is left as it is."""
        replicas = self._replicas(game)
        try:
            await replicas.on_owner(match_id, "Close", live_pb2.CloseRequest(match_id=match_id, status="aborted"))
        except ClientError as exc:
            if exc.code not in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED):
                raise

    async def close(self) -> None:
        for channel in self._channels:
            await channel.close()
        for replicas in self.rules.values():
            await replicas.close()
