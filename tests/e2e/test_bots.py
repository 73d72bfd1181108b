"""Bots take seats: the ai service plays bot seats of matches created through the gateway,
and a worker killed mid-think neither stalls the match nor plays a turn twice."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time

import nats
from nats.js import api

from gamehall.runtime.matchlog import LOG_STREAM
from gamehall_sdk.v1 import match_pb2
from tests.e2e.conftest import Running
from tests.e2e.helpers import projected

FINISHED = match_pb2.MATCH_STATUS_FINISHED


def _create(client, seats: list[match_pb2.SeatSpec], **kwargs) -> match_pb2.Match:  # type: ignore[no-untyped-def]
    request = match_pb2.CreateMatchRequest(game="high-card", seats=seats, **kwargs)
    return client.call("CreateMatch", request).match


def _wait_finished(running: Running, match_id: str, timeout: float = 90.0) -> match_pb2.Match:
    watcher = running.player()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = watcher.match(match_id)
        if match.status == FINISHED:
            return match
        time.sleep(0.2)
    raise AssertionError(f"match {match_id} did not finish; it is at version {match.version}")


def _logged(running: Running, match_id: str) -> list[tuple[int, str]]:
    running.platform  # noqa: B018 - reads the SQLite file: local backend only
    projected(running.stack.nats_url)
    with sqlite3.connect(running.data_dir / "gamehall.db") as db:
        return db.execute(
            "SELECT version, request_id FROM action_log WHERE match_id = ? ORDER BY version", (match_id,)
        ).fetchall()


def _bot_turns(running: Running) -> list[api.ConsumerInfo]:
    """The ai's two consumers of high-card turns, as the server sees them: the first turn of a match (the
    TURNS work queue) and every later one (the match log's `bot` entries)."""

    async def read() -> list[api.ConsumerInfo]:
        nc = await nats.connect(running.stack.nats_url)
        try:
            js = nc.jetstream()
            return [await js.consumer_info(stream, "bots-high-card") for stream in ("GAMEHALL_TURNS", LOG_STREAM)]
        finally:
            await nc.close()

    return asyncio.run(read())


def test_a_bot_plays_against_a_human(platform: Running) -> None:
    human = platform.player()
    match = _create(human, [match_pb2.SeatSpec(open=True), match_pb2.SeatSpec(bot="hard")], join_seat=0)
    rng = random.Random(4)
    deadline = time.monotonic() + 90
    while human.match(match.id).status != FINISHED:
        assert time.monotonic() < deadline, "the bot never answered"
        legal = human.legal(match.id)
        cards = [a for a in legal.actions if a.id != "resign"]
        if cards:
            human.submit(match.id, rng.choice(cards).id)
        else:
            time.sleep(0.05)  # the bot is thinking
    bot_moves = [rid for _, rid in _logged(platform, match.id) if rid.startswith("bot:")]
    assert len(bot_moves) == 5  # one card per round, all played by the ai service


def test_bots_fill_every_seat_and_finish(platform: Running) -> None:
    creator = platform.player()
    match = _create(creator, [match_pb2.SeatSpec(bot="easy"), match_pb2.SeatSpec(bot="normal")], public=True)
    finished = _wait_finished(platform, match.id)
    assert len(finished.outcome.ranks) == 2
    versions = [v for v, _ in _logged(platform, match.id)]
    assert versions == list(range(1, len(versions) + 1))


def test_killing_the_ai_mid_think_neither_stalls_nor_double_plays(platform: Running) -> None:
    creator = platform.player()
    start = _bot_turns(platform)  # before the match exists: every delivery of its turns comes after
    match = _create(creator, [match_pb2.SeatSpec(bot="expert"), match_pb2.SeatSpec(bot="expert")], public=True)
    for kill in range(3):  # a think can end between the look and the kill: kill up to three times mid-match
        deadline = time.monotonic() + 30
        while not any(c.num_ack_pending for c in _bot_turns(platform)):  # no turn is being thought about yet
            if kill and creator.match(match.id).status == FINISHED:
                break
            assert time.monotonic() < deadline, "no bot turn was ever taken up"
            time.sleep(0.01)
        else:
            platform.platform.restart("ai")  # SIGKILL mid-think: the unacked turn is redelivered after the ack wait
            continue
        break
    finished = _wait_finished(platform, match.id)
    assert finished.outcome.ranks
    log = _logged(platform, match.id)
    after = _bot_turns(platform)
    deliveries = sum(a.delivered.consumer_seq - b.delivered.consumer_seq for a, b in zip(after, start, strict=True))
    # One turn message per version: the start announces one bot seat to act (the lowest, wire.matchlog.next_bot,
    # though both act at once in high-card), then every log entry but the last announces the next one.
    messages = 1 + len(log) - 1
    assert deliveries > messages, "no turn was delivered twice: the kill did not interrupt a think"
    assert [v for v, _ in log] == list(range(1, len(log) + 1))
    request_ids = [rid for _, rid in log]
    assert len(set(request_ids)) == len(request_ids) == 10  # 5 rounds x 2 seats, each turn once
