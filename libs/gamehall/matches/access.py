"""Who may see a match and act for which seat, over any record with `public`, `created_by` and `seats`.

Public matches are open to anyone; private ones to their seats, their creator, operators, and the
bot account when the match has a bot seat (the ai service plays it). A human acts only for its own
seats; `bot` and `operator` accounts may act for bot seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from gamehall.matches.errors import NoSuchSeat, NotSeated, PrivateMatch


class SeatLike(Protocol):
    @property
    def seat(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def account_id(self) -> str: ...


class MatchLike(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def public(self) -> bool: ...

    @property
    def created_by(self) -> str: ...

    @property
    def seats(self) -> Sequence[SeatLike]: ...


class CallerLike(Protocol):
    @property
    def account_id(self) -> str: ...

    @property
    def role(self) -> str: ...


@dataclass(frozen=True)
class Caller:
    """An authenticated caller: the account and its role (from the account record)."""

    account_id: str
    role: str = "player"


def may_watch(match: MatchLike, caller: CallerLike) -> bool:
    return (
        match.public
        or caller.role == "operator"
        or match.created_by == caller.account_id
        or any(s.account_id == caller.account_id for s in match.seats)
        or (caller.role == "bot" and any(s.kind == "bot" for s in match.seats))
    )


def require_watch(match: MatchLike, caller: CallerLike) -> None:
    if not may_watch(match, caller):
        raise PrivateMatch(f"match {match.id} is private: only its seats may see it")


def seat_of(match: MatchLike, caller: CallerLike, wanted: int | None) -> int | None:
    """The seat the caller acts or sees as: the one asked for (if it may), else its first seat, else None."""
    if wanted is not None:
        seat = next((s for s in match.seats if s.seat == wanted), None)
        if seat is None:
            raise NoSuchSeat(f"match {match.id} has no seat {wanted}")
        mine = seat.kind == "human" and seat.account_id == caller.account_id
        bot_work = seat.kind == "bot" and caller.role in ("bot", "operator")
        if not (mine or bot_work):
            raise NotSeated(f"seat {wanted} of match {match.id} is not yours")
        return wanted
    for seat in match.seats:
        if seat.kind == "human" and seat.account_id == caller.account_id:
            return int(seat.seat)
    return None


def require_seat(match: MatchLike, caller: CallerLike, wanted: int | None) -> int:
    seat = seat_of(match, caller, wanted)
    if seat is None:
        raise NotSeated(f"you hold no seat in match {match.id}")
    return seat


__all__ = ["Caller", "CallerLike", "MatchLike", "SeatLike", "may_watch", "require_seat", "require_watch", "seat_of"]
