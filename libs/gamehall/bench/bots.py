"""Bot rows: think time per difficulty, and the ai service's decisions/s under many bot-vs-bot matches."""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import time
from typing import Any

import grpc

from gamehall.ai.levels import make_bot
from gamehall.ai.playout import random_playout
from gamehall.bench.baselines import BASELINE_RUNS
from gamehall.bench.e2e import bench_platform
from gamehall.bench.rows import Row, of_readings
from gamehall.engine import Game, all_games
from gamehall.runtime.metrics import scraped_total
from gamehall_sdk.v1 import auth_pb2, auth_pb2_grpc, match_pb2, match_pb2_grpc

LEVELS = ("easy", "normal", "hard", "expert")
POLL_SECONDS = 0.25
"""How often the decisions row reads the ai's counter. The last decision came between the reading before and the
first reading that saw it, so it is dated halfway (off by at most half this, either way; dated by the later
reading, as until stop 33, a reading overstated the time by 0.125 s on average, about 4 % of a 3.5 s reading).
A scrape costs the ai about a millisecond."""
MODE_ROWS: dict[str, tuple[tuple[str, str], ...]] = {"grimm-world": (("campaign", "normal"),)}
"""Modes other than a game's default with a think-time promise (issue 16: `normal` decides within a second)."""


def think_rows(positions: int = 5, games: list[str] | None = None) -> list[Row]:
    """Median time a level takes to decide, at `positions` positions reached by random play."""
    rows = []
    for game in all_games():
        if games and game.id not in games:
            continue
        config = game.configure()
        for level in LEVELS:
            times = _think_times(game, config, level, positions)
            rows.append(
                Row(
                    f"{game.id} {level} think",
                    statistics.median(times) * 1000,
                    "ms median",
                    extra=f"{positions} positions, iteration budgets (no time cap)",
                )
            )
        for mode, level in MODE_ROWS.get(game.id, ()):
            times = _think_times(game, game.configure(mode), level, positions)
            rows.append(
                Row(
                    f"{game.id} {mode} {level} think",
                    max(times) * 1000,
                    "ms worst",
                    goal="< 1,000 ms",
                    extra=f"{positions} positions, iteration budgets (no time cap)",
                )
            )
    return rows


def _think_times(game: Game[Any], config: Any, level: str, positions: int) -> list[float]:
    rng = random.Random(7)
    times = []
    for p in range(positions):
        state = game.new_match(config, 100 + p)
        state, _ = random_playout(game, state, rng, max_steps=rng.randrange(0, 12))
        if game.outcome(state) is not None:
            state = game.new_match(config, 100 + p)
        seat = min(game.to_act(state))
        bot = make_bot(level)
        started = time.perf_counter()
        bot.choose(game, game.view(state, seat), seat, list(game.legal_actions(state, seat)), random.Random(p))
        times.append(time.perf_counter() - started)
    return times


def _decisions(metrics_address: str) -> float:
    """The ai replica's `gamehall_bot_decisions_total`, summed over games and levels (one scrape)."""
    return scraped_total(metrics_address, "gamehall_bot_decisions_total", timeout=5)


async def _bot_matches(address: str, metrics_address: str, matches: int, timeout: float) -> tuple[float, float]:
    """(decisions, seconds) from the first match's creation to the last decision, read off the ai's own
    counter (a scrape every `POLL_SECONDS`: the load generator adds no RPCs while the bots play; the last
    decision dated halfway between the reading before it and the first that saw it)."""
    async with grpc.aio.insecure_channel(address) as channel:
        auth = auth_pb2_grpc.AuthServiceStub(channel)
        stub = match_pb2_grpc.MatchServiceStub(channel)
        name = f"bench-bots-{os.urandom(4).hex()}"  # a new account per reading
        reply = await auth.Register(auth_pb2.RegisterRequest(username=name, password="bench password 2026"))
        md = (("authorization", f"Bearer {reply.token}"),)
        seats = [match_pb2.SeatSpec(bot="easy"), match_pb2.SeatSpec(bot="easy")]
        before = await asyncio.to_thread(_decisions, metrics_address)
        started = time.perf_counter()
        for first in range(0, matches, 50):
            await asyncio.gather(
                *(
                    stub.CreateMatch(match_pb2.CreateMatchRequest(game="high-card", seats=seats), metadata=md)
                    for _ in range(first, min(matches, first + 50))
                )
            )
        last, last_change = before, time.perf_counter()
        read_at = last_change
        while time.perf_counter() - started < timeout:
            await asyncio.sleep(POLL_SECONDS)
            previous_read, read_at = read_at, time.perf_counter()
            now = await asyncio.to_thread(_decisions, metrics_address)
            if now != last:
                last, last_change = now, (previous_read + read_at) / 2
            elif last > before and time.perf_counter() - last_change > 3.0:
                break  # every match has played out
        return last - before, last_change - started


def ai_service_rows(matches: int = 200, timeout: float = 300.0, runs: int = BASELINE_RUNS) -> list[Row]:
    """Decisions/s of one ai replica while `matches` bot-vs-bot matches run at once (create to finish): the best
    of `runs` readings on one platform (other work on the machine only ever slows a reading, as for the echo
    baseline this row is divided by)."""
    rates = []
    with bench_platform() as platform:
        ai = platform.service("ai")
        for _ in range(max(1, runs)):
            decisions, elapsed = asyncio.run(
                _bot_matches(platform.service("gateway").address, f"127.0.0.1:{ai.metrics_port}", matches, timeout)
            )
            rates.append(decisions / elapsed)
    rates.sort(reverse=True)
    return [
        Row(
            "ai service decisions/s",
            rates[0],
            "decisions/s",
            baseline="echo baseline",
            goal=">= 0.15x echo calls/s",
            extra=f"{matches} concurrent bot-vs-bot high-card matches, one ai replica, easy bots; "
            + of_readings("the best", [f"{r:,.0f}" for r in rates]),
        )
    ]
