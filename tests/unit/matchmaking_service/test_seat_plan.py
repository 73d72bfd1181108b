"""Teams follow the engine (Grimslingers 2v2 alternates seats): where matched players sit, and how they are rated."""

from __future__ import annotations

from gamehall.engine import get_game
from gamehall.matchmaking import Match, Rating
from gamehall.matchmaking.rated import RatedMatch, RatedSeat, rated_teams
from gamehall.matchmaking.tickets import Seat
from gamehall_services.matchmaking.queues import layouts_of, seat_plan, shapes_of


def test_team_modes_take_the_engine_layout() -> None:
    game = get_game("grimslingers")
    assert layouts_of(game)["versus-teams"] == ((0, 2), (1, 3))
    assert shapes_of(game)["versus-teams"].team_size == 2


def test_partners_sit_on_their_team_seats() -> None:
    r = Rating()
    match = Match(
        tickets=("party", "solo-c", "solo-d"),
        teams=(
            (Seat("alice", "party", r), Seat("bob", "party", r)),
            (Seat("carol", "solo-c", r), Seat(None, None, r)),
        ),
        quality=0.5,
        reason="window",
    )
    specs, seats_of = seat_plan(match, ((0, 2), (1, 3)))
    assert [s.WhichOneof("kind") for s in specs] == ["reserved_for", "reserved_for", "reserved_for", "bot"]
    assert [specs[i].reserved_for for i in (0, 2, 1)] == ["alice", "bob", "carol"]
    assert seats_of == {"party": [0, 2], "solo-c": [1]}


def test_team_matches_are_rated_as_teams() -> None:
    seats = tuple(RatedSeat(n, "human", name) for n, name in enumerate("abcd"))
    match = RatedMatch("m1", "grimslingers", "versus-teams", seats)
    assert rated_teams(match, [1, 2, 1, 2]) == ([["a", "c"], ["b", "d"]], [1, 2])


def test_humans_are_rated_and_bots_are_not() -> None:
    def match(kinds: list[str]) -> RatedMatch:
        seats = tuple(RatedSeat(n, kind, f"acc{n}" if kind == "human" else "") for n, kind in enumerate(kinds))
        return RatedMatch("m1", "grimslingers", "versus-1v1", seats)

    assert rated_teams(match(["human", "human"]), [2, 1]) == ([["acc0"], ["acc1"]], [2, 1])
    assert rated_teams(match(["human", "bot"]), [1, 2]) is None
