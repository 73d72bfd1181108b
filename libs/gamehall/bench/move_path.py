"""What a move costs the whole platform, and what running matches cost when nobody moves.

CPU is read from /proc for every platform process (nats-server and every service; the load
generator, this process, is left out) and compared with the CPU of one echo call through the
harness (client plus server) measured in the same run, so the ratio survives a slower machine:
- move cost: platform CPU seconds per SubmitAction, counting the work moves leave behind (projection, finished
  events, ratings), / CPU seconds per echo call (goal <= 3), each the least of a few readings, with each
  process's part; and each reading divided by an echo reading taken just before it (the median), since the
  machine's speed drifts by half within minutes;
- idle cost: platform CPU per second with 1,000 running matches and no moves / the same with 10;
- watchers: extra platform CPU per move for each spectator watching, and bytes stored per action;
- open-loop latency: SubmitAction p50/p99 under a paced load at half the measured maximum rate,
  as multiples of the unloaded echo p50 (goal p99 <= 15x);
- paced cost: platform CPU per move at that pace and at 20 moves/s, each against an echo call made at the same
  pace (a process woken for each call pays far more per call than one kept busy, moves and echoes alike).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import duration_pb2

from gamehall.bench.baselines import BASELINE_RUNS, _echo_load, collector_paused, echo_server
from gamehall.bench.e2e import bench_platform
from gamehall.bench.rows import Row, of_readings
from gamehall.internal.v1 import diagnostics_pb2, diagnostics_pb2_grpc, live_pb2
from gamehall.launcher.platform import Platform
from gamehall.runtime.matchlog import wait_projected_at
from gamehall.runtime.rules_replicas import RulesReplicas
from gamehall_sdk.v1 import auth_pb2, auth_pb2_grpc, common_pb2, match_pb2, match_pb2_grpc

TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a live process (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def platform_processes(platform: Platform) -> dict[str, int]:
    """Each platform process's pid by name: every service, and nats-server."""
    named = [(s.definition.name, s.child) for s in platform.services] + [("nats-server", platform.nats)]
    return {name: c.proc.pid for name, c in named if c is not None and c.proc is not None}


def cpu_by_process(platform: Platform) -> dict[str, float]:
    return {name: process_cpu(pid) for name, pid in platform_processes(platform).items()}


def platform_cpu(platform: Platform) -> float:
    return sum(cpu_by_process(platform).values())


async def pace(start: float, n: int, rate: float) -> None:
    """Sleep until the `n`th of calls started `rate` per second from `start` (a perf_counter value) is due."""
    delay = start + n / rate - time.perf_counter()
    if delay > 0:
        await asyncio.sleep(delay)


def echo_cpu_per_call(calls: int = 3000, concurrency: int = 32, runs: int = BASELINE_RUNS) -> float:
    """CPU seconds (echo server process + this client) per echo call: the least of `runs` runs."""
    with echo_server() as (address, pid):
        asyncio.run(_echo_load(address, concurrency, 300))
        return min(asyncio.run(echo_reading(address, pid, calls, concurrency)) for _ in range(runs))


async def echo_reading(address: str, pid: int, calls: int = 3000, concurrency: int = 32) -> float:
    """One reading of the CPU seconds (the echo server at `address`, process `pid`, + this client) per echo call."""
    server_before, client_before = process_cpu(pid), time.process_time()
    await _echo_load(address, concurrency, calls)
    return (process_cpu(pid) - server_before + time.process_time() - client_before) / calls


def echo_cpu_paced(rate: float, seconds: float = 8.0) -> float:
    """CPU seconds (echo server process + this client) per echo call when calls start at `rate` per second
    (open loop): what a call costs processes that sleep between calls, as a paced move's hops do. On this
    kind of machine a call at 20/s costs about four times one among 32 concurrent callers."""

    async def run(address: str, pid: int) -> float:
        async with grpc.aio.insecure_channel(address) as channel:
            stub = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel)
            request = diagnostics_pb2.EchoRequest(payload=b"x" * 64)
            for _ in range(50):  # warm up
                await stub.Echo(request)
            server_before, client_before = process_cpu(pid), time.process_time()
            calls: list[Any] = []
            start = time.perf_counter()
            for n in range(max(1, int(rate * seconds))):
                await pace(start, n, rate)
                calls.append(asyncio.ensure_future(stub.Echo(request)))
            await asyncio.gather(*calls)
            return (process_cpu(pid) - server_before + time.process_time() - client_before) / len(calls)

    with echo_server() as (address, pid):
        return asyncio.run(run(address, pid))


@dataclass
class Table:
    """Two accounts and a set of running 2-seat high-card matches, played by SubmitAction."""

    stub: match_pb2_grpc.MatchServiceStub
    seats: list[tuple[tuple[str, str], ...]]
    matches: list[str]

    async def hands(self, match_id: str) -> list[list[int]]:
        hands = []
        for seat, md in enumerate(self.seats):
            view = await self.stub.GetView(match_pb2.GetViewRequest(match_id=match_id, seat=seat), metadata=md)
            hands.append(json.loads(view.view_json)["hand"])
        return hands

    async def move(self, match_id: str, seat: int, card: int) -> float:
        started = time.perf_counter()
        await self.stub.SubmitAction(
            match_pb2.SubmitActionRequest(match_id=match_id, action_id=f"play(card={card})", seat=seat),
            metadata=self.seats[seat],
        )
        return time.perf_counter() - started


async def open_table(channel: grpc.aio.Channel, matches: int, clock: common_pb2.ClockSpec | None = None) -> Table:
    """`matches` running 2-seat high-card matches (with `clock` on each, if given) between two new accounts."""
    auth = auth_pb2_grpc.AuthServiceStub(channel)
    stub = match_pb2_grpc.MatchServiceStub(channel)
    suffix = os.urandom(4).hex()
    seats: list[tuple[tuple[str, str], ...]] = []
    for who in ("a", "b"):
        reply = await auth.Register(auth_pb2.RegisterRequest(username=f"mp-{who}-{suffix}", password="bench pass 2026"))
        seats.append((("authorization", f"Bearer {reply.token}"),))
    ids: list[str] = []
    for start in range(0, matches, 50):
        created = await asyncio.gather(
            *(
                stub.CreateMatch(
                    match_pb2.CreateMatchRequest(
                        game="high-card",
                        config=common_pb2.MatchConfig(mode="duel", seats=2),
                        join_seat=0,
                        clock=clock,
                    ),
                    metadata=seats[0],
                )
                for _ in range(start, min(matches, start + 50))
            )
        )
        await asyncio.gather(
            *(
                stub.JoinMatch(match_pb2.JoinMatchRequest(match_id=c.match.id, seat=1), metadata=seats[1])
                for c in created
            )
        )
        ids += [c.match.id for c in created]
    return Table(stub, seats, ids)


async def _moves(table: Table, per_match: int, hands: dict[str, list[list[int]]] | None = None) -> list[float]:
    """Play `per_match` moves of every match at once (each match's in order); `hands` read beforehand, or here."""

    async def one(match_id: str) -> list[float]:
        dealt = hands[match_id] if hands is not None else await table.hands(match_id)
        spent = []
        for card_a, card_b in list(zip(dealt[0], dealt[1], strict=True))[: max(1, per_match // 2)]:
            spent.append(await table.move(match_id, 0, card_a))
            spent.append(await table.move(match_id, 1, card_b))
        return spent

    done = await asyncio.gather(*(one(m) for m in table.matches))
    return [x for part in done for x in part]


def _measure(platform: Platform, work: Callable[[], object]) -> tuple[float, float]:
    """(platform CPU seconds, wall seconds) spent while `work` runs."""
    before, started = platform_cpu(platform), time.perf_counter()
    work()
    return platform_cpu(platform) - before, time.perf_counter() - started


SLOW_PACE = 20.0
"""Moves/s of the slow paced row: the pace at which issue 13 first measured a move's cost."""
SETTLE_SECONDS = 2.0
"""How long the move-cost row keeps counting after the last move: the work moves leave behind (their projection,
finished events, ratings, the log's purge) is theirs, and would otherwise land after the window."""


def per_move_less_idle(
    idle_from: dict[str, float], before: dict[str, float], after: dict[str, float], moves: int
) -> dict[str, float]:
    """Each process's CPU seconds per move, counted from `before` (the first move) to `after` (`SETTLE_SECONDS`
    after the last), less the idle CPU of that tail, read over the second from `idle_from` to `before`."""
    return {
        name: (after[name] - before[name] - (before[name] - idle_from[name]) * SETTLE_SECONDS) / moves for name in after
    }


@dataclass(frozen=True)
class MoveCost:
    """One move-cost reading: platform CPU seconds per SubmitAction, each process's part of it, and the moves/s
    the platform absorbed."""

    per_move: float
    by_process: dict[str, float]
    rate: float
    echo: float = 0.0
    """The echo CPU per call read just before this reading (0: none was read)."""

    @property
    def in_echo_calls(self) -> float:
        return self.per_move / self.echo


EchoServer = tuple[str, int]
"""(address, pid) of a running echo server (`baselines.echo_server`)."""


def move_cost(
    platform: Platform, matches: int = 100, runs: int = BASELINE_RUNS, echo: EchoServer | None = None
) -> tuple[MoveCost, list[MoveCost]]:
    """(the least-cost reading, every reading) of `runs` tables of `matches` concurrent matches played out.

    The least of several readings, as for the echo baseline it is compared with: other work on the machine only
    ever adds to a reading, so comparing one noisy reading with the echo's best overstated the ratio (readings of
    one platform a minute apart differ by a fifth and more).

    A reading counts from the first move until `SETTLE_SECONDS` after the last, less the idle CPU the platform
    spends in that tail (measured just before); the hands are read before it starts. The rate runs until
    the last move is projected too: answers alone come faster than the platform can keep up with for long
    (on uvloop, about 1.6 times faster, and pacing the open-loop row at half of that overloaded it).

    With `echo`, each reading also reads the echo CPU per call just before its moves: this machine's speed
    drifts by half within minutes, so a move and the echo call it is divided by are best read side by side."""

    async def run() -> MoveCost:
        async with grpc.aio.insecure_channel(platform.service("gateway").address) as channel:
            table = await open_table(channel, matches)
            hands = {m: await table.hands(m) for m in table.matches}
            await asyncio.sleep(SETTLE_SECONDS)  # the table's own creation settles first
            beside = await echo_reading(*echo) if echo is not None else 0.0
            idle_from = cpu_by_process(platform)
            await asyncio.sleep(1.0)
            before = cpu_by_process(platform)
            with collector_paused():
                started = time.perf_counter()
                moves = await _moves(table, 10, hands)
                await wait_projected_at(platform.nats_url, timeout=60)
                wall = time.perf_counter() - started
            await asyncio.sleep(SETTLE_SECONDS)
            after = cpu_by_process(platform)
            spent = per_move_less_idle(idle_from, before, after, len(moves))
            return MoveCost(sum(spent.values()), spent, len(moves) / wall, beside)

    readings = [asyncio.run(run()) for _ in range(max(1, runs))]
    return min(readings, key=lambda r: r.per_move), readings


def open_idle_matches(platform: Platform, matches: int) -> list[str]:
    """Open `matches` running matches, each with a one-hour move clock (so a clock sweep that scanned
    running matches would show), and return their ids."""

    async def run() -> list[str]:
        async with grpc.aio.insecure_channel(platform.service("gateway").address) as channel:
            table = await open_table(
                channel, matches, common_pb2.ClockSpec(per_move=duration_pb2.Duration(seconds=3600))
            )
            return table.matches

    return asyncio.run(run())


def close_matches(platform: Platform, match_ids: list[str]) -> None:
    """Abort matches through their owners (`LiveMatchService.Close`, the path of a no-show or an operator's
    abort): a close entry each owner appends to the match's log."""

    async def run() -> None:
        addresses = [s.address for s in platform.services if s.definition.game == "high-card"]
        replicas = RulesReplicas("high-card", ",".join(addresses))
        try:
            for start in range(0, len(match_ids), 100):
                await asyncio.gather(
                    *(
                        replicas.on_owner(m, "Close", live_pb2.CloseRequest(match_id=m, status="aborted"))
                        for m in match_ids[start : start + 100]
                    )
                )
        finally:
            await replicas.close()

    asyncio.run(run())


def idle_cpu(platform: Platform, seconds: float = 10.0) -> float:
    """Platform CPU seconds per wall second while nobody moves."""
    time.sleep(2.0)  # let the last writes settle
    cpu, wall = _measure(platform, lambda: time.sleep(seconds))
    return cpu / wall


def idle_ratio(
    platform: Platform, seconds: float = 6.0, windows: int = 2, *, open_base: bool = True
) -> tuple[float, float, float]:
    """(cores with 10 running matches, cores with 1,000, their ratio). The 10-match figure averages
    windows taken before the 990 extra matches open and after they close, so CPU that drifts with
    time alone (the bots' idle consumers do) cancels out instead of counting against the 1,000.
    `open_base=False` measures again over the 10 an earlier call opened (they stay running)."""

    def measured() -> float:
        return sum(idle_cpu(platform, seconds) for _ in range(windows)) / windows

    if open_base:
        open_idle_matches(platform, 10)
    before = measured()
    extra = open_idle_matches(platform, 990)
    many = measured()
    close_matches(platform, extra)
    after = measured()
    few = (before + after) / 2
    return few, many, many / few if few else float("inf")


@dataclass(frozen=True)
class PacedRun:
    """An open-loop run: each timed move's latency, every move made (the warm-up's included), and the platform's
    CPU seconds per timed move, less its idle CPU (counted as the move-cost row counts)."""

    latencies: list[float]
    moves: int
    cpu_per_move: float


def latency_open_loop(platform: Platform, rate: float, seconds: float = 10.0) -> PacedRun:
    """SubmitAction latencies with moves started at a fixed `rate` per second (open loop), in steady state.

    Lanes play high-card matches back to back, one move per lane per round, the lanes taking turns at `rate`.
    Lane k starts k mod 10 moves into its first match (played before the clock starts), so every round holds
    first moves and finishing moves in the proportion a platform whose matches began at different times has.
    (Starting every match together put all the first moves in the first second and all the finishes in the
    last: ten times the steady rate of each, and the row's p99 was those two seconds.) A move waits only for
    its own lane's previous move, never for the rest of the round. The platform's CPU counts from the first
    timed move until `SETTLE_SECONDS` after the last, less its idle CPU (read in the pause before)."""

    async def run() -> PacedRun:
        async with grpc.aio.insecure_channel(platform.service("gateway").address) as channel:
            lanes = max(20, int(rate * seconds / 10) + 1)
            table = await open_table(channel, 2 * lanes)
            queues: list[list[tuple[str, int, int]]] = [[] for _ in range(lanes)]
            for k, match_id in enumerate(table.matches):
                hands = await table.hands(match_id)
                for a, b in zip(hands[0], hands[1], strict=True):
                    queues[k % lanes] += [(match_id, 0, a), (match_id, 1, b)]

            async def warm(queue: list[tuple[str, int, int]], moves: int) -> None:
                for _ in range(moves):
                    await table.move(*queue.pop(0))

            await asyncio.gather(*(warm(q, k % 10) for k, q in enumerate(queues)))
            warmed = sum(k % 10 for k in range(lanes))
            await asyncio.sleep(1.0)  # the warm-up's projection and events settle before the clock starts
            idle_from = platform_cpu(platform)
            await asyncio.sleep(1.0)
            idle = platform_cpu(platform) - idle_from
            latencies: list[float] = []
            previous: list[asyncio.Task[None] | None] = [None] * lanes

            async def move(before: asyncio.Task[None] | None, match_id: str, seat: int, card: int) -> None:
                if before is not None:
                    await before  # the lane's earlier move first: a match's moves stay in order
                latencies.append(await table.move(match_id, seat, card))

            with collector_paused():
                before, start = platform_cpu(platform), time.perf_counter()
                for n in range(int(rate * seconds)):
                    lane = n % lanes
                    if not queues[lane]:
                        continue
                    await pace(start, n, rate)
                    previous[lane] = asyncio.create_task(move(previous[lane], *queues[lane].pop(0)))
                await asyncio.gather(*(t for t in previous if t is not None))
            await asyncio.sleep(SETTLE_SECONDS)
            spent = platform_cpu(platform) - before - idle * (time.perf_counter() - start)
            return PacedRun(latencies, warmed + len(latencies), spent / max(1, len(latencies)))

    return asyncio.run(run())


def watcher_cost(platform: Platform, spectators: int = 20, matches: int = 10) -> float:
    """Extra platform CPU seconds per move per spectator watching each match."""

    def play(watchers: int) -> float:
        async def run() -> float:
            async with grpc.aio.insecure_channel(platform.service("gateway").address) as channel:
                table = await open_table(channel, matches)
                streams = []
                for match_id in table.matches:
                    for _ in range(watchers):
                        streams.append(
                            table.stub.WatchMatch(
                                match_pb2.WatchMatchRequest(match_id=match_id), metadata=table.seats[0]
                            )
                        )
                readers = [asyncio.create_task(_drain(s)) for s in streams]
                await asyncio.sleep(1.0)
                before = platform_cpu(platform)
                moves = await _moves(table, 10)
                for reader in readers:
                    await asyncio.wait_for(reader, 30)
                return (platform_cpu(platform) - before) / len(moves)

        return asyncio.run(run())

    alone = play(0)
    watched = play(spectators)
    return max(0.0, watched - alone) / spectators


async def _drain(stream: Iterable[object]) -> None:
    async for _ in stream:  # type: ignore[attr-defined]
        pass


def move_path_rows(matches: int = 100, quick: bool = False) -> list[Row]:
    echo = echo_cpu_per_call(1000 if quick else 3000)
    note = f"server process + client, least of {BASELINE_RUNS} runs"
    rows = [Row("echo cpu per call", echo * 1e6, "µs", is_baseline=True, extra=note)]
    with bench_platform() as platform, echo_server() as beside:
        asyncio.run(echo_reading(*beside, calls=300))  # warm, as the baseline's server is
        least, readings = move_cost(platform, matches, runs=1 if quick else BASELINE_RUNS, echo=beside)
        rate = max(r.rate for r in readings)
        rows.append(
            Row(
                "move cost",
                least.per_move * 1e6,
                "µs cpu",
                baseline="echo cpu per call",
                goal="<= 3x echo",
                extra=f"platform CPU per SubmitAction, {matches} concurrent matches, with the work moves leave "
                f"behind, in µs; " + of_readings("the least", [f"{r.per_move * 1e6:,.0f}" for r in readings]),
            ),
        )
        rows += [
            Row(
                f"  move cost: {name}",
                cpu * 1e6,
                "µs cpu",
                baseline="echo cpu per call",
                extra="this process's part of the least reading",
            )
            for name, cpu in sorted(least.by_process.items(), key=lambda item: -item[1])
            if cpu > 0
        ]
        pairs = [f"{r.per_move * 1e6:,.0f} ÷ {r.echo * 1e6:,.0f}" for r in readings]
        rows.append(
            Row(
                "move cost ÷ the echo read beside it",
                statistics.median(r.in_echo_calls for r in readings),
                "echo calls",
                goal="<= 3x echo",
                extra="the move-cost readings, each divided by an echo CPU per call read just before its moves (the "
                "machine's speed drifts by half within minutes); "
                + (f"the median of {' / '.join(pairs)}" if len(pairs) > 1 else pairs[0])
                + " µs",
            )
        )
        db = Path(platform.data_dir) / "gamehall.db"
        size_before = sum(p.stat().st_size for p in db.parent.glob("gamehall.db*"))
        half = max(5.0, rate / 2)
        paced = latency_open_loop(platform, half, 5.0 if quick else 10.0)
        latencies, moves = sorted(paced.latencies), paced.moves
        size_after = sum(p.stat().st_size for p in db.parent.glob("gamehall.db*"))
        p50 = statistics.median(latencies) * 1000
        p99 = latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000
        note = f"paced at {half:.0f} moves/s (half the measured maximum), matches at every stage"
        rows += [
            Row("open-loop submit p50", p50, "ms", baseline="echo p50", extra=note),
            Row("open-loop submit p99", p99, "ms", baseline="echo p50", goal="<= 15x echo p50", extra=note),
            Row(
                "bytes stored per action",
                max(0, size_after - size_before) / max(1, moves),
                "B",
                extra="SQLite file growth over the open-loop run",
            ),
        ]
        slow = latency_open_loop(platform, SLOW_PACE, 5.0 if quick else 10.0)
        per_spectator = watcher_cost(platform, spectators=5 if quick else 20)
        rows.append(
            Row(
                "watcher cost per move per spectator",
                per_spectator * 1e6,
                "µs cpu",
                baseline="echo cpu per call",
                extra="extra platform CPU for each spectator of a match",
            ),
        )
    # The paced rows: a move and an echo call made at the same pace, so both pay what waking sleeping processes
    # costs (the move-cost row above compares a burst with 32 concurrent echo callers, where both amortise it).
    for per_second, run in ((half, paced), (SLOW_PACE, slow)):
        echo_name = f"echo cpu per call, paced at {per_second:.0f}/s"
        rows += [
            Row(echo_name, echo_cpu_paced(per_second, 4.0 if quick else 8.0) * 1e6, "µs", is_baseline=True),
            Row(
                f"move cost, paced at {per_second:.0f} moves/s",
                run.cpu_per_move * 1e6,
                "µs cpu",
                baseline=echo_name,
                extra="platform CPU per SubmitAction of the open-loop run at that pace, less idle",
            ),
        ]
    with bench_platform() as platform:
        few, many, ratio = idle_ratio(platform, 5.0 if quick else 10.0)
        rows += [
            Row("idle cpu, 10 running matches", few * 100, "% of a core"),
            Row(
                "idle cpu, 1,000 running matches",
                many * 100,
                "% of a core",
                goal="<= 1.2x the 10-match row",
                extra=f"{ratio:.2f}x the 10-match row",
            ),
        ]
    return rows
