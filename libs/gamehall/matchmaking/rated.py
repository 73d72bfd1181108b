"""Who a finished match rates: teams of human accounts and each team's rank.

Bot seats are not rated, and a match with fewer than two teams holding a human moves no rating. The
engine seats the teams (Grimslingers 2v2: seats 0 and 2 against 1 and 3); a team's rank is its best
seat's. Persistence rates a match in the transaction that projects its finish, asking this module
(`gamehall_services.persistence.rating`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from gamehall.engine import GameError, get_game
from gamehall.matchmaking.errors import InvalidOutcome


class SharedSeats(InvalidOutcome):
    """One account held two seats of a finished match: no rating can say who beat whom, so it is not rated.

    The seat rule belongs to the match library (one account, one seat, unless a documented hot-seat
    option says otherwise); this is the rating side's defence (issue 20, finding 2)."""


class RatedSeat(NamedTuple):
    seat: int
    kind: str
    account_id: str


@dataclass(frozen=True)
class RatedMatch:
    """What rating a finished match needs: its id, game, mode and who held each seat."""

    id: str
    game: str
    mode: str
    seats: tuple[RatedSeat, ...]


def rated_teams(match: RatedMatch, ranks: Sequence[int]) -> tuple[list[list[str]], list[int]] | None:
    """Teams of human accounts and each team's rank (its best seat's), or None when fewer than two teams have a
    human. `SharedSeats` when one account held two seats, `UnknownGame` for a game this process does not host."""
    humans = [s.account_id for s in match.seats if s.kind == "human" and s.account_id]
    shared = sorted({a for a in humans if humans.count(a) > 1})
    if shared:
        raise SharedSeats(f"match {match.id}: account {shared[0][:64]!r} held {humans.count(shared[0])} seats")
    game = get_game(match.game)
    try:  # the engine seats its teams
        layout = game.teams(game.configure(match.mode or None, len(match.seats)))
        team_of = {seat: k for k, team in enumerate(layout) for seat in team}
    except GameError:
        team_of = {}
    teams: dict[int, list[str]] = {}
    best: dict[int, int] = {}
    for seat in match.seats:
        if seat.kind != "human" or not seat.account_id or seat.seat >= len(ranks):
            continue
        team = team_of.get(int(seat.seat), int(seat.seat))
        teams.setdefault(team, []).append(seat.account_id)
        best[team] = min(best.get(team, ranks[seat.seat]), ranks[seat.seat])
    if len(teams) < 2:
        return None
    order = sorted(teams)
    return [teams[t] for t in order], [best[t] for t in order]


__all__ = ["RatedMatch", "RatedSeat", "SharedSeats", "rated_teams"]
