"""Matchmaking's storage path: tickets through persistence's MatchmakingStoreService, over real gRPC.

The platform runs as processes (`bench_platform`, embedded SQLite); tickets go to a game no
rules host serves, so the running matchmaking service leaves them alone and the timed work is
exactly the store's: enqueue (one transaction each, 32 callers), reading the whole queue back,
and claiming every match one pass proposes.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
import uuid

import grpc
import msgspec

from gamehall.bench.e2e import bench_platform
from gamehall.bench.rows import Row
from gamehall.internal.v1 import matchmaking_store_pb2 as pb
from gamehall.internal.v1 import matchmaking_store_pb2_grpc
from gamehall.matchmaking import Constraints, MatchPolicy, MatchShape, Member, Rating, Ticket, match_pass

GAME = "bench-store"
MODE = "duel"
CONCURRENCY = 32
PAGE = 5000
CLAIM_BATCH = 500


def _ticket(rng: random.Random, now: float) -> Ticket:
    player = f"bench-{uuid.uuid4().hex}"
    rating = Rating(rng.gauss(25.0, 4.0), rng.uniform(1.0, 8.3), rng.randrange(0, 50))
    return Ticket(f"tk-{uuid.uuid4().hex}", GAME, MODE, (Member(player, rating),), now, Constraints())


async def _enqueue(stub: matchmaking_store_pb2_grpc.MatchmakingStoreServiceStub, count: int) -> list[float]:
    rng = random.Random(7)
    latencies: list[float] = []
    encode = msgspec.msgpack.Encoder().encode
    tickets = [_ticket(rng, 1_000.0 + k * 0.001) for k in range(count)]
    queue = iter(tickets)

    async def worker() -> None:
        for ticket in queue:
            request = pb.EnqueueTicketRequest(
                id=ticket.id,
                game=GAME,
                mode=MODE,
                ticket=encode(ticket),
                players=list(ticket.players()),
                submitted_by=ticket.members[0].player,
                enqueued_at=ticket.enqueued_at,
            )
            start = time.perf_counter()
            await stub.EnqueueTicket(request, timeout=30)
            latencies.append(time.perf_counter() - start)

    await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
    return latencies


async def _read_all(stub: matchmaking_store_pb2_grpc.MatchmakingStoreServiceStub) -> list[Ticket]:
    decode = msgspec.msgpack.Decoder(Ticket).decode
    out: list[Ticket] = []
    after_id, after_at = "", 0.0
    while True:
        request = pb.ListQueuedTicketsRequest(
            game=GAME, mode=MODE, after_id=after_id, after_enqueued_at=after_at, limit=PAGE
        )
        page = (await stub.ListQueuedTickets(request, timeout=60)).tickets
        out += [decode(t.ticket) for t in page]
        if len(page) < PAGE:
            return out
        after_id, after_at = page[-1].id, page[-1].enqueued_at


async def _claim(stub: matchmaking_store_pb2_grpc.MatchmakingStoreServiceStub, tickets: list[Ticket]) -> int:
    encode = msgspec.msgpack.Encoder().encode
    matches = match_pass(tickets, MatchShape(2), 2_000.0, MatchPolicy()).matches
    claimed = 0
    for start in range(0, len(matches), CLAIM_BATCH):
        proposals = [
            pb.ProposedMatch(
                request_id=f"bench-{uuid.uuid4().hex}", mode=MODE, match=encode(m), ticket_ids=list(m.tickets)
            )
            for m in matches[start : start + CLAIM_BATCH]
        ]
        reply = await stub.ClaimTickets(pb.ClaimTicketsRequest(game=GAME, proposals=proposals), timeout=120)
        claimed += len(reply.claimed_request_ids)
    return claimed


async def _measure(address: str, queued: int) -> tuple[float, list[float], float, float, int]:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = matchmaking_store_pb2_grpc.MatchmakingStoreServiceStub(channel)
        start = time.perf_counter()
        latencies = await _enqueue(stub, queued)
        enqueue_rate = queued / (time.perf_counter() - start)
        start = time.perf_counter()
        tickets = await _read_all(stub)
        read_ms = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        claimed = await _claim(stub, tickets)
        claim_ms = (time.perf_counter() - start) * 1000
    return enqueue_rate, latencies, read_ms, claim_ms, claimed


def matchmaking_store_rows(queued: int = 20_000) -> list[Row]:
    with bench_platform() as platform:
        rate, latencies, read_ms, claim_ms, claimed = asyncio.run(
            _measure(platform.service("persistence").address, queued)
        )
    p99 = statistics.quantiles(latencies, n=100)[98] * 1000
    return [
        Row(
            f"matchmaking store: enqueue {queued:,} tickets (SQLite, {CONCURRENCY} callers)",
            rate,
            "tickets/s",
            baseline="echo baseline",
            extra=f"p50 {statistics.median(latencies) * 1000:.1f} ms, p99 {p99:.1f} ms; cost independent of queue size",
        ),
        Row(
            f"matchmaking store: read {queued:,} queued tickets",
            read_ms,
            "ms",
            baseline="cpu baseline",
            extra=f"pages of {PAGE:,}",
        ),
        Row(
            f"matchmaking store: claim one pass's {claimed:,} matches",
            claim_ms,
            "ms",
            baseline="cpu baseline",
            extra=f"{CLAIM_BATCH} per transaction",
        ),
    ]
