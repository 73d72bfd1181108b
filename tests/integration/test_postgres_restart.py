"""A PostgreSQL restart under a running store: every call fails with the store's Unavailable (UNAVAILABLE
to clients, who retry) or succeeds, never a raw driver error (INTERNAL); once the server is back, calls
succeed on the same store. Found by the soak at tournament scale: CreateMatch gave INTERNAL meanwhile."""

from __future__ import annotations

import asyncio
import threading
import time

from gamehall.store import open_store
from gamehall.store.errors import Unavailable
from gamehall.testing.postgres import local_postgres

DOWN = 2.0


async def test_calls_during_a_restart_are_unavailable_then_succeed() -> None:
    with local_postgres(crash_safe=True) as server:
        assert server.restart is not None
        store = await open_store(server.dsn)
        restart = threading.Thread(target=server.restart, args=(DOWN,))
        try:
            await store.create_account("before", "hash", "player")
            restart.start()
            outcomes: list[str] = []
            deadline = time.monotonic() + 60
            n = 0
            while time.monotonic() < deadline and (restart.is_alive() or outcomes[-1:] != ["ok"]):
                n += 1
                try:
                    await store.create_account(f"during-{n}", "hash", "player")
                    await store.get_account_by_name("before")
                    outcomes.append("ok")
                except Unavailable:
                    outcomes.append("unavailable")
                await asyncio.sleep(0.05)
            restart.join()
            assert "unavailable" in outcomes, "no call met the server away: the test proves nothing"
            assert outcomes[-1] == "ok", outcomes[-5:]
        finally:
            if restart.is_alive():
                await asyncio.to_thread(restart.join)
            await store.close()
