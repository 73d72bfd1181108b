"""A close the match log refuses is UNAVAILABLE, not INTERNAL (issue 20): persistence closes a running match (an
operator's abort, an abandoned match) by appending a close entry to the log; when NATS refuses that publish
(here: the persistence user may not publish on the log's subjects, as before its permissions were fixed) the
caller gets a retryable UNAVAILABLE that says what happened, and the match stays as it was."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from gamehall.internal.v1 import persistence_pb2 as ppb
from gamehall.launcher.nats import nats_child
from gamehall.launcher.ports import free_port
from gamehall.runtime.bus import SUBJECT_ROOT
from gamehall.runtime.errors import read_failure
from gamehall.runtime.nats_access import permissions
from tests.integration.matches.conftest import serve

CONFIG = json.dumps({"mode": "duel", "seats": 2, "options": {}, "flags": {}})
PASSWORD = "not-a-secret-0123456789"


def _quoted(subjects: list[str]) -> str:
    return ", ".join(f'"{s}"' for s in subjects)


@pytest.fixture
def refusing_nats(tmp_path: Path) -> Iterator[str]:
    """A nats-server whose `persistence` user has its permissions minus publishing to the match log."""
    allowed = permissions("persistence", ["high-card"])
    publish = [s for s in allowed.publish if s != f"{SUBJECT_ROOT}.log.>"]
    assert len(publish) == len(allowed.publish) - 1
    subscribe = [*allowed.subscribe, "_INBOX.>"]  # nats-py's default reply inbox (no launcher transport here)
    users = (
        "authorization {\n  users = [\n"
        f'    {{user: "persistence", password: "{PASSWORD}", permissions: {{\n'
        f"      publish: {{allow: [{_quoted(publish)}]}},\n      subscribe: {{allow: [{_quoted(subscribe)}]}}\n"
        "    }}\n  ]\n}\n"
    )
    port = free_port()
    child, _ = nats_child(tmp_path / "nats", port, log_path=tmp_path / "nats.log", security=users)
    child.start()
    try:
        child.wait_ready()
        yield f"nats://persistence:{PASSWORD}@127.0.0.1:{port}"
    finally:
        child.stop()


async def test_a_close_the_log_refuses_is_unavailable_with_a_clear_message(
    store_dsn: str, refusing_nats: str, tmp_path: Path
) -> None:
    served = await serve(store_dsn, refusing_nats, tmp_path)
    try:
        created = await served.stub.CreateMatch(
            ppb.CreateMatchRequest(game="high-card", config_json=CONFIG, seed=5, status="running")
        )
        match_id = created.match.id
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await served.stub.CloseMatch(
                ppb.CloseMatchRequest(match_id=match_id, status="aborted", outcome_json='{"reason": "abandoned"}'),
                timeout=30,
            )
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE, refused.value.details()
        assert "match log" in (refused.value.details() or "") and match_id in (refused.value.details() or "")
        failure = read_failure(refused.value)
        assert failure is not None and failure.retry_after  # retryable, with RetryInfo
        after = await served.stub.GetMatch(ppb.GetMatchRequest(match_id=match_id))
        assert (after.match.status, after.match.version) == ("running", 0)
    finally:
        await served.channel.close()
        await served.app.stop()
