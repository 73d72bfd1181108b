"""One process of the move path's floor (gamehall.bench.floor): the prescribed hops with no domain work.

`python -m gamehall.bench.floor_node ROLE NATS_URL ...`:
- `owner PORT`: a rules replica with nothing to judge. Each Play appends the request to its match's subject
  on JetStream with the compare-and-swap headers the match log sends (gamehall.runtime.matchlog) and answers.
  It takes Play on the play stream, as a unary call of its own (`UNARY_PLAY`: the platform has no unary Play,
  this measures what one would cost), and as a NATS request on `FLOOR_PLAY`.
- `edge PORT OWNER HOP`: a gateway with nothing to check: the public call (the diagnostics echo, whose payload
  is `<match id>:<action>`) is forwarded to the owner over HOP (`stream`, `unary` or `nats`).
- `projector DB READY`: persistence with nothing to project but the entries: batches pulled from a durable
  consumer, one SQLite transaction each, each entry acked on its own, the projector's linger between short
  batches. It touches READY once its consumer exists.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import grpc
import nats
from nats.js import api

from gamehall.internal.v1 import diagnostics_pb2, diagnostics_pb2_grpc, live_pb2, live_pb2_grpc
from gamehall.runtime import play_stream
from gamehall.runtime.interceptor import CarriedCalls
from gamehall.runtime.logging import configure_logging
from gamehall.runtime.matchlog import EXPECTED_SEQ, EXPECTED_SEQ_SUBJECT, successor_id

STREAM, SUBJECTS = "FLOORLOG", "floor.log.>"
FLOOR_PLAY = "floor.play"
HOPS = ("stream", "unary", "nats")
UNARY_PLAY = "/gamehall.bench.Floor/Play"
"""The floor owner's unary Play (a generic handler over LiveMatchService's messages: no proto declares it)."""
BATCH, LINGER_SECONDS = 256, 0.05
"""services/persistence/projector.py's batch size and linger."""
DEADLINE = 10.0


async def owner(nats_url: str, port: int) -> None:
    nc = await nats.connect(nats_url)
    js = nc.jetstream()
    await js.add_stream(api.StreamConfig(name=STREAM, subjects=[SUBJECTS], storage=api.StorageType.FILE))
    heads: dict[str, int] = {}

    async def play(request: live_pb2.PlayRequest) -> live_pb2.PlayResponse:
        subject = f"floor.log.{request.match_id}"
        expected = heads.get(request.match_id, 0)
        headers = {
            EXPECTED_SEQ: str(expected),
            EXPECTED_SEQ_SUBJECT: subject,
            "Nats-Msg-Id": successor_id(request.match_id, expected),
        }
        ack = await js.publish(subject, request.SerializeToString(), stream=STREAM, headers=headers)
        heads[request.match_id] = ack.seq
        return live_pb2.PlayResponse()

    carried = CarriedCalls("floor-owner", "/floor/Play")

    async def unary(request: live_pb2.PlayRequest, context: Any) -> live_pb2.PlayResponse:
        return await play(request)

    class Live(live_pb2_grpc.LiveMatchServiceServicer):
        async def PlayStream(
            self, requests: AsyncIterator[live_pb2.PlayStreamRequest], context: Any
        ) -> AsyncIterator[live_pb2.PlayStreamResponse]:
            async for answers in play_stream.serve(requests, play, carried):
                yield answers

    running: set[asyncio.Task[None]] = set()

    async def answer(msg: Any) -> None:
        await msg.respond((await play(live_pb2.PlayRequest.FromString(msg.data))).SerializeToString())

    async def on_request(msg: Any) -> None:  # each on its own task, as the stream's calls are
        task = asyncio.create_task(answer(msg))
        running.add(task)
        task.add_done_callback(running.discard)

    await nc.subscribe(FLOOR_PLAY, cb=on_request)
    server = grpc.aio.server()
    live_pb2_grpc.add_LiveMatchServiceServicer_to_server(Live(), server)
    handler = grpc.unary_unary_rpc_method_handler(
        unary,
        request_deserializer=live_pb2.PlayRequest.FromString,
        response_serializer=live_pb2.PlayResponse.SerializeToString,
    )
    service, method = UNARY_PLAY.strip("/").split("/")
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, {method: handler}),))
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    await server.wait_for_termination()


async def edge(nats_url: str, port: int, owner_address: str, hop: str) -> None:
    if hop not in HOPS:
        raise SystemExit(f"hop is one of {HOPS}, not {hop!r}")
    nc = await nats.connect(nats_url)
    channel = grpc.aio.insecure_channel(owner_address)
    live = live_pb2_grpc.LiveMatchServiceStub(channel)
    plays = play_stream.PlayStream(live)
    unary = channel.unary_unary(
        UNARY_PLAY,
        request_serializer=live_pb2.PlayRequest.SerializeToString,
        response_deserializer=live_pb2.PlayResponse.FromString,
    )

    class Edge(diagnostics_pb2_grpc.DiagnosticsServiceServicer):
        async def Echo(self, request: diagnostics_pb2.EchoRequest, context: Any) -> diagnostics_pb2.EchoResponse:
            match_id, _, action = request.payload.decode().partition(":")
            forwarded = live_pb2.PlayRequest(match_id=match_id, action_json=action, request_id=match_id)
            if hop == "stream":
                await plays.play(forwarded, DEADLINE)
            elif hop == "unary":
                await unary(forwarded, timeout=DEADLINE)
            else:
                await nc.request(FLOOR_PLAY, forwarded.SerializeToString(), timeout=DEADLINE)
            return diagnostics_pb2.EchoResponse(payload=b"ok")

    server = grpc.aio.server()
    diagnostics_pb2_grpc.add_DiagnosticsServiceServicer_to_server(Edge(), server)
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    await server.wait_for_termination()


async def projector(nats_url: str, db_path: str, ready: str) -> None:
    nc = await nats.connect(nats_url)
    js = nc.jetstream()
    await js.add_stream(api.StreamConfig(name=STREAM, subjects=[SUBJECTS], storage=api.StorageType.FILE))
    config = api.ConsumerConfig(ack_policy=api.AckPolicy.EXPLICIT, ack_wait=10.0)
    sub = await js.pull_subscribe(SUBJECTS, durable="floor-projector", stream=STREAM, config=config)
    async with aiosqlite.connect(db_path) as db:
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("CREATE TABLE IF NOT EXISTS log (subject TEXT, seq INTEGER, entry BLOB, PRIMARY KEY (seq))")
        Path(ready).touch()
        while True:
            try:
                batch = await sub.fetch(BATCH, timeout=1.0)
            except (TimeoutError, nats.errors.TimeoutError):
                continue
            rows = [(m.subject, m.metadata.sequence.stream, m.data) for m in batch]
            await db.executemany("INSERT OR IGNORE INTO log VALUES (?, ?, ?)", rows)
            await db.commit()
            for m in batch:
                await m.ack()
            if len(batch) < BATCH:
                await asyncio.sleep(LINGER_SECONDS)


def main(argv: list[str]) -> None:
    configure_logging("bench-floor", "json", "warning")
    role, nats_url, *rest = argv
    if role == "owner":
        asyncio.run(owner(nats_url, int(rest[0])))
    elif role == "edge":
        asyncio.run(edge(nats_url, int(rest[0]), rest[1], rest[2]))
    elif role == "projector":
        asyncio.run(projector(nats_url, rest[0], rest[1]))
    else:
        raise SystemExit(f"no floor role {role!r}: owner, edge or projector")


if __name__ == "__main__":
    main(sys.argv[1:])
