"""Real matches written the way the live path writes them: the match library judges each move, and the store
projects its log entry (`step.logged()` with its digest, and the encoded state every `SNAPSHOT_EVERY` versions
and at the end)."""

from __future__ import annotations

import random

from gamehall.engine import get_game
from gamehall.matches.live import LiveMatch, MatchFacts, SeatFacts, outcome_json
from gamehall.store import Match, Store
from gamehall.store.projection import LogRecord
from tests.integration.store.helpers import canonical, log_action

GAME = "grimm-world"


async def played_match(store: Store, *, seed: int = 1, moves: int | None = None, game_id: str = GAME) -> Match:
    """A match of `game_id` played with random legal moves to its end (or for `moves` moves, left running)."""
    game = get_game(game_id)
    config = game.configure()
    created = await store.create_match(game=game_id, config=config.to_json(), seed=1000 + seed, status="running")
    facts = MatchFacts(
        id=created.id,
        game=game_id,
        status="running",
        seed=created.seed,
        config=created.config,
        seats=tuple(SeatFacts(i, "human") for i in range(config.seats)),
    )
    live = LiveMatch.rebuild(game, facts, None, 0, ())
    chooser = random.Random(seed)
    while live.outcome() is None and (moves is None or live.version < moves):
        seat = live.to_act[0]
        step = live.play(seat, chooser.choice(live.legal(seat)), f"req-{live.version + 1}", 0)
        await log_action(
            store,
            created,
            live.version + 1,
            step.request_id,
            seat=seat,
            action=step.logged(),
            snapshot=step.encoded if step.wants_snapshot() else None,
            status="finished" if step.outcome else "running",
            outcome=outcome_json(step.outcome) if step.outcome else None,
            state_digest=step.digest,
        )
        live.commit(step)
    return await store.get_match(created.id)


async def aborted_match(store: Store, *, seed: int = 1, moves: int = 100, game_id: str = GAME) -> Match:
    """A match of `game_id` played for `moves` moves, then aborted by a close entry of its log (as an operator's
    abort or an abandoned match ends): unlike a finish, which carries the final snapshot and leaves only that one,
    a close entry leaves the match's snapshots as they were."""
    running = await played_match(store, seed=seed, moves=moves, game_id=game_id)
    close = LogRecord(
        match_id=running.id,
        seq=running.version + 1,
        version=running.version,
        kind="close",
        status="aborted",
        created_at=store._now(),  # the store's clock, which a test may move
        outcome=canonical({"ranks": [], "scores": None, "reason": "aborted by an operator"}),
    )
    await store.project([close])
    return await store.get_match(running.id)
