"""Seat operations: claim a seat with compare-and-swap, release it, and the record of a join's or leave's first try
(`lifecycle_requests`, written in the claim's or release's own transaction)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from gamehall.store.core import StoreCore
from gamehall.store.errors import AlreadySeated, InvalidArgument, MatchClosed, NotFound, SeatTaken, StoreError
from gamehall.store.outbox import write_outbox
from gamehall.store.records import CLOSED_STATUSES, OutboxMessage, Seat, StartPlan
from gamehall.store.rows import SEAT_COLUMNS, dump_optional_json, seat_from
from gamehall.store.starting import is_full, mark_running
from gamehall.store.transaction import Tx

LifecycleKind = Literal["join", "leave"]
LEAVE_KEY_PREFIX = "leave:"
"""A log entry closing a match for a leave carries request id `leave:<the leaver's request id>` and the leaver's seat:
projecting it records that leave (`record_leaves`), in the projection's transaction."""


@dataclass(frozen=True)
class LifecycleRequest:
    """The first try of a join or leave: which match, which seat."""

    match_id: str
    seat: int


async def record_lifecycle(
    tx: Tx, account_id: str, kind: LifecycleKind, request_id: str, match_id: str, seat: int, now: datetime
) -> None:
    """Note (account, kind, request id) -> (match, seat) in `tx`; a key already noted keeps its first value."""
    await tx.execute(
        "INSERT INTO lifecycle_requests (account_id, kind, request_id, match_id, seat, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, kind, request_id) DO NOTHING",
        account_id,
        kind,
        request_id,
        match_id,
        seat,
        now,
    )


async def record_leaves(tx: Tx, closes: Sequence[tuple[str, int, str]], now: datetime) -> None:
    """Record the leaves among projected closes, each (match id, seat, log request id), as the seat's account's."""
    for match_id, seat, key in closes:
        if not key.startswith(LEAVE_KEY_PREFIX) or len(key) == len(LEAVE_KEY_PREFIX):
            continue
        row = await tx.fetchrow("SELECT account_id FROM seats WHERE match_id = ? AND seat = ?", match_id, seat)
        if row is not None and row["account_id"]:
            await record_lifecycle(
                tx, str(row["account_id"]), "leave", key[len(LEAVE_KEY_PREFIX) :], match_id, seat, now
            )


class SeatOps(StoreCore):
    async def lifecycle_request(self, account_id: str, kind: LifecycleKind, request_id: str) -> LifecycleRequest | None:
        """The recorded first try of `account_id`'s join or leave under `request_id`, or None."""
        async with self._read() as tx:
            row = await tx.fetchrow(
                "SELECT match_id, seat FROM lifecycle_requests WHERE account_id = ? AND kind = ? AND request_id = ?",
                account_id,
                kind,
                request_id,
            )
        return None if row is None else LifecycleRequest(str(row["match_id"]), int(row["seat"]))

    async def claim_seat(
        self,
        match_id: str,
        seat: int,
        account_id: str | None,
        *,
        kind: Literal["human", "bot"] = "human",
        bot_difficulty: str | None = None,
        outbox: Sequence[OutboxMessage] = (),
        start_when_full: StartPlan | None = None,
        request_id: str = "",
    ) -> Seat:
        """Take a seat that is open, or reserved for `account_id`, in one compare-and-swap.

        With `start_when_full`, a claim (or a retried claim) that leaves no seat open or reserved also
        starts the match in the same transaction: open → running, with the plan's clock state and outbox.

        Claiming a seat the same account already holds (same kind) returns it unchanged, so a retried
        request is harmless. AlreadySeated when a person's account holds or has reserved another seat
        of the match (one account plays one seat: ratings and hidden information assume it).
        SeatTaken if someone else holds it or it is reserved for another account;
        MatchClosed if the match is finished or aborted; NotFound for an unknown match or seat.
        A `bot` seat may have no account (a built-in bot at `bot_difficulty`).
        With `request_id`, the claim is recorded as the account's join under that id (`lifecycle_request`).
        """
        if kind not in ("human", "bot"):
            raise InvalidArgument(f"a seat is claimed by a human or a bot, not {kind!r}")
        if kind == "human" and account_id is None:
            raise InvalidArgument("a human seat needs an account")
        async with self._write() as tx:
            match = await self._lock_match(tx, match_id, "id, status, version, clock")
            if match["status"] in CLOSED_STATUSES:
                raise MatchClosed(f"match {match_id} is {match['status']}")
            if kind == "human":  # under the match row's lock: two joins of one account cannot both pass
                other = await tx.fetchrow(
                    "SELECT seat FROM seats WHERE match_id = ? AND account_id = ? AND seat <> ? "
                    "AND kind IN ('human', 'reserved')",
                    match_id,
                    account_id,
                    seat,
                )
                if other is not None:
                    raise AlreadySeated(
                        f"you already hold seat {other['seat']} of match {match_id}: one account plays one seat"
                    )
            claimed = await tx.fetchrow(
                f"UPDATE seats SET kind = ?, account_id = ?, bot_difficulty = ? "
                f"WHERE match_id = ? AND seat = ? AND (kind = 'open' OR (kind = 'reserved' AND account_id = ?)) "
                f"RETURNING {SEAT_COLUMNS}",
                kind,
                account_id,
                bot_difficulty,
                match_id,
                seat,
                account_id,
            )
            if claimed is not None:
                await write_outbox(tx, outbox, self._now())
                held = seat_from(claimed)
            else:
                held = await self._seat(tx, match_id, seat)
                if account_id is None or held.account_id != account_id or held.kind != kind:
                    if held.kind == "reserved":
                        raise SeatTaken(f"seat {seat} of match {match_id} is reserved for another account")
                    raise SeatTaken(f"seat {seat} of match {match_id} is taken")
            if start_when_full is not None and match["status"] == "open" and await is_full(tx, match_id):
                state_json = dump_optional_json(start_when_full.clock_state, "clock state")
                await mark_running(tx, match_id, match["clock"], state_json)
                await write_outbox(tx, start_when_full.outbox, self._now())
            if request_id and account_id is not None:
                await record_lifecycle(tx, account_id, "join", request_id, match_id, seat, self._now())
            return held

    async def release_seat(
        self,
        match_id: str,
        seat: int,
        *,
        account_id: str | None = None,
        outbox: Sequence[OutboxMessage] = (),
        request_id: str = "",
    ) -> Seat:
        """Make a seat of an open match open again. With `account_id`, only if that account holds it (else
        SeatTaken). Releasing an open seat changes nothing. MatchClosed once the match is not open: a running
        match's seat is left by resigning (the caller's rule), never emptied under the players. With `request_id`
        (and `account_id`), the release is recorded as the account's leave under that id (`lifecycle_request`)."""
        async with self._write() as tx:
            match = await self._lock_match(tx, match_id)
            if match["status"] != "open":
                raise MatchClosed(f"match {match_id} is {match['status']}: only a seat of an open match is released")
            current = await self._seat(tx, match_id, seat)
            if current.kind == "open":
                return current
            if account_id is not None and current.account_id != account_id:
                raise SeatTaken(f"seat {seat} of match {match_id} is not held by account {account_id}")
            if request_id and account_id is not None:
                await record_lifecycle(tx, account_id, "leave", request_id, match_id, seat, self._now())
            released = await tx.fetchrow(
                "UPDATE seats SET kind = 'open', account_id = NULL, bot_difficulty = NULL "
                f"WHERE match_id = ? AND seat = ? RETURNING {SEAT_COLUMNS}",
                match_id,
                seat,
            )
            await write_outbox(tx, outbox, self._now())
        if released is None:  # cannot happen: the row was read under the match lock
            raise StoreError(f"seat {seat} of match {match_id} vanished during release")
        return seat_from(released)

    async def _seat(self, tx: Tx, match_id: str, seat: int) -> Seat:
        row = await tx.fetchrow(f"SELECT {SEAT_COLUMNS} FROM seats WHERE match_id = ? AND seat = ?", match_id, seat)
        if row is None:
            raise NotFound(f"match {match_id} has no seat {seat}")
        return seat_from(row)
