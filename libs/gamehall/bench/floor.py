"""The move path's floor: what the prescribed hops cost a move when there is nothing else to do.

ARCHITECTURE's move path has a public call into the gateway, a hop to the rules replica owning the match, an
append to the match log on JetStream with a compare-and-swap, and persistence projecting the log into SQL in
batches. `gamehall.bench.floor_node` runs those hops with no authentication, no engine, no views and a one-table
projection; this module plays the move-cost row's load through them (`matches` concurrent matches of 10 moves)
and reads CPU as that row does (every process but the load generator; the least of a few readings). Played over
each hop transport, it says how much of a move's cost is the shape of the path and how much is the platform's
own work: the move-cost row less this floor.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc

from gamehall.bench.baselines import BASELINE_RUNS, echo_server
from gamehall.bench.floor_node import HOPS
from gamehall.bench.move_path import SETTLE_SECONDS, echo_reading, per_move_less_idle, process_cpu
from gamehall.bench.rows import Row, of_readings
from gamehall.internal.v1 import diagnostics_pb2, diagnostics_pb2_grpc
from gamehall.launcher.nats import nats_child
from gamehall.launcher.ports import free_port
from gamehall.launcher.processes import Child, python_module, tcp_ready

MOVES_PER_MATCH = 10
"""As in the move-cost row: each bench match is 10 moves long."""
HOP_NAMES = {"stream": "gRPC play stream", "unary": "unary gRPC Play", "nats": "NATS request"}


@dataclass(frozen=True)
class FloorPath:
    """A running floor path: the edge's address, each process's pid, and the projection's SQLite file."""

    address: str
    pids: dict[str, int]
    db: Path


@contextlib.contextmanager
def floor_path(hop: str) -> Iterator[FloorPath]:
    """A floor path over `hop`, stopped on leaving."""
    with tempfile.TemporaryDirectory(prefix="gamehall-floor-") as tmp:
        data = Path(tmp)
        nats, url = nats_child(data)
        owner_port, edge_port = free_port(), free_port()
        ready, db = data / "projector-ready", data / "floor.db"
        node = "gamehall.bench.floor_node"
        children = [
            nats,
            Child(
                "owner", python_module(node, "owner", url, str(owner_port)), ready=tcp_ready("127.0.0.1", owner_port)
            ),
            Child("projector", python_module(node, "projector", url, str(db), str(ready)), ready=ready.exists),
            Child(
                "edge",
                python_module(node, "edge", url, str(edge_port), f"127.0.0.1:{owner_port}", hop),
                ready=tcp_ready("127.0.0.1", edge_port),
            ),
        ]
        try:
            for child in children:
                child.start()
                child.wait_ready(30)
            yield FloorPath(f"127.0.0.1:{edge_port}", {c.name: c.proc.pid for c in children if c.proc}, db)
        finally:
            for child in reversed(children):
                child.stop()


async def play(address: str, matches: int, tag: str) -> int:
    """Play `matches` concurrent matches of `MOVES_PER_MATCH` moves each, one move at a time per match."""
    async with grpc.aio.insecure_channel(address) as channel:
        stub = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel)

        async def one(match: int) -> None:
            for move in range(MOVES_PER_MATCH):
                action = f'{tag}-{match}:{{"kind": "play", "card": {move}}}'
                await stub.Echo(diagnostics_pb2.EchoRequest(payload=action.encode()), timeout=30)

        await asyncio.gather(*(one(m) for m in range(matches)))
    return matches * MOVES_PER_MATCH


def _reading(path: FloorPath, matches: int, tag: str) -> dict[str, float]:
    """Each process's CPU seconds per move over one table, counted as the move-cost row counts: from the first
    move until `SETTLE_SECONDS` after the last, less the idle CPU of that tail (read in a pause before)."""
    time.sleep(SETTLE_SECONDS)
    idle_from = {name: process_cpu(pid) for name, pid in path.pids.items()}
    time.sleep(1.0)
    before = {name: process_cpu(pid) for name, pid in path.pids.items()}
    moves = asyncio.run(play(path.address, matches, tag))
    time.sleep(SETTLE_SECONDS)
    after = {name: process_cpu(pid) for name, pid in path.pids.items()}
    return per_move_less_idle(idle_from, before, after, moves)


@dataclass(frozen=True)
class FloorCost:
    """One hop's floor: each process's CPU seconds per move in the least reading, every reading's total, and
    every reading's total divided by the echo CPU per call read just before it."""

    least: dict[str, float]
    totals: list[float]
    in_echo_calls: list[float]


def floor_costs(matches: int = 100, runs: int = BASELINE_RUNS) -> dict[str, FloorCost]:
    """Each hop's floor. The paths run side by side and take their readings in turn, each after an echo reading,
    so a slow spell of the machine falls on every hop alike and on the echo it is divided by."""
    readings: dict[str, list[tuple[dict[str, float], float]]] = {hop: [] for hop in HOPS}
    with contextlib.ExitStack() as stack:
        paths = {hop: stack.enter_context(floor_path(hop)) for hop in HOPS}
        echo = stack.enter_context(echo_server())
        asyncio.run(echo_reading(*echo, calls=300))  # warm, as the baseline's server is
        for path in paths.values():
            asyncio.run(play(path.address, 20, "warm"))
        for run in range(max(1, runs)):
            for hop, path in paths.items():
                beside = asyncio.run(echo_reading(*echo))
                readings[hop].append((_reading(path, matches, f"r{run}"), beside))
    return {
        hop: FloorCost(
            least=min((parts for parts, _ in found), key=lambda r: sum(r.values())),
            totals=[sum(parts.values()) for parts, _ in found],
            in_echo_calls=[sum(parts.values()) / beside for parts, beside in found],
        )
        for hop, found in readings.items()
    }


def floor_rows(matches: int = 100, quick: bool = False) -> list[Row]:
    """One row per hop transport, against the move-cost row's baseline (the echo CPU per call)."""
    rows = []
    for hop, cost in floor_costs(matches, runs=1 if quick else BASELINE_RUNS).items():
        parts = ", ".join(f"{name} {cpu * 1e6:,.0f}" for name, cpu in sorted(cost.least.items(), key=lambda i: -i[1]))
        beside = statistics.median(cost.in_echo_calls)
        rows.append(
            Row(
                f"move path floor, {HOP_NAMES[hop]} hop",
                sum(cost.least.values()) * 1e6,
                "µs cpu",
                baseline="echo cpu per call",
                extra=f"the move-cost row's load over the prescribed hops with no domain work; {parts}; "
                + of_readings("the least", [f"{t * 1e6:,.0f}" for t in cost.totals])
                + f"; {beside:.2f}x the echo read beside it"
                + (" (the median)" if len(cost.in_echo_calls) > 1 else ""),
            )
        )
    return rows
