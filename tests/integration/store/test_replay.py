"""End to end with a real engine: play High Card through the store (each move projected as a match log entry),
then rebuild the match from its seed, snapshots and action log and check every stored state digest
(ARCHITECTURE.md rule 4)."""

from __future__ import annotations

import hashlib
import random

from gamehall.engine import MatchConfig
from gamehall.store import Store
from tests.fixtures.high_card import HighCard
from tests.integration.store.helpers import log_action

GAME = HighCard()
SNAPSHOT_EVERY = 3


def state_digest(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


async def test_a_stored_match_replays_byte_for_byte(store: Store) -> None:
    config = GAME.configure("duel", 2)
    match = await store.create_match(game=GAME.id, config=config.to_json(), status="running")
    state = GAME.new_match(MatchConfig.from_json(match.config), match.seed)
    chooser = random.Random(7)
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        action = chooser.choice(list(GAME.legal_actions(state, seat)))
        state, _ = GAME.apply(state, seat, action)
        version = (await store.get_match(match.id)).version + 1
        outcome = GAME.outcome(state)
        encoded = GAME.encode(state)
        logged = await log_action(
            store,
            match,
            version,
            f"req-{version}",
            seat=seat,
            action=GAME.action_to_json(action),
            state_digest=state_digest(encoded),
            snapshot=encoded if version % SNAPSHOT_EVERY == 0 else None,
            status="finished" if outcome else "running",
            outcome=outcome.to_json() if outcome else None,
        )
        assert logged.version == version

    done = await store.get_match(match.id)
    assert done.status == "finished" and done.revealed_seed is not None
    log = await store.get_actions(match.id)
    assert len(log) == done.version

    # From the seed: every digest matches.
    replay = GAME.new_match(MatchConfig.from_json(done.config), done.revealed_seed)
    for record in log:
        replay, _ = GAME.apply(replay, record.seat, GAME.parse_action(record.action))
        assert state_digest(GAME.encode(replay)) == record.state_digest
    assert GAME.outcome(replay).to_json() == done.outcome  # type: ignore[union-attr]

    # From the newest snapshot (a finished match keeps only its final one): the tail of the log lands on the
    # same final state.
    snapshot = await store.latest_snapshot(match.id)
    assert snapshot is not None and snapshot.version % SNAPSHOT_EVERY == 0
    resumed = GAME.decode(snapshot.state)
    for record in await store.get_actions(match.id, snapshot.version + 1):
        resumed, _ = GAME.apply(resumed, record.seat, GAME.parse_action(record.action))
    assert GAME.encode(resumed) == GAME.encode(replay)
