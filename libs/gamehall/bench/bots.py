"""Bot rows: think time per difficulty, and the ai service's decisions/s under many bot-vs-bot matches."""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from typing import Any

import grpc

from gamehall.ai.levels import make_bot
from gamehall.ai.playout import random_playout
from gamehall.bench.e2e import bench_platform
from gamehall.bench.rows import Row
from gamehall.engine import Game, all_games
from gamehall_sdk.v1 import auth_pb2, auth_pb2_grpc, match_pb2, match_pb2_grpc

LEVELS = ("easy", "normal", "hard", "expert")
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


async def _bot_matches(address: str, matches: int, timeout: float) -> tuple[int, float]:
    async with grpc.aio.insecure_channel(address) as channel:
        auth = auth_pb2_grpc.AuthServiceStub(channel)
        stub = match_pb2_grpc.MatchServiceStub(channel)
        reply = await auth.Register(auth_pb2.RegisterRequest(username="bench-bots", password="bench password 2026"))
        md = (("authorization", f"Bearer {reply.token}"),)
        seats = [match_pb2.SeatSpec(bot="easy"), match_pb2.SeatSpec(bot="easy")]
        started = time.perf_counter()
        ids = [
            (await stub.CreateMatch(match_pb2.CreateMatchRequest(game="high-card", seats=seats), metadata=md)).match.id
            for _ in range(matches)
        ]
        pending = set(ids)
        actions = 0
        while pending and time.perf_counter() - started < timeout:
            await asyncio.sleep(0.5)
            for match_id in list(pending):
                match = (await stub.GetMatch(match_pb2.GetMatchRequest(match_id=match_id), metadata=md)).match
                if match.status == match_pb2.MATCH_STATUS_FINISHED:
                    pending.discard(match_id)
                    actions += match.version
        return actions, time.perf_counter() - started


def ai_service_rows(matches: int = 200, timeout: float = 300.0) -> list[Row]:
    """Decisions/s of one ai replica while `matches` bot-vs-bot matches run at once (create to finish)."""
    with bench_platform() as platform:
        decisions, elapsed = asyncio.run(_bot_matches(platform.service("gateway").address, matches, timeout))
    return [
        Row(
            "ai service decisions/s",
            decisions / elapsed,
            "decisions/s",
            baseline="echo baseline",
            extra=f"{matches} concurrent bot-vs-bot high-card matches, one ai replica, easy bots",
        )
    ]
