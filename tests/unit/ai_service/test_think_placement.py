"""Where the ai thinks: a game and level that think briefly think on the event loop (a thread hand-off would cost
a good part of the think), an unknown or long one in a thread (it would hold up every other turn's I/O)."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from gamehall.engine import get_game
from gamehall_services.ai import worker
from gamehall_services.ai.worker import Turn, TurnWorker

LEGAL: list[Any] = ["a"]
"""A stand-in action list: the thinks here are stand-ins too, returning the first."""


def _turn(difficulty: str = "easy") -> Turn:
    return Turn("m", "grimmoir", 1, 0, difficulty, 0)


def _burn(seconds: float) -> None:
    """Spend `seconds` of this thread's CPU (a sleep would not count: the estimate is of CPU)."""
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


async def test_brief_thinks_move_onto_the_loop_and_a_long_one_moves_them_back(monkeypatch: pytest.MonkeyPatch) -> None:
    costs = [0.0, 0.0, 0.02, 0.0, 0.0]
    threads: list[bool] = []
    loop_thread = threading.get_ident()

    def think(game: Any, view: Any, turn: Turn, legal: list[Any]) -> Any:
        threads.append(threading.get_ident() == loop_thread)
        _burn(costs[len(threads) - 1])
        return legal[0]

    monkeypatch.setattr(TurnWorker, "_think", staticmethod(think))
    bots = TurnWorker({}, "ai")
    game = get_game("grimmoir")
    for _ in costs:
        assert await bots._thought(game, {}, _turn(), LEGAL) is LEGAL[0]
    # unknown: a thread; brief: the loop (twice, the second one long); the estimate then over the limit: a thread
    assert threads == [False, True, True, False, False]
    assert bots.think_seconds[("grimmoir", "easy")] >= worker.INLINE_THINK_SECONDS * 0.5


async def test_each_game_and_level_is_judged_on_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    placed: list[tuple[str, bool]] = []
    loop_thread = threading.get_ident()

    def think(game: Any, view: Any, turn: Turn, legal: list[Any]) -> Any:
        placed.append((turn.difficulty, threading.get_ident() == loop_thread))
        _burn(0.01 if turn.difficulty == "hard" else 0.0)
        return legal[0]

    monkeypatch.setattr(TurnWorker, "_think", staticmethod(think))
    bots = TurnWorker({}, "ai")
    game = get_game("grimmoir")
    for level in ("easy", "hard", "easy", "hard"):
        await bots._thought(game, {}, _turn(level), LEGAL)
    assert placed == [("easy", False), ("hard", False), ("easy", True), ("hard", False)]


def test_the_loop_is_not_blocked_by_a_think_it_does_not_know(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first think runs in a thread: the loop goes on meanwhile."""

    def think(game: Any, view: Any, turn: Turn, legal: list[Any]) -> Any:
        _burn(0.05)
        return legal[0]

    monkeypatch.setattr(TurnWorker, "_think", staticmethod(think))

    async def main() -> int:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.001)
                ticks += 1

        ticker = asyncio.create_task(tick())
        try:
            await TurnWorker({}, "ai")._thought(get_game("grimmoir"), {}, _turn(), LEGAL)
        finally:
            ticker.cancel()
        return ticks

    assert asyncio.run(main()) > 0
