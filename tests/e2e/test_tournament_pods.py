"""Pods through the gateway: a 4-seat free-for-all tournament of bots, points by placement."""

from __future__ import annotations

from collections import defaultdict

from gamehall.tournaments.pods import placement_points
from gamehall_sdk.v1 import tournament_pb2 as pb
from tests.e2e.conftest import Running
from tests.e2e.mm_helpers import operator, tournaments, wait_for

PLACEMENT = (3.0, 2.0, 1.0, 0.0)  # the default scoring table


def test_pods_of_four_play_to_the_end_with_placement_points(platform: Running) -> None:
    boss = operator(platform)
    stub = tournaments(boss)
    md = boss.metadata
    request = pb.CreateTournamentRequest(
        name="ffa pods", game="grimslingers", mode="versus-ffa", format=pb.TOURNAMENT_FORMAT_PODS, seats=4, rounds=2
    )
    tid = stub.CreateTournament(request, metadata=md).tournament.id
    for _ in range(8):
        stub.RegisterPlayer(pb.RegisterPlayerRequest(tournament_id=tid, bot="random"), metadata=md)
    stub.StartTournament(pb.StartTournamentRequest(tournament_id=tid), metadata=md)

    def finished() -> pb.Standings | None:
        standings = stub.GetStandings(pb.GetStandingsRequest(tournament_id=tid), metadata=md).standings
        return standings if standings.status == pb.TOURNAMENT_STATUS_FINISHED else None

    standings = wait_for(finished, timeout=180, what="the pods tournament to finish")
    listed = stub.ListPairings(pb.ListPairingsRequest(tournament_id=tid), metadata=md)
    assert len(standings.rows) == 8 and not listed.next_page_token
    pods = [p for p in listed.pairings if len(p.players) > 1]
    assert len(pods) == 4 and all(len(p.players) == 4 and p.match_id and len(p.ranks) == 4 for p in pods)
    assert {p.round for p in pods} == {1, 2}
    expected: dict[str, float] = defaultdict(float)
    for pod in pods:
        for player, points in zip(pod.players, placement_points(list(pod.ranks), PLACEMENT), strict=True):
            expected[player] += points
    assert {row.player: row.points for row in standings.rows} == expected
    assert [row.points for row in standings.rows] == sorted((row.points for row in standings.rows), reverse=True)
