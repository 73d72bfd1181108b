"""Matchmaking tickets and the matches claimed for them: one row per ticket, claimed with compare-and-swap.

A ticket is queued → matching (a pass claimed it for a pending match) → matched, or cancelled.
The ticket itself (members, ratings, constraints) is an opaque blob the matchmaking library
encodes; the store keeps only what it must index or guard: game, mode, state, enqueue order and
the accounts it holds. `UNIQUE (open_game, account)` is what keeps a player in one queue per
game: the column holds the game while the ticket is open and NULL once it closes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Final, Literal, get_args

import msgspec

from gamehall.store.core import StoreCore
from gamehall.store.errors import AlreadyExists, InvalidArgument, NotFound, StoreError
from gamehall.store.outbox import write_outbox
from gamehall.store.records import OutboxMessage
from gamehall.store.transaction import Row, Tx

TicketState = Literal["queued", "matching", "matched", "cancelled"]
TICKET_STATES: Final[tuple[TicketState, ...]] = get_args(TicketState)
OPEN_STATES: Final[frozenset[str]] = frozenset({"queued", "matching"})
MAX_PAGE: Final = 10_000

TICKET_COLUMNS = (
    "id, game, mode, state, ticket, submitted_by, enqueued_at, match_request, match_id, seats, created_at, closed_at"
)
_T = ", ".join(f"t.{c.strip()}" for c in TICKET_COLUMNS.split(","))


class TicketNotOpen(StoreError):
    """The ticket exists but is no longer queued (matched, cancelled or being matched)."""

    grpc_status = "FAILED_PRECONDITION"


class AlreadyQueued(AlreadyExists):
    """A player already holds an open ticket in this game; `ticket_id` is that ticket."""

    def __init__(self, account: str, game: str, ticket_id: str) -> None:
        super().__init__(f"{account} is already queued for {game} (ticket {ticket_id})")
        self.account = account
        self.ticket_id = ticket_id


class NewTicket(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    game: str
    mode: str
    ticket: bytes
    """The matchmaking library's encoded ticket (opaque here)."""
    players: tuple[str, ...]
    submitted_by: str
    enqueued_at: float


class QueueTicket(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    game: str
    mode: str
    state: TicketState
    ticket: bytes
    submitted_by: str
    players: tuple[str, ...]
    enqueued_at: float
    match_request: str | None
    match_id: str | None
    seats: tuple[int, ...]
    created_at: datetime
    closed_at: datetime | None


class NewPending(msgspec.Struct, frozen=True, kw_only=True):
    """A match a pass proposes for `tickets` (all must still be queued to claim it)."""

    request_id: str
    mode: str
    match: bytes
    tickets: tuple[str, ...]


class PendingMatch(msgspec.Struct, frozen=True, kw_only=True):
    request_id: str
    game: str
    mode: str
    match: bytes
    tickets: tuple[str, ...]
    claimed_at: datetime


class TicketOps(StoreCore):
    async def enqueue_ticket(self, new: NewTicket) -> QueueTicket:
        """Queue a ticket; AlreadyQueued if one of its players holds an open ticket in the game."""
        players = tuple(dict.fromkeys(new.players))
        if not new.id or not new.game or not new.mode or not players:
            raise InvalidArgument("a ticket needs an id, a game, a mode and at least one player")
        try:
            async with self._write() as tx:
                await self._refuse_queued(tx, new.game, players)
                now = self._now()
                await tx.execute(
                    f"INSERT INTO mm_tickets ({TICKET_COLUMNS}) "
                    "VALUES (?, ?, ?, 'queued', ?, ?, ?, NULL, NULL, '[]', ?, NULL)",
                    new.id,
                    new.game,
                    new.mode,
                    bytes(new.ticket),
                    new.submitted_by,
                    float(new.enqueued_at),
                    now,
                )
                accounts: list[tuple[str, str, bool, str | None]] = [(new.id, p, True, new.game) for p in players]
                if new.submitted_by and new.submitted_by not in players:
                    accounts.append((new.id, new.submitted_by, False, None))
                await tx.executemany(
                    "INSERT INTO mm_ticket_accounts (ticket_id, account, is_player, open_game) VALUES (?, ?, ?, ?)",
                    accounts,
                )
        except AlreadyQueued:
            raise
        except AlreadyExists:  # lost a race with a concurrent enqueue of the same player (or a reused id)
            async with self._read() as tx:
                await self._refuse_queued(tx, new.game, players)
            raise
        return await self.get_ticket(new.id)

    async def _refuse_queued(self, tx: Tx, game: str, players: Sequence[str]) -> None:
        row = await tx.fetchrow(
            f"SELECT account, ticket_id FROM mm_ticket_accounts WHERE open_game = ? "
            f"AND account IN ({self._placeholders(players)}) ORDER BY account LIMIT 1",
            game,
            *players,
        )
        if row is not None:
            raise AlreadyQueued(row["account"], game, row["ticket_id"])

    async def get_ticket(self, ticket_id: str) -> QueueTicket:
        async with self._read() as tx:
            found = await self._tickets(tx, "t.id = ?", (ticket_id,))
        if not found:
            raise NotFound(f"no ticket {ticket_id!r}")
        return found[0]

    async def cancel_ticket(self, ticket_id: str, outbox: Sequence[OutboxMessage] = ()) -> QueueTicket:
        """queued → cancelled; NotFound for an unknown ticket, TicketNotOpen once it is matching or closed."""
        async with self._write() as tx:
            now = self._now()
            done = await tx.fetchrow(
                "UPDATE mm_tickets SET state = 'cancelled', closed_at = ? "
                "WHERE id = ? AND state = 'queued' RETURNING id",
                now,
                ticket_id,
            )
            if done is None:
                row = await tx.fetchrow("SELECT state FROM mm_tickets WHERE id = ?", ticket_id)
                if row is None:
                    raise NotFound(f"no ticket {ticket_id!r}")
                raise TicketNotOpen(f"ticket {ticket_id} is {row['state']}: it can no longer be cancelled")
            await tx.execute("UPDATE mm_ticket_accounts SET open_game = NULL WHERE ticket_id = ?", ticket_id)
            await write_outbox(tx, outbox, now)
            return (await self._tickets(tx, "t.id = ?", (ticket_id,)))[0]

    async def queued_tickets(
        self, game: str, mode: str, *, after: tuple[float, str] | None = None, limit: int = 1000
    ) -> list[QueueTicket]:
        """Queued tickets of (game, mode) in enqueue order, a page at a time (`after` = last (enqueued_at, id))."""
        _check_limit(limit)
        where = "t.game = ? AND t.mode = ? AND t.state = 'queued'"
        args: list[object] = [game, mode]
        if after is not None:
            where += " AND (t.enqueued_at > ? OR (t.enqueued_at = ? AND t.id > ?))"
            args += [after[0], after[0], after[1]]
        async with self._read() as tx:
            return await self._tickets(tx, where, tuple(args), order="t.enqueued_at, t.id", limit=limit)

    async def tickets_of(
        self, account: str, *, game: str = "", closed_since: datetime | None = None, limit: int = 100
    ) -> list[QueueTicket]:
        """`account`'s open tickets, and those closed since `closed_since` (all closed ones if None), newest first."""
        _check_limit(limit)
        where = "t.id IN (SELECT ticket_id FROM mm_ticket_accounts WHERE account = ?)"
        args: list[object] = [account]
        if game:
            where += " AND t.game = ?"
            args.append(game)
        if closed_since is not None:
            where += " AND (t.closed_at IS NULL OR t.closed_at >= ?)"
            args.append(closed_since)
        async with self._read() as tx:
            return await self._tickets(tx, where, tuple(args), order="t.enqueued_at DESC, t.id DESC", limit=limit)

    async def claim_tickets(self, game: str, proposals: Sequence[NewPending]) -> list[str]:
        """Claim each proposed match whose tickets are all still queued (queued → matching) and record it
        pending; returns the request ids claimed. A proposal with a taken ticket is skipped, whole.

        Reads the state of every proposed ticket and request id in a few set queries, decides in
        Python, then writes with `executemany`: a pass claiming thousands of matches costs a handful
        of statements per chunk instead of four per match."""
        for proposal in proposals:
            if not proposal.tickets:
                raise InvalidArgument(f"proposal {proposal.request_id} has no tickets")
        every = sorted({t for p in proposals for t in p.tickets})
        ids = [p.request_id for p in proposals]
        claimed: list[str] = []
        async with self._write() as tx:
            now = self._now()
            queued: set[str] = set()
            # Locked in id order (PostgreSQL): two passes proposing overlapping matches in different
            # orders would otherwise deadlock.
            for chunk in _chunks(every):
                rows = await tx.fetch(
                    f"SELECT id FROM mm_tickets WHERE game = ? AND state = 'queued' "
                    f"AND id IN ({self._placeholders(chunk)}) ORDER BY id{self.dialect.for_update}",
                    game,
                    *chunk,
                )
                queued.update(r["id"] for r in rows)
            # Pending, or settled (its tickets keep the request id): claiming it again would let the next
            # settle_match rewrite the tickets of the earlier match.
            used: set[str] = set()
            for chunk in _chunks(ids):
                marks = self._placeholders(chunk)
                rows = await tx.fetch(
                    f"SELECT request_id AS r FROM mm_pending WHERE request_id IN ({marks}) "
                    f"UNION SELECT match_request AS r FROM mm_tickets WHERE match_request IN ({marks})",
                    *chunk,
                    *chunk,
                )
                used.update(r["r"] for r in rows)
            updates: list[tuple[str, str]] = []
            pending: list[tuple[str, str, str, bytes, object]] = []
            for proposal in proposals:
                tickets = list(dict.fromkeys(proposal.tickets))
                if proposal.request_id in used or not queued.issuperset(tickets):
                    continue  # another pass (or a cancel) took one of them, or the match was claimed before
                queued.difference_update(tickets)
                used.add(proposal.request_id)
                updates += [(proposal.request_id, t) for t in tickets]
                pending.append((proposal.request_id, game, proposal.mode, bytes(proposal.match), now))
                claimed.append(proposal.request_id)
            if updates:
                await tx.executemany(
                    "UPDATE mm_tickets SET state = 'matching', match_request = ? WHERE id = ?", updates
                )
                await tx.executemany(
                    "INSERT INTO mm_pending (request_id, game, mode, match, claimed_at) VALUES (?, ?, ?, ?, ?)",
                    pending,
                )
        return claimed

    async def pending_matches(self, game: str, limit: int = 1000) -> list[PendingMatch]:
        """Claimed matches not yet settled, oldest first."""
        _check_limit(limit)
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT request_id, game, mode, match, claimed_at FROM mm_pending WHERE game = ? "
                "ORDER BY claimed_at, request_id LIMIT ?",
                game,
                limit,
            )
            tickets: dict[str, list[str]] = {}
            for chunk in _chunks([r["request_id"] for r in rows]):
                for t in await tx.fetch(
                    f"SELECT id, match_request FROM mm_tickets WHERE match_request IN ({self._placeholders(chunk)}) "
                    "ORDER BY id",
                    *chunk,
                ):
                    tickets.setdefault(t["match_request"], []).append(t["id"])
            out = [
                PendingMatch(
                    request_id=row["request_id"],
                    game=row["game"],
                    mode=row["mode"],
                    match=bytes(row["match"]),
                    tickets=tuple(tickets.get(row["request_id"], ())),
                    claimed_at=self.dialect.load_time(row["claimed_at"]),
                )
                for row in rows
            ]
        return out

    async def settle_match(
        self,
        request_id: str,
        match_id: str | None,
        seats: Mapping[str, Sequence[int]],
        outbox: Sequence[OutboxMessage] = (),
    ) -> list[QueueTicket]:
        """Close a pending match's tickets: `matched` to `match_id` with their seats, or `cancelled` when
        `match_id` is None (the match was refused). Returns the closed tickets; [] if already settled."""
        async with self._write() as tx:
            pending = await tx.fetchrow(
                f"SELECT request_id FROM mm_pending WHERE request_id = ?{self.dialect.for_update}", request_id
            )
            if pending is None:
                return []
            now = self._now()
            ids = [r["id"] for r in await tx.fetch("SELECT id FROM mm_tickets WHERE match_request = ?", request_id)]
            for ticket_id in ids:
                await tx.execute(
                    "UPDATE mm_tickets SET state = ?, match_id = ?, seats = ?, closed_at = ? WHERE id = ?",
                    "cancelled" if match_id is None else "matched",
                    match_id,
                    msgspec.json.encode(list(seats.get(ticket_id, ()))).decode(),
                    now,
                    ticket_id,
                )
            if ids:
                await tx.execute(
                    f"UPDATE mm_ticket_accounts SET open_game = NULL WHERE ticket_id IN ({self._placeholders(ids)})",
                    *ids,
                )
            await tx.execute("DELETE FROM mm_pending WHERE request_id = ?", request_id)
            await write_outbox(tx, outbox, now)
            return await self._tickets(tx, "t.match_request = ?", (request_id,), order="t.id")

    async def purge_closed_tickets(self, before: datetime) -> int:
        """Delete tickets closed before `before` (their history); returns how many."""
        async with self._write() as tx:
            rows = await tx.fetch(
                "DELETE FROM mm_tickets WHERE closed_at IS NOT NULL AND closed_at < ? RETURNING id", before
            )
        return len(rows)

    # ----------------------------------------------------------------- reading rows
    async def _tickets(
        self, tx: Tx, where: str, args: tuple[object, ...], *, order: str = "t.id", limit: int | None = None
    ) -> list[QueueTicket]:
        sql = f"SELECT {_T} FROM mm_tickets t WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        rows = await tx.fetch(sql, *args)
        if not rows:
            return []
        ids = [r["id"] for r in rows]
        players: dict[str, list[str]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            for acc in await tx.fetch(
                f"SELECT ticket_id, account FROM mm_ticket_accounts WHERE is_player = ? "
                f"AND ticket_id IN ({self._placeholders(chunk)}) ORDER BY ticket_id, account",
                True,
                *chunk,
            ):
                players.setdefault(acc["ticket_id"], []).append(acc["account"])
        return [self._ticket_from(r, tuple(players.get(r["id"], ()))) for r in rows]

    def _ticket_from(self, row: Row, players: tuple[str, ...]) -> QueueTicket:
        return QueueTicket(
            id=row["id"],
            game=row["game"],
            mode=row["mode"],
            state=row["state"],
            ticket=bytes(row["ticket"]),
            submitted_by=row["submitted_by"],
            players=players,
            enqueued_at=float(row["enqueued_at"]),
            match_request=row["match_request"],
            match_id=row["match_id"],
            seats=tuple(msgspec.json.decode(row["seats"], type=list[int])),
            created_at=self.dialect.load_time(row["created_at"]),
            closed_at=self.dialect.load_optional_time(row["closed_at"]),
        )


def _chunks(values: Sequence[str], size: int = 500) -> list[Sequence[str]]:
    """`values` in slices well below the drivers' bind-parameter limits."""
    return [values[k : k + size] for k in range(0, len(values), size)]


def _check_limit(limit: int) -> None:
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidArgument(f"limit must be within 1..{MAX_PAGE}, not {limit}")
