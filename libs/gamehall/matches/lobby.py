"""Opening, joining and starting a match, by the owner that will hold it: the engine fills in the config and
deals the initial state, `gamehall.matches.lifecycle` plans the seats and picks the seat a join takes, and the
store writes each step with its events in one transaction (`ports.LobbyStore`; issue 37 makes these log entries
too). The gateway (for clients) and matchmaking (for queues and tournaments) both open matches through the
owner (`MatchOwner.open`, `MatchOwner.join`), so neither calls the other.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

import structlog

from gamehall.engine import Game, MatchConfig
from gamehall.internal.v1 import live_pb2
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches import clocks
from gamehall.matches.access import Caller
from gamehall.matches.errors import AlreadyUsed, BadRequest, NoSuchMatch, NotOpen, StoreRefused
from gamehall.matches.lifecycle import InvalidSeats, SeatRequest, is_full, plan_seats, seat_to_join
from gamehall.matches.ports import Store
from gamehall.store import seed_commitment
from gamehall.wire import config_from_proto
from gamehall.wire import outbox as events
from gamehall.wire.convert import dumps
from gamehall.wire.matches import facts_from_record
from gamehall.wire.public import bot_level_name, clock_from_proto

log = structlog.get_logger("gamehall.matches.lobby")


def seat_requests(specs: Any) -> list[SeatRequest]:
    """The public SeatSpec messages as the library's seat requests."""
    requests = []
    for spec in specs:
        kind = spec.WhichOneof("kind")
        if kind == "reserved_for":
            requests.append(SeatRequest("reserved", account_id=spec.reserved_for))
        elif kind == "bot":  # deprecated: the difficulty's name
            requests.append(SeatRequest("bot", bot=spec.bot))
        elif kind == "bot_level":
            requests.append(SeatRequest("bot", bot=bot_level_name(spec.bot_level) or "unspecified"))
        else:
            requests.append(SeatRequest("open"))
    return requests


class Lobby:
    """Open, join and start matches of one game through the store's lobby writes."""

    def __init__(self, game: Game[Any], store: Store, now_ms: Callable[[], int], idle_ms: int = 0) -> None:
        self.game = game
        self.store = store
        self.now_ms = now_ms
        self.idle_ms = idle_ms
        """The platform's inactivity limit, kept in every new match's clock spec (0: none)."""

    async def _existing(self, match_id: str, creator: Caller) -> ppb.MatchRecord | None:
        """The match an earlier try of this creation made (the creator's own only)."""
        try:
            match = await self.store.record(match_id)
        except NoSuchMatch:
            return None
        if match.created_by != creator.account_id:
            raise InvalidSeats("request_id already used by another account")
        return match

    async def open(self, request: live_pb2.OpenMatchRequest, creator: Caller) -> live_pb2.OpenMatchResponse:
        if not request.match_id:
            raise BadRequest("match_id is required")
        wanted = config_from_proto(request.config)
        config = self.game.configure(wanted.mode or None, wanted.seats or None, wanted.options, wanted.flags)
        seed = secrets.randbits(63)
        initial = self.game.new_match(config, seed)
        to_act = sorted(self.game.to_act(initial))
        join = int(request.join_seat) if request.HasField("join_seat") else None
        seats = plan_seats(seat_requests(request.seats), config.seats, creator.account_id, join)
        spec = clocks.ClockSpec.checked(*clock_from_proto(request.clock), idle_ms=self.idle_ms)
        match_id, game = request.match_id, self.game.id
        outbox = [events.created(match_id, game, config.mode, config.seats, seed_commitment(seed, match_id))]
        outbox += [
            events.seat_joined(match_id, game, 0, s.seat, s.account_id, s.kind)
            for s in seats
            if s.kind in ("human", "bot")
        ]
        clock_state = None
        full = is_full(seats)
        if full:
            clock_state = clocks.initial(spec, config.seats, to_act, self.now_ms())
            deadlines = {s: clocks.deadline_ms(spec, clock_state, s) for s in to_act}
            bots = {s.seat: s.bot_difficulty for s in seats if s.kind == "bot"}
            outbox += events.turns_for_bots(match_id, game, 0, to_act, bots, deadlines, self.game, initial)
        create = ppb.CreateMatchRequest(
            match_id=match_id,
            game=game,
            config_json=dumps(config.to_json()),
            public=request.public,
            seed=seed,
            created_by=creator.account_id,
            seats=[
                ppb.SeatRecord(seat=s.seat, kind=s.kind, account_id=s.account_id, bot_difficulty=s.bot_difficulty)
                for s in seats
            ],
            clock_json=dumps(spec.to_json()) if spec.stored else "",
            status="running" if full else "open",
            outbox=outbox,
            clock_state_json=dumps(clock_state) if clock_state is not None else "",
        )
        try:
            stored = await self.store.create(create)
        except AlreadyUsed:
            # a retry of a creation (the id is derived from the creator's request id) finds the match its
            # first try made; only then is it read, so a first creation costs no lookup
            again = await self._existing(match_id, creator)
            if again is None:
                raise
            return live_pb2.OpenMatchResponse(match=again, existed=True)
        log.info("match opened", match_id=match_id, mode=config.mode, seats=config.seats, running=full)
        return live_pb2.OpenMatchResponse(match=stored)

    # ----------------------------------------------------------------- joining and starting
    async def _record(self, match_id: str) -> ppb.MatchRecord:
        record = await self.store.record(match_id)
        if record.game != self.game.id:
            raise BadRequest(f"match {match_id} is a {record.game} match, not {self.game.id}")
        return record

    async def join(
        self, match_id: str, caller: Caller, wanted: int | None, request_id: str = ""
    ) -> live_pb2.JoinMatchResponse:
        """Take a seat, then start the match if it is full. A retry by a seated caller (asking for no seat, or for
        the seat it holds: the gateway resends a join whose reply was lost) is answered with its seat, whatever
        the match's status now, as the first try was.

        With `request_id`, a retry is answered from the store's record of the first try (written with the seat's
        claim, in its transaction), so it gets the seat the first try took even after the caller left it or a
        restart of this replica, and never joins twice; another id is another join."""
        if request_id:
            prior = await self._prior_join(match_id, caller, request_id)
            if prior is not None:
                return prior
        record = await self._record(match_id)
        facts = facts_from_record(record)
        held = next((s.seat for s in facts.seats if s.kind == "human" and s.account_id == caller.account_id), None)
        if held is not None and wanted in (None, held):
            if request_id and record.status == "open":  # this id's answer is that seat from now on
                note = ppb.ClaimSeatRequest(
                    match_id=match_id, seat=held, account_id=caller.account_id, kind="human", request_id=request_id
                )
                await self.store.claim_seat(note)
            return live_pb2.JoinMatchResponse(match=await self.start_if_full(record), seat=held)
        if record.status != "open":
            raise NotOpen(f"match {match_id} is {record.status}: no seat to join")
        seat = seat_to_join(match_id, facts.seats, caller.account_id, wanted)
        joined = events.seat_joined(match_id, record.game, record.version, seat, caller.account_id, "human")
        claim = ppb.ClaimSeatRequest(
            match_id=match_id,
            seat=seat,
            account_id=caller.account_id,
            kind="human",
            outbox=[joined],
            start_when_full=self._start_request(record),  # whichever claim fills the match starts it
            request_id=request_id,
        )
        await self.store.claim_seat(claim)
        started = await self._record(match_id)  # the claim that filled it started it
        if started.status == "running":
            log.info("match started", match_id=match_id, seats=len(facts.seats))
        return live_pb2.JoinMatchResponse(match=started, seat=seat)

    async def _prior_join(self, match_id: str, caller: Caller, request_id: str) -> live_pb2.JoinMatchResponse | None:
        """The answer to a retried join: the seat its first try took, with the match as it is now (None: no try)."""
        prior = await self.store.lifecycle_request(caller.account_id, "join", request_id)
        if prior is None:
            return None
        if prior[0] != match_id:
            raise AlreadyUsed(f"request_id {request_id[:64]!r} was used to join another match")
        return live_pb2.JoinMatchResponse(match=await self._record(match_id), seat=prior[1], replayed=True)

    def _start_request(self, record: ppb.MatchRecord) -> ppb.StartMatchRequest:
        """How `record` starts now: its clock from this moment and the first bot turns of its initial state
        (dealt again from the committed seed and config, so every replica plans the same start)."""
        facts = facts_from_record(record)
        config = self.game.validate_config(MatchConfig.from_json(facts.config))
        initial = self.game.new_match(config, facts.seed)
        to_act = sorted(self.game.to_act(initial))
        clock_state = clocks.initial(facts.clock, len(facts.seats), to_act, self.now_ms())
        deadlines = {s: clocks.deadline_ms(facts.clock, clock_state, s) for s in to_act}
        outbox = events.turns_for_bots(
            record.id, record.game, 0, to_act, facts.bot_seats(), deadlines, self.game, initial
        )
        return ppb.StartMatchRequest(match_id=record.id, outbox=outbox, clock_state_json=dumps(clock_state))

    async def start_if_full(self, record: ppb.MatchRecord) -> ppb.MatchRecord:
        """open → running once every seat is held, for a full match left open (stored before seat claims
        started the match themselves). Idempotent: a match another join started is returned as it is."""
        facts = facts_from_record(record)
        if record.status != "open" or not is_full(facts.seats):
            return record
        start = self._start_request(record)
        try:
            started = await self.store.start(start)
        except StoreRefused:
            return await self._record(record.id)  # another join started it
        log.info("match started", match_id=record.id, seats=len(facts.seats))
        return started


__all__ = ["Lobby", "seat_requests"]
