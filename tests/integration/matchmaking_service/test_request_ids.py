"""AIP-155 request ids on the matchmaking service's mutations (issue 39), through the real persistence service:
CreateTournament, RegisterPlayer (an account and a bot entrant), AdjudicatePairing and EnqueueTicket each answer a
retry with the same request id with the first result, changing nothing, and refuse the same id with another
request (ALREADY_EXISTS); ids are the caller's own (another caller's same id is its own request)."""

from __future__ import annotations

import time
from typing import Any

import grpc
import pytest

import gamehall_services.matchmaking.errors  # noqa: F401 - registers the library errors' statuses
from gamehall.auth.tokens import Claims
from gamehall.matchmaking import MatchPolicy
from gamehall.runtime.errors import Mapping, lookup
from gamehall_sdk.v1 import common_pb2
from gamehall_sdk.v1 import matchmaking_pb2 as mm
from gamehall_sdk.v1 import tournament_pb2 as pb
from gamehall_services.matchmaking import tickets_servicer, tournament_servicer
from gamehall_services.matchmaking.queues import Queues
from gamehall_services.matchmaking.ratings import Ratings
from gamehall_services.matchmaking.store_client import MatchmakingStore
from gamehall_services.matchmaking.tickets_servicer import MatchmakingServicer
from gamehall_services.matchmaking.tournament_servicer import TournamentServicer
from gamehall_services.matchmaking.tournaments import Tournaments
from tests.integration.matchmaking_service.fakes import FakeCreator

pytestmark = pytest.mark.integration
GAME, MODE = "high-card", "duel"


def _claims(account: str, role: str = "player") -> Claims:
    now = int(time.time())
    return Claims(sub=account, name=account, role=role, iat=now, exp=now + 3600, iss="test", jti=account)  # type: ignore[arg-type]


class Context:
    """What the servicers read of a call: the caller (their `claims_of` is patched to return it)."""

    def __init__(self, claims: Claims) -> None:
        self.claims = claims


@pytest.fixture(autouse=True)
def _callers(monkeypatch: pytest.MonkeyPatch) -> None:
    async def claims_of(context: Context, principals: Any) -> Claims:
        return context.claims

    monkeypatch.setattr(tournament_servicer, "claims_of", claims_of)
    monkeypatch.setattr(tickets_servicer, "claims_of", claims_of)
    monkeypatch.setattr(tournament_servicer, "reader_of", claims_of)  # the reads anonymous visitors may make
    monkeypatch.setattr(tickets_servicer, "reader_of", claims_of)


OPERATOR, OTHER_OPERATOR = Context(_claims("op", "operator")), Context(_claims("op2", "operator"))
ALICE, BOB = Context(_claims("alice")), Context(_claims("bob"))


def _tournaments(store: MatchmakingStore) -> TournamentServicer:
    book = Tournaments(store, FakeCreator())  # type: ignore[arg-type]
    return TournamentServicer(book, Ratings(store), principals=None)  # type: ignore[arg-type]


def _create(request_id: str, name: str = "cup") -> pb.CreateTournamentRequest:
    return pb.CreateTournamentRequest(
        name=name, game=GAME, mode=MODE, format=pb.TOURNAMENT_FORMAT_ROUND_ROBIN, seats=2, request_id=request_id
    )


async def _refused(call: Any) -> Mapping:
    """How the service's interceptor would answer the call's error (its status, reason and field)."""
    with pytest.raises(Exception) as caught:
        await call
    found = lookup(caught.value)
    assert found is not None, f"unmapped: {caught.value!r}"
    return found


async def test_create_tournament_retried_returns_the_first_tournament(store: MatchmakingStore) -> None:
    service = _tournaments(store)
    first = (await service.CreateTournament(_create("r-1"), OPERATOR)).tournament
    again = (await service.CreateTournament(_create("r-1"), OPERATOR)).tournament
    assert again.id == first.id and again.name == "cup"
    assert len((await service.ListTournaments(pb.ListTournamentsRequest(), OPERATOR)).tournaments) == 1
    reused = await _refused(service.CreateTournament(_create("r-1", name="another cup"), OPERATOR))
    assert (reused.code, reused.reason, reused.field) == (
        grpc.StatusCode.ALREADY_EXISTS,
        common_pb2.ERROR_REASON_ALREADY_EXISTS,
        "request_id",
    )
    theirs = (await service.CreateTournament(_create("r-1"), OTHER_OPERATOR)).tournament
    assert theirs.id != first.id, "request ids are scoped to the caller"
    without = [(await service.CreateTournament(_create(""), OPERATOR)).tournament.id for _ in range(2)]
    assert len(set(without)) == 2, "no request id: each call is a new tournament"


async def test_register_player_retried_registers_once(store: MatchmakingStore) -> None:
    service = _tournaments(store)
    tournament = (await service.CreateTournament(_create("t"), OPERATOR)).tournament
    ask = pb.RegisterPlayerRequest(tournament_id=tournament.id, request_id="reg-1")
    first = await service.RegisterPlayer(ask, ALICE)
    again = await service.RegisterPlayer(ask, ALICE)
    assert (first.player, again.player) == ("alice", "alice")
    assert again.tournament.revision == first.tournament.revision, "the retry wrote nothing"
    elsewhere = pb.RegisterPlayerRequest(tournament_id="tn-x", request_id="reg-1")
    other = await _refused(service.RegisterPlayer(elsewhere, ALICE))
    assert other.code == grpc.StatusCode.NOT_FOUND  # another tournament: not this record
    plain = await _refused(service.RegisterPlayer(pb.RegisterPlayerRequest(tournament_id=tournament.id), ALICE))
    assert plain.code == grpc.StatusCode.ALREADY_EXISTS, "without the id it is a second registration"

    bot = pb.RegisterPlayerRequest(
        tournament_id=tournament.id, bot_level=common_pb2.BOT_DIFFICULTY_EASY, request_id="bot-1"
    )
    made = await service.RegisterPlayer(bot, OPERATOR)
    retried = await service.RegisterPlayer(bot, OPERATOR)
    assert made.player == retried.player == "bot-easy-1"
    assert len(retried.tournament.entrants) == len(made.tournament.entrants) == 2, "one bot entrant, not two"
    hard = pb.RegisterPlayerRequest(tournament_id=tournament.id, bot="hard", request_id="bot-1")
    assert (await _refused(service.RegisterPlayer(hard, OPERATOR))).code == grpc.StatusCode.ALREADY_EXISTS
    legacy = await service.RegisterPlayer(pb.RegisterPlayerRequest(tournament_id=tournament.id, bot="hard"), OPERATOR)
    assert legacy.player == "bot-hard-2", "the deprecated string field still works"


async def test_adjudicate_pairing_retried_records_one_result(store: MatchmakingStore) -> None:
    service = _tournaments(store)
    tournament = (await service.CreateTournament(_create("t"), OPERATOR)).tournament
    for who in (ALICE, BOB):
        await service.RegisterPlayer(pb.RegisterPlayerRequest(tournament_id=tournament.id), who)
    await service.StartTournament(pb.StartTournamentRequest(tournament_id=tournament.id), OPERATOR)
    pairing = (await service.ListPairings(pb.ListPairingsRequest(tournament_id=tournament.id), OPERATOR)).pairings[0]
    ask = pb.AdjudicatePairingRequest(
        tournament_id=tournament.id, pairing_id=pairing.id, ranks=[1, 2], request_id="adj-1"
    )
    first = (await service.AdjudicatePairing(ask, OPERATOR)).tournament
    again = (await service.AdjudicatePairing(ask, OPERATOR)).tournament
    assert again.revision == first.revision, "the retry wrote nothing"
    flipped = pb.AdjudicatePairingRequest(
        tournament_id=tournament.id, pairing_id=pairing.id, ranks=[2, 1], request_id="adj-1"
    )
    assert (await _refused(service.AdjudicatePairing(flipped, OPERATOR))).code == grpc.StatusCode.ALREADY_EXISTS
    standings = (await service.GetStandings(pb.GetStandingsRequest(tournament_id=tournament.id), OPERATOR)).standings
    assert standings.rows[0].player == "alice", "the first result stands"


async def test_enqueue_ticket_retried_returns_the_first_ticket(store: MatchmakingStore) -> None:
    queues = Queues(store, Ratings(store), FakeCreator(), MatchPolicy())  # type: ignore[arg-type]
    service = MatchmakingServicer(queues, Ratings(store), principals=None)  # type: ignore[arg-type]
    ask = mm.EnqueueTicketRequest(game=GAME, no_bots=True, pool="p", request_id="q-1")
    first = (await service.EnqueueTicket(ask, ALICE)).ticket
    again = (await service.EnqueueTicket(ask, ALICE)).ticket
    assert again.id == first.id and again.status == mm.TICKET_STATUS_QUEUED
    other_pool = mm.EnqueueTicketRequest(game=GAME, no_bots=True, pool="q", request_id="q-1")
    assert (await _refused(service.EnqueueTicket(other_pool, ALICE))).code == grpc.StatusCode.ALREADY_EXISTS
    plain = await _refused(service.EnqueueTicket(mm.EnqueueTicketRequest(game=GAME, no_bots=True, pool="p"), ALICE))
    assert plain.code == grpc.StatusCode.ALREADY_EXISTS, "without the id: a second ticket, refused (one per game)"
    bobs = (await service.EnqueueTicket(ask, BOB)).ticket
    assert bobs.id != first.id, "the same id from another caller is that caller's own request"
    await service.CancelTicket(mm.CancelTicketRequest(ticket_id=first.id), ALICE)
    after = (await service.EnqueueTicket(ask, ALICE)).ticket
    assert (after.id, after.status) == (first.id, mm.TICKET_STATUS_CANCELLED), "the first result, as it is now"


async def test_a_page_token_is_its_callers_and_an_edited_one_is_refused(store: MatchmakingStore) -> None:
    """Issue 39: page tokens are signed and bound to the query and the caller."""
    service = _tournaments(store)
    for n in range(3):
        await service.CreateTournament(_create(f"cup-{n}"), OPERATOR)
    first = await service.ListTournaments(pb.ListTournamentsRequest(page_size=1), OPERATOR)
    token = first.next_page_token
    assert token
    second = await service.ListTournaments(pb.ListTournamentsRequest(page_size=1, page_token=token), OPERATOR)
    assert second.tournaments[0].id != first.tournaments[0].id
    for caller, forged in ((OTHER_OPERATOR, token), (OPERATOR, token[:-2] + ("AA" if token[-2:] != "AA" else "BB"))):
        again = pb.ListTournamentsRequest(page_size=1, page_token=forged)
        refused = await _refused(service.ListTournaments(again, caller))
        assert (refused.code, refused.reason) == (
            grpc.StatusCode.INVALID_ARGUMENT,
            common_pb2.ERROR_REASON_INVALID_PAGE_TOKEN,
        )
