"""A match's life before it runs: its id, its seats, and when it starts.

open -> running (every seat taken by a person or a bot) -> finished | aborted. A match whose seats
are all filled at creation starts at once. An idempotent creation (a client's request id, or a
tournament pairing's) always gets the same match id, so a retried create finds the first match.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from gamehall.matches.errors import MatchError, NoOpenSeat, NoSuchSeat
from gamehall.matches.live import SeatFacts

REQUEST_NAMESPACE = uuid.UUID("6f1d4c1e-8a4b-4f55-9d0e-3c2a7b9e5d10")
"""Match ids of idempotent creations are uuid5(namespace, "<creator account>:<request id>")."""
BOT_DIFFICULTIES = ("random", "easy", "normal", "hard", "expert")
STATUSES = ("open", "running", "finished", "aborted")


class InvalidSeats(MatchError, ValueError):
    """Seat requests that do not fit the match (too many, an unknown bot level, a seat not open to you)."""


@dataclass(frozen=True)
class SeatRequest:
    """What a creator asks of one seat: `open`, `reserved` for an account, or a `bot` of a level."""

    kind: str = "open"
    account_id: str = ""
    bot: str = ""


def match_id_for(creator: str, request_id: str) -> str:
    """The id of the match a creation makes: derived from (creator, request id) when one is given."""
    if not request_id:
        return str(uuid.uuid4())
    return str(uuid.uuid5(REQUEST_NAMESPACE, f"{creator}:{request_id}"))


def plan_seats(
    requests: Sequence[SeatRequest], count: int, creator: str, join_seat: int | None
) -> tuple[SeatFacts, ...]:
    """The seats of a new `count`-seat match: the requests in order, open after them, and the
    creator seated at `join_seat` when asked (a bot seat, or a seat reserved for someone else, refuses)."""
    if len(requests) > count:
        raise InvalidSeats(f"{len(requests)} seat specs for a {count}-seat match")
    seats = []
    for n in range(count):
        wanted = requests[n] if n < len(requests) else SeatRequest()
        if wanted.kind == "reserved":
            if not wanted.account_id:
                raise InvalidSeats(f"seat {n}: a reserved seat needs an account")
            seats.append(SeatFacts(n, "reserved", wanted.account_id))
        elif wanted.kind == "bot":
            if wanted.bot not in BOT_DIFFICULTIES:
                raise InvalidSeats(f"seat {n}: bot difficulty must be one of {list(BOT_DIFFICULTIES)}")
            seats.append(SeatFacts(n, "bot", bot_difficulty=wanted.bot))
        elif wanted.kind == "open":
            seats.append(SeatFacts(n, "open"))
        else:
            raise InvalidSeats(f"seat {n}: unknown seat kind {wanted.kind!r}")
    if join_seat is not None:
        if not 0 <= join_seat < count:
            raise InvalidSeats(f"join_seat {join_seat} does not exist (seats 0..{count - 1})")
        taken = seats[join_seat]
        if taken.kind == "bot" or (taken.kind == "reserved" and taken.account_id != creator):
            raise InvalidSeats(f"join_seat {join_seat} is not open to you")
        seats[join_seat] = SeatFacts(join_seat, "human", creator)
    held = [s.account_id for s in seats if s.kind in ("human", "reserved")]
    twice = sorted({a for a in held if held.count(a) > 1})
    if twice:
        raise InvalidSeats(f"account {twice[0]} would hold two seats: one account plays one seat")
    return tuple(seats)


def seat_to_join(match_id: str, seats: Sequence[SeatFacts], account_id: str, wanted: int | None) -> int:
    """The seat a join takes: the one asked for, else the seat reserved for the account, else the first open
    one. NoSuchSeat for a seat the match lacks, NoOpenSeat when nothing is free (the store's compare-and-swap
    still decides a race)."""
    if wanted is not None:
        if not 0 <= wanted < len(seats):
            raise NoSuchSeat(f"match {match_id} has no seat {wanted}")
        return wanted
    for kind in ("reserved", "open"):
        for s in seats:
            if s.kind == kind and (kind == "open" or s.account_id == account_id):
                return s.seat
    raise NoOpenSeat(f"match {match_id} has no open seat")


def is_full(seats: Sequence[SeatFacts]) -> bool:
    """Every seat is held by a person or a bot: the match runs."""
    return all(s.kind in ("human", "bot") for s in seats)


__all__ = [
    "BOT_DIFFICULTIES",
    "REQUEST_NAMESPACE",
    "STATUSES",
    "InvalidSeats",
    "SeatRequest",
    "is_full",
    "match_id_for",
    "plan_seats",
    "seat_to_join",
]
