"""Seat operations: claim a seat with compare-and-swap, release it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from gamehall.store.core import StoreCore
from gamehall.store.errors import AlreadySeated, InvalidArgument, MatchClosed, NotFound, SeatTaken, StoreError
from gamehall.store.outbox import write_outbox
from gamehall.store.records import CLOSED_STATUSES, OutboxMessage, Seat, StartPlan
from gamehall.store.rows import SEAT_COLUMNS, dump_optional_json, seat_from
from gamehall.store.starting import is_full, mark_running
from gamehall.store.transaction import Tx


class SeatOps(StoreCore):
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
            return held

    async def release_seat(
        self,
        match_id: str,
        seat: int,
        *,
        account_id: str | None = None,
        outbox: Sequence[OutboxMessage] = (),
    ) -> Seat:
        """Make a seat of an open match open again. With `account_id`, only if that account holds it (else
        SeatTaken). Releasing an open seat changes nothing. MatchClosed once the match is not open: a running
        match's seat is left by resigning (the caller's rule), never emptied under the players."""
        async with self._write() as tx:
            match = await self._lock_match(tx, match_id)
            if match["status"] != "open":
                raise MatchClosed(f"match {match_id} is {match['status']}: only a seat of an open match is released")
            current = await self._seat(tx, match_id, seat)
            if current.kind == "open":
                return current
            if account_id is not None and current.account_id != account_id:
                raise SeatTaken(f"seat {seat} of match {match_id} is not held by account {account_id}")
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
