"""The authorization matrix (issue 20): every public RPC as each kind of caller, against the running
platform, must answer the status `gamehall_services.gateway.access_matrix.ACCESS` says.

The world: a running public High Card match M (the player in seat 0, the other player in seat 1), a
finished match F between them, the player's queued ticket, an open tournament X made by the operator,
and an account D nobody plays. Probes are chosen so an allowed call changes nothing that matters (a
stale `expected_version`, a finished match, a tournament that cannot start yet), so its status shows
whether the gate let the caller through.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import pkgutil
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest

import gamehall_sdk.v1
from gamehall.auth import Tokens
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.internal.v1 import persistence_pb2_grpc
from gamehall_sdk.v1 import (
    audit_pb2,
    audit_pb2_grpc,
    auth_pb2,
    auth_pb2_grpc,
    catalog_pb2,
    catalog_pb2_grpc,
    match_pb2,
    match_pb2_grpc,
    matchmaking_pb2,
    matchmaking_pb2_grpc,
    tournament_pb2,
    tournament_pb2_grpc,
)
from gamehall_services.gateway.access_matrix import ACCESS, OK, ROLES
from tests.e2e.client import Client
from tests.e2e.conftest import OPERATOR_PASSWORD, TOKEN_KEY, Running

PUBLIC_FILES = [
    importlib.import_module(f"gamehall_sdk.v1.{m.name}").DESCRIPTOR
    for m in pkgutil.iter_modules(gamehall_sdk.v1.__path__)
    if m.name.endswith("_pb2")
]
"""Every public proto file: a new service's RPCs need a probe and a row here before this test passes."""

GAME = "high-card"
_names = itertools.count()


class _Subject:
    def __init__(self, id: str, username: str, role: str) -> None:
        self.id, self.username, self.role = id, username, role


@dataclass
class World:
    platform: Running
    clients: dict[str, Client]
    match: str = ""
    finished: str = ""
    tournament: str = ""
    dave: str = ""
    tickets_made: list[tuple[Client, str]] = field(default_factory=list)

    def fresh_ticket(self) -> str:
        """A new queued ticket of the player, after withdrawing the last one (one queue per game per player)."""
        player = self.clients["player"]
        self.withdraw()
        ticket = (
            matchmaking_pb2_grpc.MatchmakingServiceStub(player.channel)
            .EnqueueTicket(
                matchmaking_pb2.EnqueueTicketRequest(game=GAME, no_bots=True, pool=_pool()), metadata=player.metadata
            )
            .ticket
        )
        self.tickets_made.append((player, ticket.id))
        return str(ticket.id)

    def withdraw(self) -> None:
        while self.tickets_made:
            owner, ticket = self.tickets_made.pop()
            with contextlib.suppress(grpc.RpcError):  # already cancelled by the probe
                matchmaking_pb2_grpc.MatchmakingServiceStub(owner.channel).CancelTicket(
                    matchmaking_pb2.CancelTicketRequest(ticket_id=ticket), metadata=owner.metadata
                )


def _pool() -> str:
    return f"authz-{uuid.uuid4().hex[:12]}"


def _bot_client(platform: Running) -> Client:
    """The ai service's own account (role bot), with a token signed by the platform's key."""
    address = platform.platform.service("persistence").address
    with grpc.insecure_channel(address) as channel:
        account = (
            persistence_pb2_grpc.PersistenceServiceStub(channel)
            .GetAccount(ppb.GetAccountRequest(username="ai-service"), timeout=10)
            .account
        )
    client = platform.client()
    client.token = Tokens(TOKEN_KEY).issue(_Subject(account.id, account.username, account.role), 3600)
    return client


@pytest.fixture(scope="module")
def world(platform: Running) -> Iterator[World]:
    player, other, spectator = platform.player(), platform.player(), platform.player()
    operator = platform.client()
    operator.token = operator.auth.Login(auth_pb2.LoginRequest(username="operator", password=OPERATOR_PASSWORD)).token
    clients = {
        "anonymous": platform.client(),
        "player": player,
        "other": other,
        "spectator": spectator,
        "bot": _bot_client(platform),
        "operator": operator,
    }
    w = World(platform, clients)
    w.match = player.create(GAME, join_seat=0, public=True).id
    other.join(w.match)
    w.finished = player.create(GAME, join_seat=0, public=True).id
    other.join(w.finished)
    other.call("LeaveMatch", match_pb2.LeaveMatchRequest(match_id=w.finished))
    tournaments = tournament_pb2_grpc.TournamentServiceStub(operator.channel)
    w.tournament = tournaments.CreateTournament(
        tournament_pb2.CreateTournamentRequest(
            name="authz", game=GAME, format=tournament_pb2.TOURNAMENT_FORMAT_SWISS, max_players=8
        ),
        metadata=operator.metadata,
    ).tournament.id
    w.dave = platform.player().account.id  # type: ignore[union-attr]
    yield w
    w.withdraw()


Probe = Callable[[World, Client], Any]


def _stub(kind: str, client: Client) -> Any:
    return {
        "auth": auth_pb2_grpc.AuthServiceStub,
        "catalog": catalog_pb2_grpc.CatalogServiceStub,
        "matches": match_pb2_grpc.MatchServiceStub,
        "queue": matchmaking_pb2_grpc.MatchmakingServiceStub,
        "cups": tournament_pb2_grpc.TournamentServiceStub,
        "audit": audit_pb2_grpc.AuditServiceStub,
    }[kind](client.channel)


def _unary(kind: str, method: str, build: Callable[[World], Any]) -> Probe:
    def probe(w: World, c: Client) -> Any:
        return getattr(_stub(kind, c), method)(build(w), metadata=c.metadata if c.token else (), timeout=20)

    return probe


def _stream(kind: str, method: str, build: Callable[[World], Any], quiet_ok: bool = False, wait: float = 5.0) -> Probe:
    """The first message of a stream; `quiet_ok`: a stream with nothing to say yet (DEADLINE_EXCEEDED
    after its short wait) was still let through."""

    def probe(w: World, c: Client) -> Any:
        call = getattr(_stub(kind, c), method)(build(w), metadata=c.metadata if c.token else (), timeout=wait)
        try:
            return next(iter(call))
        except grpc.RpcError as exc:
            if quiet_ok and exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED:  # type: ignore[attr-defined]
                return None
            raise
        finally:
            call.cancel()

    return probe


def _name() -> str:
    return f"authz-{uuid.uuid4().hex[:8]}-{next(_names)}"


def _logout(w: World, c: Client) -> Any:
    """Sign out a second token of the caller's account (the matrix keeps using the first)."""
    metadata: tuple[tuple[str, str], ...] = ()
    if c.token:
        claims = Tokens(TOKEN_KEY).verify(c.token)
        second = Tokens(TOKEN_KEY).issue(_Subject(claims.sub, claims.name, claims.role), 3600)
        metadata = (("authorization", f"Bearer {second}"),)
    return _stub("auth", c).Logout(auth_pb2.LogoutRequest(), metadata=metadata, timeout=20)


PROBES: dict[str, Probe] = {
    # AuthService
    "Register": _unary(
        "auth", "Register", lambda w: auth_pb2.RegisterRequest(username=_name(), password="a long passphrase 42")
    ),
    "Login": _unary(
        "auth", "Login", lambda w: auth_pb2.LoginRequest(username=_name(), password="not a password at all")
    ),
    "WhoAmI": _unary("auth", "WhoAmI", lambda w: auth_pb2.WhoAmIRequest()),
    "Logout": _logout,
    # CatalogService
    "ListGames": _unary("catalog", "ListGames", lambda w: catalog_pb2.ListGamesRequest()),
    # MatchService
    "CreateMatch": _unary("matches", "CreateMatch", lambda w: match_pb2.CreateMatchRequest(game=GAME)),
    "ListMatches": _unary("matches", "ListMatches", lambda w: match_pb2.ListMatchesRequest(game=GAME, page_size=1)),
    "GetMatch": _unary("matches", "GetMatch", lambda w: match_pb2.GetMatchRequest(match_id=w.match)),
    "JoinMatch": _unary("matches", "JoinMatch", lambda w: match_pb2.JoinMatchRequest(match_id=w.match)),
    "LeaveMatch": _unary("matches", "LeaveMatch", lambda w: match_pb2.LeaveMatchRequest(match_id=w.finished)),
    "GetView": _unary("matches", "GetView", lambda w: match_pb2.GetViewRequest(match_id=w.match)),
    "GetView(seat 0)": _unary("matches", "GetView", lambda w: match_pb2.GetViewRequest(match_id=w.match, seat=0)),
    "ListLegalActions": _unary(
        "matches", "ListLegalActions", lambda w: match_pb2.ListLegalActionsRequest(match_id=w.match, seat=0)
    ),
    "SubmitAction": _unary(
        "matches",
        "SubmitAction",
        lambda w: match_pb2.SubmitActionRequest(match_id=w.match, action_id="resign", seat=0, expected_version=10**9),
    ),
    "WatchMatch": _stream("matches", "WatchMatch", lambda w: match_pb2.WatchMatchRequest(match_id=w.match)),
    "PlaySeat": _stream(  # the stream's first update: the seat's, or the spectators' view for anyone else
        "matches",
        "PlaySeat",
        lambda w: iter([match_pb2.PlaySeatRequest(open=match_pb2.OpenSeatStream(match_id=w.match))]),
    ),
    "GetReplay": _unary("matches", "GetReplay", lambda w: match_pb2.GetReplayRequest(match_id=w.match)),
    # MatchmakingService
    "EnqueueTicket(for D)": _unary(
        "queue",
        "EnqueueTicket",
        lambda w: matchmaking_pb2.EnqueueTicketRequest(game=GAME, players=[w.dave], no_bots=True, pool=_pool()),
    ),
    "CancelTicket": _unary(
        "queue", "CancelTicket", lambda w: matchmaking_pb2.CancelTicketRequest(ticket_id=w.fresh_ticket())
    ),
    "GetTicket": _unary("queue", "GetTicket", lambda w: matchmaking_pb2.GetTicketRequest(ticket_id=w.fresh_ticket())),
    "WatchTickets": _stream(
        "queue", "WatchTickets", lambda w: matchmaking_pb2.WatchTicketsRequest(game=GAME), quiet_ok=True, wait=0.5
    ),
    "GetLeaderboard": _unary("queue", "GetLeaderboard", lambda w: matchmaking_pb2.GetLeaderboardRequest(game=GAME)),
    "GetRating": _unary("queue", "GetRating", lambda w: matchmaking_pb2.GetRatingRequest(game=GAME, account_id=w.dave)),
    # TournamentService
    "CreateTournament": _unary(
        "cups",
        "CreateTournament",
        lambda w: tournament_pb2.CreateTournamentRequest(
            name="probe", game=GAME, format=tournament_pb2.TOURNAMENT_FORMAT_SWISS
        ),
    ),
    "ListTournaments": _unary(
        "cups",
        "ListTournaments",
        lambda w: tournament_pb2.ListTournamentsRequest(status=tournament_pb2.TOURNAMENT_STATUS_REGISTRATION),
    ),
    "GetTournament": _unary(
        "cups", "GetTournament", lambda w: tournament_pb2.GetTournamentRequest(tournament_id=w.tournament)
    ),
    "ListPairings": _unary(
        "cups", "ListPairings", lambda w: tournament_pb2.ListPairingsRequest(tournament_id=w.tournament)
    ),
    "RegisterPlayer(D)": _unary(
        "cups",
        "RegisterPlayer",
        lambda w: tournament_pb2.RegisterPlayerRequest(tournament_id=w.tournament, account_id=w.dave),
    ),
    "CheckIn(D)": _unary(
        "cups", "CheckIn", lambda w: tournament_pb2.CheckInRequest(tournament_id=w.tournament, player=w.dave)
    ),
    "UnregisterPlayer(D)": _unary(
        "cups",
        "UnregisterPlayer",
        lambda w: tournament_pb2.UnregisterPlayerRequest(tournament_id=w.tournament, player=w.dave),
    ),
    "StartTournament": _unary(
        "cups", "StartTournament", lambda w: tournament_pb2.StartTournamentRequest(tournament_id=w.tournament)
    ),
    "GetStandings": _unary(
        "cups", "GetStandings", lambda w: tournament_pb2.GetStandingsRequest(tournament_id=w.tournament)
    ),
    "WatchStandings": _stream(
        "cups", "WatchStandings", lambda w: tournament_pb2.WatchStandingsRequest(tournament_id=w.tournament)
    ),
    "PauseTournament": _unary(
        "cups", "PauseTournament", lambda w: tournament_pb2.PauseTournamentRequest(tournament_id=w.tournament)
    ),
    "ResumeTournament": _unary(
        "cups", "ResumeTournament", lambda w: tournament_pb2.ResumeTournamentRequest(tournament_id=w.tournament)
    ),
    "DropPlayer(D)": _unary(
        "cups", "DropPlayer", lambda w: tournament_pb2.DropPlayerRequest(tournament_id=w.tournament, player=w.dave)
    ),
    "RepairRound": _unary(
        "cups", "RepairRound", lambda w: tournament_pb2.RepairRoundRequest(tournament_id=w.tournament)
    ),
    "AdjudicatePairing": _unary(
        "cups",
        "AdjudicatePairing",
        lambda w: tournament_pb2.AdjudicatePairingRequest(tournament_id=w.tournament, pairing_id="none", ranks=[1, 2]),
    ),
    # AuditService
    "ListAuditEvents": _unary(
        "audit", "ListAuditEvents", lambda w: audit_pb2.ListAuditEventsRequest(action="TournamentService.")
    ),
}


def _status(probe: Probe, w: World, client: Client) -> str:
    try:
        probe(w, client)
    except grpc.RpcError as exc:
        return str(exc.code().name)  # type: ignore[attr-defined]
    return OK


def test_every_public_rpc_has_a_probe_and_a_row() -> None:
    rpcs = {m.name for f in PUBLIC_FILES for s in f.services_by_name.values() for m in s.methods}
    assert {name.split("(")[0] for name in PROBES} == rpcs
    assert set(ACCESS) == set(PROBES)


def test_access_matrix(world: World) -> None:
    found = {
        name: tuple(_status(probe, world, world.clients[role]) for role in ROLES) for name, probe in PROBES.items()
    }
    wrong = {name: (found[name], ACCESS.get(name)) for name in PROBES if found[name] != ACCESS.get(name)}
    table = "\n".join(f"    {name!r}: {found[name]}," for name in PROBES)
    assert not wrong, f"found != expected for {sorted(wrong)}; roles {ROLES}; the matrix found:\n{table}"
