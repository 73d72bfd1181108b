"""Queues: enqueue, cancel and look up tickets, and the matching loop that turns tickets into matches.

Tickets live in persistence (one row each). A pass reads a (game, mode)'s queued tickets, runs
the library's `match_pass` and asks persistence to claim the proposed matches in ONE transaction
that moves each match's tickets queued → matching only if all of them are still queued: a
replica whose proposal lost a ticket to another replica (or to a cancel) simply does not get
that match, so two replicas never match a ticket twice. Pending matches are then opened on their
rules owner with their request id as idempotency key (a replica that crashed in between leaves
them for the next pass, which creates the same match), and settling a match closes its tickets
and writes the matched event to the outbox in one more transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
import uuid
from collections.abc import Callable
from typing import Any

import grpc
import structlog

from gamehall.engine import Game, all_games, get_game
from gamehall.events.v1 import matchmaking_pb2 as epb
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matchmaking import Constraints, Match, MatchPolicy, MatchShape, Member, Ticket, match_pass
from gamehall.matchmaking.errors import InvalidTicket, UnknownTicket
from gamehall.runtime import metrics
from gamehall.runtime.bus import SUBJECT_ROOT
from gamehall.runtime.errors import ClientError
from gamehall_sdk.v1 import match_pb2
from gamehall_services.matchmaking.creator import MatchCreator
from gamehall_services.matchmaking.documents import PendingMatch, TicketEntry
from gamehall_services.matchmaking.ratings import Ratings
from gamehall_services.matchmaking.store_client import MatchmakingStore

log = structlog.get_logger("gamehall.matchmaking.queues")

IDLE_SWEEP_SECONDS = 30.0
"""How often a replica looks at the queues nobody enqueued to through it (tickets another replica took, or
left behind when it died); queues with waiting tickets are passed every `interval` instead."""
CREATE_CONCURRENCY = 16
"""Matches of one pass created at once through the gateway."""
BOT_DIFFICULTY = "normal"


def layouts_of(game: Game[Any]) -> dict[str, tuple[tuple[int, ...], ...]]:
    """One queue per multiplayer mode, at its smallest seat count of two or more (solo modes have no
    queue), with the engine's own seating of teams (`Game.teams`: e.g. Grimslingers teams alternate)."""
    layouts = {}
    for mode in game.modes:
        for seats in sorted(n for n in mode.seats if n >= 2):
            teams = game.teams(game.configure(mode.id, seats))
            if len({len(t) for t in teams}) == 1:  # matchmaking fills equal teams only
                layouts[mode.id] = teams
                break
    return layouts


def shapes_of(game: Game[Any]) -> dict[str, MatchShape]:
    """The shape (teams x team size) of each queue, from `layouts_of`."""
    return {mode: MatchShape(teams=len(t), team_size=len(t[0])) for mode, t in layouts_of(game).items()}


def request_id_of(match: Match) -> str:
    """A stable id for the match of these tickets: the idempotency key of its creation."""
    digest = hashlib.sha256(",".join(sorted(match.tickets)).encode()).hexdigest()[:24]
    return f"mm-{digest}"


def seat_plan(
    match: Match, layout: tuple[tuple[int, ...], ...]
) -> tuple[list[match_pb2.SeatSpec], dict[str, list[int]]]:
    """Seat specs with team k of the match in the engine's seats `layout[k]`, and each ticket's seats."""
    specs: list[match_pb2.SeatSpec | None] = [None] * sum(len(t) for t in layout)
    seats_of: dict[str, list[int]] = {}
    for team, seats in zip(match.teams, layout, strict=True):
        for member, index in zip(team, seats, strict=True):
            if member.player is None:
                specs[index] = match_pb2.SeatSpec(bot=BOT_DIFFICULTY)
            else:
                specs[index] = match_pb2.SeatSpec(reserved_for=member.player)
                seats_of.setdefault(member.ticket or "", []).append(index)
    return [s for s in specs if s is not None], seats_of


class Queues:
    """The queues of every game, stored ticket by ticket in persistence."""

    def __init__(
        self,
        store: MatchmakingStore,
        ratings: Ratings,
        creator: MatchCreator,
        policy: MatchPolicy,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.ratings = ratings
        self.creator = creator
        self.policy = policy
        self.clock = clock
        self.changed = asyncio.Event()
        """Set after an enqueue or cancel through this replica: the loop passes at once."""
        self.woken: set[str] = set()
        """Games with an enqueue or cancel through this replica since the last pass."""
        self.active: set[str] = set()
        """Games whose last pass found tickets waiting or matches pending: passed every `interval`."""
        self.ticket_news = asyncio.Condition()
        """Notified whenever this replica learns that tickets changed (watch streams wait on it)."""

    # ----------------------------------------------------------------- tickets
    async def enqueue(
        self,
        game_id: str,
        mode: str,
        players: list[str],
        submitted_by: str,
        *,
        allow_bots: bool,
        pool: str,
        ticket_id: str = "",
    ) -> TicketEntry:
        """Queue a ticket (`ticket_id`: derived from a request id, so that a retry finds it)."""
        game = get_game(game_id)
        shapes = shapes_of(game)
        mode = mode or next(iter(shapes), "")
        if mode not in shapes:
            raise InvalidTicket(f"{game_id} has no mode {mode!r}; modes: {sorted(shapes)}")
        if len(set(players)) != len(players):
            raise InvalidTicket("a player appears twice in the ticket")
        ratings = await self.ratings.ratings(game_id, mode, players)
        ticket = Ticket(
            id=ticket_id or f"tk-{uuid.uuid4().hex}",
            game=game_id,
            mode=mode,
            members=tuple(Member(p, ratings[p]) for p in players),
            enqueued_at=self.clock(),
            constraints=Constraints(pool=pool, allow_bots=allow_bots),
        )
        shapes[mode].check(ticket)
        entry = await self.store.enqueue(TicketEntry(ticket, submitted_by))
        self.woken.add(game_id)
        await self._news()
        return entry

    async def cancel(self, ticket_id: str, may: Callable[[TicketEntry], bool]) -> TicketEntry:
        """Withdraw a queued ticket; UnknownTicket when it is not the caller's or no longer queued."""
        entry = await self.store.ticket(ticket_id)
        if not may(entry):
            raise UnknownTicket(f"no ticket {ticket_id!r}")
        if entry.state != "queued":
            raise UnknownTicket(f"ticket {ticket_id} is {entry.state}: it can no longer be cancelled")
        try:
            cancelled = await self.store.cancel(ticket_id)
        except ClientError as exc:
            if exc.code == grpc.StatusCode.FAILED_PRECONDITION:  # a pass claimed it in between
                raise UnknownTicket(f"ticket {ticket_id} is being matched: it can no longer be cancelled") from None
            raise
        await self._news()
        return cancelled

    async def get(self, ticket_id: str) -> TicketEntry:
        """A ticket in any state."""
        return await self.store.ticket(ticket_id)

    async def tickets_of(self, player: str, game_id: str = "", closed_since: float = 0.0) -> list[TicketEntry]:
        """The open tickets `player` is in or submitted, and those closed since `closed_since`."""
        return await self.store.tickets_of(player, game_id, closed_since)

    async def _news(self) -> None:
        self.changed.set()
        async with self.ticket_news:
            self.ticket_news.notify_all()

    async def heard(self) -> None:
        """Another replica announced a change (a matched event): wake the watch streams."""
        async with self.ticket_news:
            self.ticket_news.notify_all()

    @staticmethod
    def games() -> list[str]:
        """Every hosted game has a queue."""
        return sorted(g.id for g in all_games())

    # ----------------------------------------------------------------- the matching loop
    async def run(self, interval: float = 0.5, idle_sweep: float = IDLE_SWEEP_SECONDS) -> None:
        """Match until cancelled, driven by events rather than a sweep of every queue: a game is passed at once
        after an enqueue through this replica, then every `interval` seconds while tickets wait in it (skill
        windows widen and bots fill with waiting time); every game is looked at once per `idle_sweep`."""
        swept = -idle_sweep
        while True:
            now = time.monotonic()
            sweep = now - swept >= idle_sweep
            games = self.games() if sweep else sorted(self.active | self.woken)
            self.woken.clear()
            self.changed.clear()
            for game_id in games:
                try:
                    _, busy = await self._pass(game_id)
                except asyncio.CancelledError:
                    raise
                except Exception:  # one game's trouble (or the rules service starting) never stalls the others
                    log.exception("matching pass failed; retrying", game=game_id)
                    busy = True
                (self.active.add if busy else self.active.discard)(game_id)
            if sweep:
                swept = now
            wait = interval if self.active else max(0.0, swept + idle_sweep - time.monotonic())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), wait)

    async def pass_once(self, game_id: str) -> int:
        """One pass over a game: propose matches per mode, claim them, create every pending match, settle;
        returns how many matches it claimed."""
        made, _ = await self._pass(game_id)
        return made

    async def _pass(self, game_id: str) -> tuple[int, bool]:
        """(matches claimed, whether tickets were waiting or matches pending: the game is passed again soon)."""
        now = self.clock()
        made = 0
        busy = False
        for mode, shape in sorted(shapes_of(get_game(game_id)).items()):
            waiting = await self.store.queued(game_id, mode)
            metrics.QUEUE_DEPTH.labels(game_id, mode).set(len(waiting))
            if not waiting:
                continue
            busy = True
            proposals = [
                PendingMatch(request_id_of(m), mode, m, now)
                for m in match_pass(waiting, shape, now, self.policy).matches
            ]
            made += len(await self.store.claim(game_id, proposals))
        pending = await self.store.pending(game_id)
        if pending:
            busy = True
            await self._create_all(game_id, pending)
        return made, busy

    async def _create_all(self, game_id: str, pending: list[PendingMatch]) -> None:
        """Create the pending matches (a few at a time) and settle each once created (or refused)."""
        gate = asyncio.Semaphore(CREATE_CONCURRENCY)
        layouts = layouts_of(get_game(game_id))

        async def create(claimed: PendingMatch) -> None:
            specs, seats_of = seat_plan(claimed.match, layouts[claimed.mode])
            async with gate:
                try:
                    match = await self.creator.create(
                        game_id, claimed.mode, specs, claimed.request_id, hold_reserved=True
                    )
                    match_id: str | None = match.id
                except (grpc.aio.AioRpcError, ClientError) as exc:
                    code = exc.code() if isinstance(exc, grpc.aio.AioRpcError) else exc.code
                    if code not in REFUSED:
                        raise  # the rules service is away: the next pass tries again with the same request id
                    log.warning(
                        "match refused; its tickets are cancelled",
                        tickets=list(claimed.match.tickets),
                        why=f"{code.name}: {exc}",
                    )
                    match_id = None
                outbox = [] if match_id is None else [matched_event(game_id, claimed, match_id)]
                closed = await self.store.settle(claimed.request_id, match_id, seats_of, outbox)
            if match_id is not None and closed:
                self._announce(game_id, claimed, [self.clock() - e.ticket.enqueued_at for e in closed])

        outcomes = await asyncio.gather(*(create(p) for p in pending), return_exceptions=True)
        await self._news()
        failures = [o for o in outcomes if isinstance(o, BaseException)]
        if failures:
            raise failures[0]

    def _announce(self, game_id: str, claimed: PendingMatch, waits: list[float]) -> None:
        """Metrics and a log line for a match made from the queue (its event went out with the settle)."""
        for wait in waits:
            metrics.QUEUE_WAIT.labels(game_id, claimed.mode).observe(max(0.0, wait))
        metrics.MATCHES_MADE.labels(game_id, claimed.mode, claimed.match.reason).inc()
        log.info("match made", game=game_id, tickets=list(claimed.match.tickets))


def matched_event(game_id: str, claimed: PendingMatch, match_id: str) -> ppb.OutboxEntry:
    """The `TicketsMatched` event of a settled match, for the outbox (dedupe id: the match request)."""
    players = [s.player or "" for team in claimed.match.teams for s in team]
    event = epb.TicketsMatched(
        game=game_id,
        mode=claimed.mode,
        match_id=match_id,
        ticket_ids=list(claimed.match.tickets),
        players=players,
        reason=claimed.match.reason,
    )
    return ppb.OutboxEntry(
        subject=f"{SUBJECT_ROOT}.matchmaking.{game_id}.matched",
        msg_id=claimed.request_id,
        payload=event.SerializeToString(),
    )


REFUSED = frozenset(
    {
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.PERMISSION_DENIED,
    }
)
"""Statuses that retrying the same creation will never change: its tickets are cancelled."""
