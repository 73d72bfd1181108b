"""Property: whatever mix of fresh, stale and repeated appends arrives, the log stays a gap-free 1..n
sequence with each request id once, and every answer matches a simple model of the rules."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamehall.store import Store, VersionConflict
from tests.integration.store.helpers import running_match

# Each step: (request id from a small pool so repeats happen, whether to send the right version, a wrong guess).
steps = st.lists(
    st.tuples(st.integers(0, 7), st.booleans(), st.integers(0, 12)),
    min_size=1,
    max_size=25,
)


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=steps)
async def test_the_log_is_gap_free_and_request_ids_unique(store: Store, steps: list[tuple[int, bool, int]]) -> None:
    match = await running_match(store)  # a fresh match per example: examples share the store
    version = 0
    logged: dict[str, int] = {}
    for rid_number, right_version, guess in steps:
        request_id = f"req-{rid_number}"
        expected = version if right_version else guess
        try:
            result = await store.append_action(
                match.id, expected, rid_number % 2, {"kind": "step", "n": rid_number}, request_id, bytes([rid_number])
            )
        except VersionConflict as conflict:
            assert request_id not in logged and expected != version
            assert conflict.current == version
            continue
        if request_id in logged:
            assert result.replayed and result.version == logged[request_id]
        else:
            assert not result.replayed and expected == version
            version += 1
            logged[request_id] = version
            assert result.version == version
    log = await store.get_actions(match.id)
    assert [a.version for a in log] == list(range(1, version + 1))
    assert len({a.request_id for a in log}) == len(log)
    assert {a.request_id: a.version for a in log} == logged
    assert (await store.get_match(match.id)).version == version
