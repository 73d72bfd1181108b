"""Matchmaking through the gateway: queue → a match with reserved seats → ratings updated exactly once;
bot fill after the wait; a killed matchmaking service loses no ticket and matches none twice, and a
killed persistence service loses none either."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading

import grpc
import nats
import pytest

from gamehall.runtime.bus import match_subject
from gamehall_sdk.v1 import match_pb2
from gamehall_sdk.v1 import matchmaking_pb2 as pb
from tests.e2e.client import Client
from tests.e2e.conftest import Running
from tests.e2e.helpers import play_to_end
from tests.e2e.mm_helpers import matchmaking, operator, wait_for

GAME = "high-card"
MATCHED = pb.TICKET_STATUS_MATCHED


def _enqueue(client: Client, **kwargs) -> pb.Ticket:  # type: ignore[no-untyped-def]
    request = pb.EnqueueTicketRequest(game=GAME, **kwargs)
    return matchmaking(client).EnqueueTicket(request, metadata=client.metadata, timeout=20).ticket


def _ticket(client: Client, ticket_id: str) -> pb.Ticket:
    return matchmaking(client).GetTicket(pb.GetTicketRequest(ticket_id=ticket_id), metadata=client.metadata).ticket


def _matched(client: Client, ticket_id: str) -> pb.Ticket | None:
    ticket = _ticket(client, ticket_id)
    return ticket if ticket.status == MATCHED else None


def _rating(client: Client, account_id: str) -> pb.Rating:
    request = pb.GetRatingRequest(game=GAME, account_id=account_id)
    return matchmaking(client).GetRating(request, metadata=client.metadata).rating


def _finished_payload(running: Running, match_id: str) -> bytes:
    async def fetch() -> bytes:
        nc = await nats.connect(running.platform.nats_url)
        try:
            msg = await nc.jetstream().get_last_msg("GAMEHALL_MATCHES", match_subject(match_id, "finished"))
            return bytes(msg.data)
        finally:
            await nc.close()

    return asyncio.run(fetch())


def _republish(running: Running, subject: str, payload: bytes, msg_id: str) -> None:
    async def send() -> None:
        nc = await nats.connect(running.platform.nats_url)
        try:
            await nc.jetstream().publish(subject, payload, headers={"Nats-Msg-Id": msg_id})
        finally:
            await nc.close()

    asyncio.run(send())


def _consumer_idle(running: Running) -> bool:
    async def check() -> bool:
        nc = await nats.connect(running.platform.nats_url)
        try:
            info = await nc.jetstream().consumer_info("GAMEHALL_MATCHES", "matchmaking-finished")
            return info.num_pending == 0 and info.num_ack_pending == 0
        finally:
            await nc.close()

    return asyncio.run(check())


def test_two_players_get_a_match_with_their_seats_held_and_are_rated_once(platform: Running) -> None:
    """The matched ticket names the match and the seat, already held for the player (issue 39: the first call
    used to fail with "seat 0 is not yours" until the player joined by hand); the match is running."""
    alice, bob = platform.player(), platform.player()
    seen: list[pb.Ticket] = []
    stream = matchmaking(alice).WatchTickets(pb.WatchTicketsRequest(game=GAME), metadata=alice.metadata, timeout=60)

    def watch() -> None:
        for message in stream:
            seen.append(message.ticket)
            if message.ticket.status == MATCHED:
                return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    first, second = _enqueue(alice), _enqueue(bob)
    assert first.status == pb.TICKET_STATUS_QUEUED and list(first.players) == [alice.account.id]
    a = wait_for(lambda: _matched(alice, first.id), what="alice's match")
    b = wait_for(lambda: _matched(bob, second.id), what="bob's match")
    assert a.match_id == b.match_id
    match = alice.match(a.match_id)
    held = {s.seat: s.account_id for s in match.seats}
    assert {s.kind for s in match.seats} == {match_pb2.SEAT_KIND_HUMAN}
    assert held == {a.seats[0]: alice.account.id, b.seats[0]: bob.account.id}
    assert match.status == match_pb2.MATCH_STATUS_RUNNING
    assert alice.legal(a.match_id).version == 0, "the seat is the player's from the first call"
    watcher.join(30)
    stream.cancel()
    assert seen and seen[-1].status == MATCHED and seen[-1].match_id == a.match_id
    # A watch opened after the match was made still shows it (the caller's tickets "now" include
    # recently closed ones), so a client that enqueues first and watches second misses nothing.
    late = matchmaking(bob).WatchTickets(pb.WatchTicketsRequest(game=GAME), metadata=bob.metadata, timeout=30)
    shown = next(iter(late)).ticket
    late.cancel()
    assert (shown.id, shown.status, shown.match_id) == (second.id, MATCHED, a.match_id)

    before = _rating(alice, alice.account.id)
    assert alice.join(a.match_id).seat == a.seats[0], "a client that still joins by hand gets its seat"
    play_to_end([alice, bob], a.match_id, random.Random(7))
    rated_a = wait_for(lambda: (r := _rating(alice, alice.account.id)).matches == 1 and r, what="alice rated")
    rated_b = wait_for(lambda: (r := _rating(bob, bob.account.id)).matches == 1 and r, what="bob rated")
    outcome = alice.match(a.match_id).outcome
    mine = outcome.ranks[a.seats[0]]
    theirs = outcome.ranks[b.seats[0]]
    if mine < theirs:
        assert rated_a.mu > before.mu > rated_b.mu
    elif mine > theirs:
        assert rated_a.mu < before.mu < rated_b.mu
    assert rated_a.sigma < before.sigma

    # The finished event delivered again (a new msg id, so JetStream keeps it): nothing moves.
    payload = _finished_payload(platform, a.match_id)
    _republish(platform, match_subject(a.match_id, "finished"), payload, f"{a.match_id}:replayed")
    wait_for(lambda: _consumer_idle(platform), what="the consumer to take the replay")
    assert _rating(alice, alice.account.id) == rated_a
    assert _rating(bob, bob.account.id) == rated_b
    board = matchmaking(alice).GetLeaderboard(
        pb.GetLeaderboardRequest(game=GAME, page_size=1000), metadata=alice.metadata
    )
    ranked = {e.account_id: e for e in board.entries}
    assert ranked[alice.account.id].matches == 1 and ranked[bob.account.id].matches == 1


def test_a_lone_player_gets_bots_after_the_wait(platform: Running) -> None:
    carol = platform.player()
    ticket = _enqueue(carol)
    matched = wait_for(lambda: _matched(carol, ticket.id), timeout=40, what="a bot-filled match")
    match = carol.match(matched.match_id)
    kinds = sorted(s.kind for s in match.seats)
    assert kinds == [match_pb2.SEAT_KIND_HUMAN, match_pb2.SEAT_KIND_BOT]
    assert match.seats[matched.seats[0]].account_id == carol.account.id


def test_a_second_ticket_in_the_same_game_is_refused_and_cancel_works(platform: Running) -> None:
    dave = platform.player()
    ticket = _enqueue(dave, no_bots=True)
    try:
        _enqueue(dave)
    except Exception as exc:  # grpc.RpcError
        assert exc.code().name == "ALREADY_EXISTS"  # type: ignore[attr-defined]
    else:
        raise AssertionError("a second ticket in the same game was accepted")
    cancelled = matchmaking(dave).CancelTicket(pb.CancelTicketRequest(ticket_id=ticket.id), metadata=dave.metadata)
    assert cancelled.ticket.status == pb.TICKET_STATUS_CANCELLED
    again = _enqueue(dave, no_bots=True)  # free to queue again
    matchmaking(dave).CancelTicket(pb.CancelTicketRequest(ticket_id=again.id), metadata=dave.metadata)


def test_killing_matchmaking_loses_no_ticket_and_matches_none_twice(platform: Running) -> None:
    erin, frank = platform.player(), platform.player()
    waiting = _enqueue(erin, no_bots=True)
    platform.platform.restart("matchmaking")  # SIGKILL
    still = wait_for(lambda: _ticket(erin, waiting.id), what="the ticket after the restart")
    assert still.status == pb.TICKET_STATUS_QUEUED
    boss = operator(platform)
    on_behalf = _enqueue(boss, players=[frank.account.id], no_bots=True)  # the server queues frank
    assert on_behalf.submitted_by == boss.account.id
    a = wait_for(lambda: _matched(erin, waiting.id), what="erin's match")
    b = wait_for(lambda: _matched(frank, on_behalf.id), what="frank's match")
    assert a.match_id == b.match_id
    with sqlite3.connect(platform.data_dir / "gamehall.db") as db:
        rows = db.execute(
            "SELECT DISTINCT match_id FROM seats WHERE account_id IN (?, ?)", (erin.account.id, frank.account.id)
        ).fetchall()
    assert rows == [(a.match_id,)]
    # issue 39: each matchmade seat is taken for its player, so the full match has started
    assert erin.match(a.match_id).status == match_pb2.MATCH_STATUS_RUNNING


def test_killing_persistence_loses_no_ticket_and_matching_resumes(platform: Running) -> None:
    """Tickets are rows in the database now: a SIGKILL of persistence (the one writer) loses none, and the
    matchmaking service, which keeps no state, carries on matching once persistence is back."""
    hana, ivan = platform.player(), platform.player()
    waiting = _enqueue(hana, no_bots=True)
    platform.platform.restart("persistence")  # SIGKILL
    still = wait_for(lambda: _ticket(hana, waiting.id), what="the ticket after the restart")
    assert still.status == pb.TICKET_STATUS_QUEUED
    second = wait_for(lambda: _enqueue(ivan, no_bots=True), what="a ticket once persistence is back")
    a = wait_for(lambda: _matched(hana, waiting.id), what="hana's match")
    b = wait_for(lambda: _matched(ivan, second.id), what="ivan's match")
    assert a.match_id == b.match_id


def test_the_gateway_checks_callers_and_operator_only_party_tickets(platform: Running) -> None:
    stranger, gina = platform.client(), platform.player()
    with pytest.raises(grpc.RpcError) as anonymous:
        matchmaking(stranger).GetRating(pb.GetRatingRequest(game=GAME), timeout=10)
    assert anonymous.value.code() == grpc.StatusCode.UNAUTHENTICATED
    with pytest.raises(grpc.RpcError) as party:
        _enqueue(gina, players=[gina.account.id, platform.player().account.id])
    assert party.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.RpcError) as ghost:
        _enqueue(operator(platform), players=["no-such-account"])
    assert ghost.value.code() == grpc.StatusCode.NOT_FOUND


def test_create_match_with_a_request_id_is_idempotent(platform: Running) -> None:
    host = platform.player()
    request = match_pb2.CreateMatchRequest(game=GAME, request_id="once", seats=[match_pb2.SeatSpec(open=True)])
    first = host.call("CreateMatch", request).match
    again = host.call("CreateMatch", request).match
    assert first.id == again.id
    other = platform.player().call("CreateMatch", request).match  # the key is per caller
    assert other.id != first.id
