"""PersistenceService over `gamehall.store`: each RPC is one store operation (one transaction).

Writes that carry outbox entries poke the relay, which publishes them to JetStream after commit.
"""

from __future__ import annotations

from typing import Any

from gamehall.internal.v1 import persistence_pb2 as pb
from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall.store.errors import InvalidArgument, MatchClosed
from gamehall.store.matches import MAX_DUE
from gamehall.store.seats import LifecycleKind
from gamehall_services.persistence.projector import Projector
from gamehall_services.persistence.records import (
    account_to_proto,
    action_to_proto,
    loads,
    match_to_proto,
    new_seat_from_proto,
    outbox_from_proto,
    seat_to_proto,
    start_plan,
)
from gamehall_services.persistence.writer import StoreWriter

MAX_LIST = 500


class PersistenceServicer(StoreWriter, persistence_pb2_grpc.PersistenceServiceServicer):
    projector: Projector | None = None
    """The match log's projector (bound at start): while it runs, a running match is closed by its owner, not here."""

    # ----------------------------------------------------------------- accounts
    async def CreateAccount(self, request: pb.CreateAccountRequest, context: Any) -> pb.CreateAccountResponse:
        account = await self.store.create_account(
            request.username,
            request.password_hash,
            request.role or "player",  # type: ignore[arg-type]
        )
        return pb.CreateAccountResponse(account=account_to_proto(account))

    async def SetPasswordHash(self, request: pb.SetPasswordHashRequest, context: Any) -> pb.SetPasswordHashResponse:
        await self.store.set_password_hash(request.account_id, request.password_hash)
        return pb.SetPasswordHashResponse()

    async def GetAccount(self, request: pb.GetAccountRequest, context: Any) -> pb.GetAccountResponse:
        key = request.WhichOneof("key")
        if key == "id":
            account = await self.store.get_account_by_id(request.id)
        elif key == "username":
            account = await self.store.get_account_by_name(request.username)
        else:
            raise InvalidArgument("give an account id or a username")
        return pb.GetAccountResponse(account=account_to_proto(account))

    # ----------------------------------------------------------------- matches and seats
    async def CreateMatch(self, request: pb.CreateMatchRequest, context: Any) -> pb.CreateMatchResponse:
        config = loads(request.config_json, "config_json")
        if config is None:
            raise InvalidArgument("a match needs a config")
        match = await self.store.create_match(
            game=request.game,
            config=config,
            public=request.public,
            seed=request.seed,
            match_id=request.match_id or None,
            created_by=request.created_by or None,
            seats=[new_seat_from_proto(s) for s in request.seats] or None,
            clock=loads(request.clock_json, "clock_json"),
            status=request.status or "open",  # type: ignore[arg-type]
            outbox=outbox_from_proto(request.outbox),
        )
        clock_state = loads(request.clock_state_json, "clock_state_json")
        if clock_state is not None:
            await self.store.update_clock(match.id, clock_state, expected_version=0)
            match = await self.store.get_match(match.id)
        self._published(request.outbox)
        return pb.CreateMatchResponse(match=match_to_proto(match))

    async def GetMatch(self, request: pb.GetMatchRequest, context: Any) -> pb.GetMatchResponse:
        return pb.GetMatchResponse(match=match_to_proto(await self.store.get_match(request.match_id)))

    async def GetMatchHeads(self, request: pb.GetMatchHeadsRequest, context: Any) -> pb.GetMatchHeadsResponse:
        heads = await self.store.match_heads(request.match_ids)
        return pb.GetMatchHeadsResponse(
            heads=[pb.MatchHead(match_id=m, status=h.status, version=h.version) for m, h in heads.items()]
        )

    async def ListMatches(self, request: pb.ListMatchesRequest, context: Any) -> pb.ListMatchesResponse:
        page = await self.store.list_matches(
            game=request.game or None,
            status=list(request.statuses) or None,
            public=request.public if request.HasField("public") else None,
            account_id=request.account_id or None,
            limit=min(request.limit or 50, MAX_LIST),
            cursor=request.cursor or None,
        )
        matches = [m for m in page.matches if m.clock is not None or not request.clocked_only]
        return pb.ListMatchesResponse(matches=[match_to_proto(m) for m in matches], next_cursor=page.next_cursor or "")

    async def ClaimSeat(self, request: pb.ClaimSeatRequest, context: Any) -> pb.ClaimSeatResponse:
        seat = await self.store.claim_seat(
            request.match_id,
            request.seat,
            request.account_id or None,
            kind=request.kind or "human",  # type: ignore[arg-type]
            bot_difficulty=request.bot_difficulty or None,
            outbox=outbox_from_proto(request.outbox),
            start_when_full=start_plan(request.start_when_full) if request.HasField("start_when_full") else None,
            request_id=request.request_id,
        )
        self._published(request.outbox)
        if request.HasField("start_when_full"):
            self._published(request.start_when_full.outbox)
        return pb.ClaimSeatResponse(seat=seat_to_proto(seat))

    async def ReleaseSeat(self, request: pb.ReleaseSeatRequest, context: Any) -> pb.ReleaseSeatResponse:
        seat = await self.store.release_seat(
            request.match_id,
            request.seat,
            account_id=request.account_id or None,
            outbox=outbox_from_proto(request.outbox),
            request_id=request.request_id,
        )
        self._published(request.outbox)
        return pb.ReleaseSeatResponse(seat=seat_to_proto(seat))

    async def GetLifecycleRequest(
        self, request: pb.GetLifecycleRequestRequest, context: Any
    ) -> pb.GetLifecycleRequestResponse:
        if request.kind not in ("join", "leave") or not request.account_id or not request.request_id:
            raise InvalidArgument("a lifecycle request is (account_id, kind join or leave, request_id)")
        kind: LifecycleKind = "join" if request.kind == "join" else "leave"
        found = await self.store.lifecycle_request(request.account_id, kind, request.request_id)
        if found is None:
            return pb.GetLifecycleRequestResponse(found=False)
        return pb.GetLifecycleRequestResponse(found=True, match_id=found.match_id, seat=found.seat)

    async def StartMatch(self, request: pb.StartMatchRequest, context: Any) -> pb.StartMatchResponse:
        plan = start_plan(request)
        match = await self.store.start_match(request.match_id, clock_state=plan.clock_state, outbox=plan.outbox)
        self._published(request.outbox)
        return pb.StartMatchResponse(match=match_to_proto(match))

    async def CloseMatch(self, request: pb.CloseMatchRequest, context: Any) -> pb.CloseMatchResponse:
        expected = request.expected_version if request.HasField("expected_version") else None
        outcome = loads(request.outcome_json, "outcome_json")
        outbox = outbox_from_proto(request.outbox)
        if self.projector is not None and (await self.store.get_match(request.match_id)).status == "running":
            # A running match's truth is its log, and its owner is the log's one author (ARCHITECTURE rule 6).
            raise MatchClosed(
                f"match {request.match_id} is running: its owner closes it (LiveMatchService.Close), not the store"
            )
        if request.status == "finished":
            if outcome is None:
                raise InvalidArgument("a finished match needs an outcome")
            match = await self.store.finish_match(request.match_id, outcome, expected_version=expected, outbox=outbox)
        elif request.status == "aborted":
            match = await self.store.abort_match(
                request.match_id, outcome=outcome, expected_version=expected, outbox=outbox
            )
        else:
            raise InvalidArgument(f"a match closes as finished or aborted, not {request.status!r}")
        self._published(request.outbox)
        return pb.CloseMatchResponse(match=match_to_proto(match))

    # ----------------------------------------------------------------- the action log (written by the projection)
    async def LoadMatchState(self, request: pb.LoadMatchStateRequest, context: Any) -> pb.LoadMatchStateResponse:
        # The log head first: the projection only moves forward, so the match read after it holds at least
        # every entry up to it, and a reader of the log after `log_seq` skips what the record already has.
        log_seq = await self.store.log_head(request.match_id)
        match = await self.store.get_match(request.match_id)
        response = pb.LoadMatchStateResponse(match=match_to_proto(match), log_seq=log_seq)
        target = match.version
        if request.HasField("at_version"):
            if request.at_version > match.version:
                raise InvalidArgument(f"match {match.id} is at version {match.version}, not {request.at_version} yet")
            target = request.at_version
        snapshot = await self.store.latest_snapshot(match.id, at_most=target)
        start = 1
        if snapshot is not None:
            response.snapshot = snapshot.state
            response.snapshot_version = snapshot.version
            start = snapshot.version + 1
        if start <= target:
            actions = await self.store.get_actions(match.id, start, target)
            response.actions.extend(action_to_proto(a) for a in actions)
        if request.request_id:
            prior = await self.store.get_action_by_request(match.id, request.request_seat, request.request_id)
            if prior is not None:
                response.prior.CopyFrom(action_to_proto(prior))
        if request.with_request_ids:
            response.logged_requests.extend(
                pb.LoggedRequest(seat=seat, request_id=request_id)
                for seat, request_id in await self.store.request_keys(match.id)
            )
        return response

    async def GetActions(self, request: pb.GetActionsRequest, context: Any) -> pb.GetActionsResponse:
        actions = await self.store.get_actions(
            request.match_id, max(1, request.from_version), request.to_version or None
        )
        return pb.GetActionsResponse(actions=[action_to_proto(a) for a in actions])

    # ----------------------------------------------------------------- clocks
    async def ListClockedMatches(
        self, request: pb.ListClockedMatchesRequest, context: Any
    ) -> pb.ListClockedMatchesResponse:
        """A game's running matches with a next deadline, earliest first, paged (indexed)."""
        if not request.game:
            raise InvalidArgument("game is required")
        found = await self.store.clocked_matches(
            request.game,
            (request.after_deadline_unix_ms, request.after_match_id),
            min(request.limit or MAX_DUE, MAX_DUE),
        )
        return pb.ListClockedMatchesResponse(
            matches=[pb.ClockedMatch(match_id=m, deadline_unix_ms=at) for m, at in found]
        )
