"""The bench's move-path floor (gamehall.bench.floor) does the work it claims over each hop transport: every move
is appended to its match's subject with the compare-and-swap (a lost append would fail the public call) and
projected into SQLite once. A floor that skipped a hop would make the platform's own work look larger."""

from __future__ import annotations

import asyncio
import sqlite3
import time

import pytest

from gamehall.bench.floor import MOVES_PER_MATCH, floor_path, play
from gamehall.bench.floor_node import HOPS

pytestmark = pytest.mark.integration


def _projected(db: str) -> list[tuple[str, int]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT subject, COUNT(*) FROM log GROUP BY subject ORDER BY subject").fetchall()


@pytest.mark.parametrize("hop", HOPS)
def test_every_move_is_logged_and_projected_once(hop: str) -> None:
    with floor_path(hop) as path:
        moves = asyncio.run(play(path.address, 4, "t"))
        assert moves == 4 * MOVES_PER_MATCH
        expected = [(f"floor.log.t-{m}", MOVES_PER_MATCH) for m in range(4)]
        deadline = time.monotonic() + 10
        while _projected(str(path.db)) != expected and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _projected(str(path.db)) == expected
