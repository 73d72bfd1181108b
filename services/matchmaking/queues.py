"""Queues: enqueue, cancel and look up tickets, and the matching loop that turns tickets into matches.

A pass reads a game's queue document, runs the library's `match_pass` per mode and, in ONE
compare-and-swap write, marks the matched tickets `matching` and records the pending matches.
A replica that loses the CAS re-reads and finds those tickets taken, so two replicas never match
a ticket twice. Pending matches are then created through the gateway with their request id as
idempotency key (a replica that crashed in between leaves them for the next pass, which creates
the same match), and a second CAS marks the tickets `matched` with their match and seats.
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
from gamehall.matchmaking import Constraints, Match, MatchPolicy, MatchShape, Member, Ticket, match_pass
from gamehall.matchmaking.errors import AlreadyQueued, InvalidTicket, UnknownTicket
from gamehall.runtime import metrics
from gamehall.runtime.bus import SUBJECT_ROOT, Bus
from gamehall.v1 import gateway_pb2
from gamehall_services.matchmaking.creator import MatchCreator
from gamehall_services.matchmaking.documents import PendingMatch, QueueDoc, TicketEntry
from gamehall_services.matchmaking.kv import Documents, Unchanged
from gamehall_services.matchmaking.ratings import Ratings

log = structlog.get_logger("gamehall.matchmaking.queues")

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
) -> tuple[list[gateway_pb2.SeatSpec], dict[str, list[int]]]:
    """Seat specs with team k of the match in the engine's seats `layout[k]`, and each ticket's seats."""
    specs: list[gateway_pb2.SeatSpec | None] = [None] * sum(len(t) for t in layout)
    seats_of: dict[str, list[int]] = {}
    for team, seats in zip(match.teams, layout, strict=True):
        for member, index in zip(team, seats, strict=True):
            if member.player is None:
                specs[index] = gateway_pb2.SeatSpec(bot=BOT_DIFFICULTY)
            else:
                specs[index] = gateway_pb2.SeatSpec(reserved_for=member.player)
                seats_of.setdefault(member.ticket or "", []).append(index)
    return [s for s in specs if s is not None], seats_of


class Queues:
    """The queues of every game, stored one document per game."""

    def __init__(
        self,
        docs: Documents[QueueDoc],
        closed: Documents[TicketEntry],
        ratings: Ratings,
        creator: MatchCreator,
        policy: MatchPolicy,
        bus: Bus | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.docs = docs
        self.closed = closed
        self.mine: Documents[TicketEntry] = Documents(closed.kv, "mine", TicketEntry)
        """The same records again under `mine.<account>.<ticket>`: what WatchTickets watches."""
        self.ratings = ratings
        self.creator = creator
        self.policy = policy
        self.bus = bus
        self.clock = clock
        self.changed = asyncio.Event()

    # ----------------------------------------------------------------- tickets
    async def enqueue(
        self, game_id: str, mode: str, players: list[str], submitted_by: str, *, allow_bots: bool, pool: str
    ) -> TicketEntry:
        game = get_game(game_id)
        shapes = shapes_of(game)
        mode = mode or next(iter(shapes), "")
        if mode not in shapes:
            raise InvalidTicket(f"{game_id} has no mode {mode!r}; modes: {sorted(shapes)}")
        members = []
        for player in players:
            rating = await self.ratings.rating(game_id, mode, player)
            members.append(Member(player, rating))
        ticket = Ticket(
            id=f"tk-{uuid.uuid4().hex}",
            game=game_id,
            mode=mode,
            members=tuple(members),
            enqueued_at=self.clock(),
            constraints=Constraints(pool=pool, allow_bots=allow_bots),
        )
        shapes[mode].check(ticket)
        entry = TicketEntry(ticket, submitted_by)

        def add(doc: QueueDoc | None) -> tuple[QueueDoc, None]:
            doc = doc or QueueDoc(game_id)
            for player in players:
                holder = doc.holder_of(player)
                if holder is not None:
                    raise AlreadyQueued(player, holder.ticket.id)
            doc.tickets[ticket.id] = entry
            return doc, None

        await self.docs.mutate(game_id, add)
        self.changed.set()
        return entry

    async def cancel(self, ticket_id: str, may: Callable[[TicketEntry], bool]) -> TicketEntry:
        """Withdraw a queued ticket; raises UnknownTicket when it is not queued (matched or gone)."""
        game_id = await self._game_holding(ticket_id)
        now = self.clock()

        def withdraw(doc: QueueDoc | None) -> tuple[QueueDoc, TicketEntry]:
            entry = doc.tickets.get(ticket_id) if doc else None
            if doc is None or entry is None or not may(entry):
                raise UnknownTicket(f"no ticket {ticket_id!r}")
            if entry.state != "queued":
                raise UnknownTicket(f"ticket {ticket_id} is {entry.state}: it can no longer be cancelled")
            del doc.tickets[ticket_id]
            entry.state, entry.closed_at = "cancelled", now
            return doc, entry

        _, entry, _ = await self.docs.mutate(game_id, withdraw)
        await self.record(entry)
        self.changed.set()
        return entry

    async def record(self, entry: TicketEntry) -> None:
        """Store a closed ticket's record, under its id and under each account it concerns."""
        await self.closed.put(entry.ticket.id, entry)
        for account in sorted({*entry.ticket.players(), entry.submitted_by}):
            if _key_safe(account):
                await self.mine.put(f"{account}.{entry.ticket.id}", entry)

    @staticmethod
    def games() -> list[str]:
        """Every hosted game has a queue (its document exists once somebody queued)."""
        return sorted(g.id for g in all_games())

    async def _game_holding(self, ticket_id: str) -> str:
        for game_id in self.games():
            got = await self.docs.get(game_id)
            if got is not None and ticket_id in got[0].tickets:
                return game_id
        raise UnknownTicket(f"no queued ticket {ticket_id!r}")

    async def get(self, ticket_id: str) -> TicketEntry:
        """A ticket in a queue, or its record once matched or cancelled."""
        for game_id in self.games():
            got = await self.docs.get(game_id)
            if got is not None and ticket_id in got[0].tickets:
                return got[0].tickets[ticket_id]
        found = await self.closed.get(ticket_id)
        if found is None:
            raise UnknownTicket(f"no ticket {ticket_id!r}")
        return found[0]

    async def open_tickets_of(self, player: str, game_id: str = "") -> list[TicketEntry]:
        """The queued (or being matched) tickets `player` is in or submitted."""
        rows: list[TicketEntry] = []
        for name in self.games():
            if game_id and name != game_id:
                continue
            got = await self.docs.get(name)
            if got is not None:
                rows += [e for e in got[0].tickets.values() if player in e.ticket.players() or e.submitted_by == player]
        return rows

    # ----------------------------------------------------------------- the matching loop
    async def run(self, interval: float = 0.5) -> None:
        """Pass over every game's queue every `interval` seconds (sooner after an enqueue) until cancelled."""
        while True:
            for game_id in self.games():
                try:
                    await self.pass_once(game_id)
                except asyncio.CancelledError:
                    raise
                except Exception:  # one game's trouble (or the gateway starting) never stalls the others
                    log.exception("matching pass failed; retrying", game=game_id)
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), interval)

    async def pass_once(self, game_id: str) -> int:
        """One pass over a game: claim new matches (one CAS), create every pending match, settle them (one CAS)."""
        now = self.clock()
        shapes = shapes_of(get_game(game_id))

        def claim(doc: QueueDoc | None) -> tuple[QueueDoc, int]:
            if doc is None:
                raise Unchanged()
            made = 0
            for mode, shape in sorted(shapes.items()):
                waiting = doc.waiting(mode)
                metrics.QUEUE_DEPTH.labels(game_id, mode).set(len(waiting))
                if not waiting:
                    continue
                for match in match_pass(waiting, shape, now, self.policy).matches:
                    doc.pending.append(PendingMatch(request_id_of(match), mode, match, now))
                    for ticket_id in match.tickets:
                        doc.tickets[ticket_id].state = "matching"
                    made += 1
            if not made:
                raise Unchanged()
            return doc, made

        made = 0
        with contextlib.suppress(Unchanged):
            _, made, _ = await self.docs.mutate(game_id, claim)
        got = await self.docs.get(game_id)
        if got is not None and got[0].pending:
            await self._create_all(game_id, got[0])
        return made

    async def _create_all(self, game_id: str, doc: QueueDoc) -> None:
        """Create the pending matches (a few at a time), write the tickets' records, then settle in one CAS."""
        gate = asyncio.Semaphore(CREATE_CONCURRENCY)
        layouts = layouts_of(get_game(game_id))

        async def create(pending: PendingMatch) -> tuple[PendingMatch, str | None]:
            specs, _ = seat_plan(pending.match, layouts[pending.mode])
            async with gate:
                try:
                    match = await self.creator.create(game_id, pending.mode, specs, pending.request_id)
                except grpc.aio.AioRpcError as exc:
                    if exc.code() not in REFUSED:
                        raise  # the gateway is away: the next pass tries again with the same request id
                    log.warning(
                        "match refused; its tickets are cancelled",
                        tickets=list(pending.match.tickets),
                        why=f"{exc.code().name}: {exc.details()}",
                    )
                    return pending, None
            return pending, match.id

        outcomes = await asyncio.gather(*(create(p) for p in doc.pending), return_exceptions=True)
        done = [o for o in outcomes if isinstance(o, tuple)]
        failures = [o for o in outcomes if isinstance(o, BaseException)]
        now = self.clock()
        records: dict[str, TicketEntry] = {}
        for pending, match_id in done:
            _, seats_of = seat_plan(pending.match, layouts[pending.mode])
            for ticket_id in pending.match.tickets:
                entry = doc.tickets.get(ticket_id)
                if entry is None:
                    continue
                closed = TicketEntry(entry.ticket, entry.submitted_by, closed_at=now)
                if match_id is None:
                    closed.state = "cancelled"
                else:
                    closed.state, closed.match_id, closed.seats = "matched", match_id, seats_of.get(ticket_id, [])
                records[ticket_id] = closed
        for record in records.values():  # before the queue forgets them: a crash here repeats, harmlessly
            await self.record(record)
        settled = {p.request_id for p, _ in done}

        def settle(current: QueueDoc | None) -> tuple[QueueDoc, None]:
            if current is None or not any(p.request_id in settled for p in current.pending):
                raise Unchanged()
            current.pending = [p for p in current.pending if p.request_id not in settled]
            for ticket_id in records:
                current.tickets.pop(ticket_id, None)
            return current, None

        with contextlib.suppress(Unchanged):
            await self.docs.mutate(game_id, settle)
        for pending, match_id in done:
            if match_id is not None:
                waits = [now - doc.tickets[t].ticket.enqueued_at for t in pending.match.tickets if t in doc.tickets]
                await self._announce(game_id, pending, match_id, waits)
        self.changed.set()
        if failures:
            raise failures[0]

    async def _announce(self, game_id: str, pending: PendingMatch, match_id: str, waits: list[float]) -> None:
        """Metrics, a log line and the matched event of a match made from the queue."""
        for wait in waits:
            metrics.QUEUE_WAIT.labels(game_id, pending.mode).observe(max(0.0, wait))
        metrics.MATCHES_MADE.labels(game_id, pending.mode, pending.match.reason).inc()
        log.info("match made", game=game_id, match_id=match_id, tickets=list(pending.match.tickets))
        if self.bus is None:
            return
        players = [s.player or "" for team in pending.match.teams for s in team]
        event = epb.TicketsMatched(
            game=game_id,
            mode=pending.mode,
            match_id=match_id,
            ticket_ids=list(pending.match.tickets),
            players=players,
            reason=pending.match.reason,
        )
        try:
            await self.bus.publish(
                f"{SUBJECT_ROOT}.matchmaking.{game_id}.matched", event.SerializeToString(), pending.request_id
            )
        except Exception as exc:  # the match and the tickets are stored; the event is a notification
            log.warning("could not publish the matched event", error=str(exc))


REFUSED = frozenset(
    {
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.PERMISSION_DENIED,
    }
)
"""Statuses that retrying the same creation will never change: its tickets are cancelled."""


def _key_safe(name: str) -> bool:
    """Whether `name` can be one token of a KV key (account ids are uuids, so always in practice)."""
    return bool(name) and all(c.isalnum() or c in "-_=" for c in name)
