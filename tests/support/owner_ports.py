"""The owner's store port over a real store: persistence's servicer in process on SQLite (a file in the test's
tmp_path), and the log's projection run by hand (`catch_up`), as persistence's projector runs it on JetStream.

With it a test drives `MatchOwner` and reads the rows the platform would: the lobby's writes go to SQL as in
production, and each log entry lands in SQL once projected.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import gamehall_services.persistence.errors  # noqa: F401  (the store's errors in the status table)
from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.matches.testing import MemoryLog
from gamehall.runtime.errors import ClientError, lookup
from gamehall.runtime.store_errors import as_domain
from gamehall.store import Store, open_store
from gamehall.wire.store_port import PersistenceStore
from gamehall_services.persistence.projector import finished_events, record_from
from gamehall_services.persistence.servicer import PersistenceServicer


class ProjectedStore(PersistenceStore):
    """The store port answered by persistence's servicer in process; a failure is the domain's error with the
    status persistence would have answered."""

    def __init__(self, store: Store, path: Path) -> None:
        super().__init__(self._in_process)
        self.store = store
        self.path = path
        self.servicer = PersistenceServicer(store, None)
        self.projected_seq = 0

    @classmethod
    async def open(cls, tmp_path: Path) -> ProjectedStore:
        path = tmp_path / "owner.db"
        return cls(await open_store(f"sqlite://{path}"), path)

    async def close(self) -> None:
        await self.store.close()

    async def _in_process(self, method: str, request: Any) -> Any:
        try:
            return await getattr(self.servicer, method)(request, None)
        except Exception as exc:
            mapping = lookup(exc)
            if mapping is None:
                raise
            raise as_domain(ClientError(mapping.code, str(exc), mapping.reason)) from exc

    async def account(self, username: str) -> str:
        """A new player account's id (seats and creators reference accounts)."""
        request = ppb.CreateAccountRequest(username=username, password_hash="x")
        created = await self.servicer.CreateAccount(request, None)
        return str(created.account.id)

    async def catch_up(self, log: MemoryLog) -> int:
        """Project the log's entries not projected yet, in one batch (the projector's transaction); how many."""
        new = [x for x in log.logged if x.seq > self.projected_seq]
        if new:
            await self.store.project([record_from(x.entry, x.seq) for x in new], finished_events)
            self.projected_seq = new[-1].seq
        return len(new)

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Rows of the SQL store, read as any reader of the database would."""
        with sqlite3.connect(self.path) as db:
            return list(db.execute(sql, args))


__all__ = ["ProjectedStore"]
