"""Tournaments through the gateway: operator lifecycle, rounds created as matches played by bots,
standings that agree with the match outcomes, and a matchmaking crash mid-round that loses nothing."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections import defaultdict
from typing import Any

import grpc
import nats
import pytest

from gamehall.events.v1 import matchmaking_pb2 as epb
from gamehall.tournaments.standings import TIEBREAKS
from gamehall_sdk.v1 import tournament_pb2 as pb
from tests.e2e.client import Client
from tests.e2e.conftest import Running
from tests.e2e.mm_helpers import operator, tournaments, wait_for

GAME = "high-card"


def _call(client: Client, method: str, request: Any, timeout: float = 20.0) -> Any:
    return getattr(tournaments(client), method)(request, metadata=client.metadata, timeout=timeout)


def _get(client: Client, tid: str) -> pb.Tournament:
    return _call(client, "GetTournament", pb.GetTournamentRequest(tournament_id=tid)).tournament


def _pairings(client: Client, tid: str, round_no: int = 0) -> list[pb.TournamentPairing]:
    """Every pairing, read five to a page (ListPairings' tokens followed to the last page)."""
    request = pb.ListPairingsRequest(tournament_id=tid, round=round_no, page_size=5)
    found: list[pb.TournamentPairing] = []
    while True:
        reply = _call(client, "ListPairings", request)
        found.extend(reply.pairings)
        if not reply.next_page_token:
            return found
        request.page_token = reply.next_page_token


def _bot_swiss(boss: Client, players: int, rounds: int = 0, name: str = "cup") -> pb.Tournament:
    request = pb.CreateTournamentRequest(name=name, game=GAME, format=pb.TOURNAMENT_FORMAT_SWISS, rounds=rounds)
    tid = _call(boss, "CreateTournament", request).tournament.id
    for k in range(players):
        _call(boss, "RegisterPlayer", pb.RegisterPlayerRequest(tournament_id=tid, bot=("random", "easy")[k % 2]))
    return _call(boss, "StartTournament", pb.StartTournamentRequest(tournament_id=tid)).tournament


def _finished(client: Client, tid: str, timeout: float) -> pb.Standings:
    def probe() -> pb.Standings | None:
        standings = _call(client, "GetStandings", pb.GetStandingsRequest(tournament_id=tid)).standings
        return standings if standings.status == pb.TOURNAMENT_STATUS_FINISHED else None

    return wait_for(probe, timeout=timeout, what=f"tournament {tid} to finish")


def _outcomes(running: Running) -> dict[str, list[int]]:
    with sqlite3.connect(running.data_dir / "gamehall.db") as db:
        rows = db.execute("SELECT id, outcome FROM matches WHERE outcome IS NOT NULL").fetchall()
    return {match_id: json.loads(outcome)["ranks"] for match_id, outcome in rows}


def _points_from_matches(running: Running, pairings: list[pb.TournamentPairing]) -> dict[str, float]:
    """Swiss points recomputed from the stored match outcomes: win 1, draw 1/2, loss 0, bye 1."""
    outcomes = _outcomes(running)
    points: dict[str, float] = defaultdict(float)
    for pairing in pairings:
        if len(pairing.players) == 1:
            points[pairing.players[0]] += 1.0
            continue
        ranks = outcomes[pairing.match_id]
        assert list(pairing.ranks) == ranks, f"{pairing.id} does not carry its match's result"
        for player, rank in zip(pairing.players, ranks, strict=True):
            points[player] += 0.5 if min(ranks) == max(ranks) else (1.0 if rank == 1 else 0.0)
    return dict(points)


def _service_matches_after(running: Running, rowid: int) -> int:
    with sqlite3.connect(running.data_dir / "gamehall.db") as db:
        (count,) = db.execute(
            "SELECT COUNT(*) FROM matches WHERE rowid > ? AND created_by = "
            "(SELECT id FROM accounts WHERE username = 'matchmaking-service')",
            (rowid,),
        ).fetchone()
    return int(count)


def _last_rowid(running: Running) -> int:
    with sqlite3.connect(running.data_dir / "gamehall.db") as db:
        return int(db.execute("SELECT COALESCE(MAX(rowid), 0) FROM matches").fetchone()[0])


def _event_kinds(running: Running, tid: str) -> set[str]:
    """The kinds of the tournament's events on JetStream (gamehall.v1.tournament.<id>.<kind>)."""

    async def read() -> set[str]:
        nc = await nats.connect(running.platform.nats_url)
        try:
            sub = await nc.jetstream().subscribe(f"gamehall.v1.tournament.{tid}.>", ordered_consumer=True)
            kinds = set()
            while True:
                try:
                    msg = await sub.next_msg(timeout=1.0)
                except TimeoutError:  # nats' own, or asyncio's from a lingering pull request
                    return kinds
                kinds.add(epb.TournamentEvent.FromString(msg.data).kind)
        finally:
            await nc.close()

    return asyncio.run(read())


def test_a_swiss_of_eight_bots_finishes_with_correct_standings(platform: Running) -> None:
    boss = operator(platform)
    started = _bot_swiss(boss, 8, rounds=3, name="eight")
    assert started.status == pb.TOURNAMENT_STATUS_RUNNING and started.rounds_planned == 3
    assert started.pairing_count == 4 and len(_pairings(boss, started.id)) == 4
    revisions = []
    stream = tournaments(boss).WatchStandings(
        pb.WatchStandingsRequest(tournament_id=started.id), metadata=boss.metadata, timeout=120
    )
    for message in stream:
        revisions.append(message.standings.revision)
    standings = _finished(boss, started.id, timeout=5)
    assert revisions == sorted(revisions) and revisions[-1] == standings.revision
    pairings = _pairings(boss, started.id)
    assert len(pairings) == 12 and all(p.match_id for p in pairings) and _get(boss, started.id).pairing_count == 12
    assert [p.id for p in _pairings(boss, started.id, 2)] == [p.id for p in pairings if p.round == 2]
    expected = _points_from_matches(platform, pairings)
    rows = {r.player: r for r in standings.rows}
    assert {p: r.points for p, r in rows.items()} == pytest.approx({p: expected.get(p, 0.0) for p in rows})
    assert [r.rank for r in standings.rows] == list(range(1, 9))
    assert [r.points for r in standings.rows] == sorted((r.points for r in standings.rows), reverse=True)
    assert list(standings.tiebreak_order) == list(TIEBREAKS["swiss"])
    kinds = _event_kinds(platform, started.id)
    assert {"created", "registered", "started", "match-created", "result", "round", "finished"} <= kinds
    for player, row in rows.items():  # Buchholz: the sum of the opponents' final points
        opponents = [q for p in pairings if player in p.players for q in p.players if q != player]
        assert row.tiebreaks["buchholz"] == pytest.approx(sum(rows[q].points for q in opponents))
        assert row.games == 3


def test_players_register_and_only_operators_run_tournaments(platform: Running) -> None:
    boss, player = operator(platform), platform.player()
    with pytest.raises(grpc.RpcError) as refused:
        _call(player, "CreateTournament", pb.CreateTournamentRequest(game=GAME, format=pb.TOURNAMENT_FORMAT_SWISS))
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    tid = _call(
        boss, "CreateTournament", pb.CreateTournamentRequest(game=GAME, format=pb.TOURNAMENT_FORMAT_SWISS)
    ).tournament.id
    joined = _call(player, "RegisterPlayer", pb.RegisterPlayerRequest(tournament_id=tid))
    assert joined.player == player.account.id
    assert [e.display_name for e in joined.tournament.entrants] == [player.account.username]
    with pytest.raises(grpc.RpcError) as twice:
        _call(player, "RegisterPlayer", pb.RegisterPlayerRequest(tournament_id=tid))
    assert twice.value.code() == grpc.StatusCode.ALREADY_EXISTS
    with pytest.raises(grpc.RpcError) as early:
        _call(boss, "StartTournament", pb.StartTournamentRequest(tournament_id=tid))
    assert early.value.code() == grpc.StatusCode.FAILED_PRECONDITION  # one player is too few
    left = _call(player, "UnregisterPlayer", pb.UnregisterPlayerRequest(tournament_id=tid)).tournament
    assert not left.entrants


def test_a_human_no_show_forfeits(platform: Running) -> None:
    boss, absent = operator(platform), platform.player()
    request = pb.CreateTournamentRequest(game=GAME, format=pb.TOURNAMENT_FORMAT_SWISS, rounds=1)
    request.no_show_timeout.FromSeconds(2)
    tid = _call(boss, "CreateTournament", request).tournament.id
    _call(boss, "RegisterPlayer", pb.RegisterPlayerRequest(tournament_id=tid, account_id=absent.account.id))
    _call(boss, "RegisterPlayer", pb.RegisterPlayerRequest(tournament_id=tid, bot="random"))
    _call(boss, "StartTournament", pb.StartTournamentRequest(tournament_id=tid))
    standings = _finished(boss, tid, timeout=60)
    rows = {r.player: r for r in standings.rows}
    assert rows[absent.account.id].points == 0.0 and rows["bot-random-1"].points == 1.0
    # registered by the operator: shown by the account's own username; a bot entrant by its id
    assert rows[absent.account.id].display_name == absent.account.username and not rows["bot-random-1"].display_name
    (pairing,) = _pairings(boss, tid)
    assert list(pairing.forfeited) == [absent.account.id] and pairing.forfeit_reason == pb.FORFEIT_REASON_NO_SHOW
    assert absent.match(pairing.match_id).status == 4  # MATCH_STATUS_ABORTED: nobody plays it any more


def test_killing_matchmaking_mid_round_loses_nothing(platform: Running) -> None:
    boss = operator(platform)
    before = _last_rowid(platform)
    started = _bot_swiss(boss, 8, rounds=3, name="crash")
    wait_for(lambda: all(p.match_id for p in _pairings(boss, started.id)), what="round 1 matches")
    platform.platform.restart("matchmaking")  # SIGKILL mid-round
    standings = _finished(boss, started.id, timeout=120)
    assert standings.round == 3 and sum(r.games for r in standings.rows) == 3 * 8
    pairings = _pairings(boss, started.id)
    assert len({p.match_id for p in pairings}) == 12
    assert _service_matches_after(platform, before) == 12  # one match per pairing, none created twice
    expected = _points_from_matches(platform, pairings)
    assert {r.player: r.points for r in standings.rows} == pytest.approx(expected)


def test_a_swiss_of_64_bots_finishes(platform: Running) -> None:
    boss = operator(platform)
    started = _bot_swiss(boss, 64, name="sixty-four")
    assert started.rounds_planned == 6 and started.pairing_count == 32
    standings = _finished(boss, started.id, timeout=300)
    assert len(standings.rows) == 64 and sum(r.games for r in standings.rows) == 6 * 64
    assert sum(r.points for r in standings.rows) == pytest.approx(6 * 32)


def test_operator_controls_pause_adjudicate_drop_and_resume(platform: Running) -> None:
    boss = operator(platform)
    started = _bot_swiss(boss, 4, rounds=2, name="controls")
    paused = _call(boss, "PauseTournament", pb.PauseTournamentRequest(tournament_id=started.id)).tournament
    assert paused.status == pb.TOURNAMENT_STATUS_PAUSED
    target = _pairings(boss, started.id)[0]
    judged = _call(
        boss,
        "AdjudicatePairing",
        pb.AdjudicatePairingRequest(tournament_id=started.id, pairing_id=target.id, ranks=[2, 1]),
    ).tournament
    assert judged.revision > paused.revision
    ruled = next(p for p in _pairings(boss, started.id) if p.id == target.id)
    assert list(ruled.ranks) == [2, 1] and ruled.adjudicated
    leaving = target.players[0]
    dropped = _call(boss, "DropPlayer", pb.DropPlayerRequest(tournament_id=started.id, player=leaving)).tournament
    assert next(e for e in dropped.entrants if e.player == leaving).dropped
    with pytest.raises(grpc.RpcError) as refused:  # players cannot run the tournament
        _call(platform.player(), "ResumeTournament", pb.ResumeTournamentRequest(tournament_id=started.id))
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    _call(boss, "ResumeTournament", pb.ResumeTournamentRequest(tournament_id=started.id))
    standings = _finished(boss, started.id, timeout=60)
    rows = {r.player: r for r in standings.rows}
    assert rows[leaving].dropped and rows[leaving].games == 1  # never paired after the drop
    assert rows[target.players[1]].points >= 1.0
    final = _pairings(boss, started.id)
    assert next(p for p in final if p.id == target.id).adjudicated
    round_two = _pairings(boss, started.id, 2)
    assert sum(1 for p in round_two if len(p.players) == 1) == 1  # three players left: one bye
