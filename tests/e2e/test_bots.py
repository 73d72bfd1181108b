"""Bots take seats: the ai service plays bot seats of matches created through the gateway,
and a worker killed mid-think neither stalls the match nor plays a turn twice."""

from __future__ import annotations

import random
import sqlite3
import time

from gamehall.v1 import gateway_pb2
from tests.e2e.conftest import Running

FINISHED = gateway_pb2.MATCH_STATUS_FINISHED


def _create(client, seats: list[gateway_pb2.SeatSpec], **kwargs) -> gateway_pb2.Match:  # type: ignore[no-untyped-def]
    request = gateway_pb2.CreateMatchRequest(game="high-card", seats=seats, **kwargs)
    return client.call("CreateMatch", request).match


def _wait_finished(running: Running, match_id: str, timeout: float = 90.0) -> gateway_pb2.Match:
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
    with sqlite3.connect(running.data_dir / "gamehall.db") as db:
        return db.execute(
            "SELECT version, request_id FROM action_log WHERE match_id = ? ORDER BY version", (match_id,)
        ).fetchall()


def test_a_bot_plays_against_a_human(platform: Running) -> None:
    human = platform.player()
    match = _create(human, [gateway_pb2.SeatSpec(open=True), gateway_pb2.SeatSpec(bot="hard")], join_seat=0)
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
    match = _create(creator, [gateway_pb2.SeatSpec(bot="easy"), gateway_pb2.SeatSpec(bot="normal")], public=True)
    finished = _wait_finished(platform, match.id)
    assert len(finished.outcome.ranks) == 2
    versions = [v for v, _ in _logged(platform, match.id)]
    assert versions == list(range(1, len(versions) + 1))


def test_killing_the_ai_mid_think_neither_stalls_nor_double_plays(platform: Running) -> None:
    creator = platform.player()
    match = _create(creator, [gateway_pb2.SeatSpec(bot="hard"), gateway_pb2.SeatSpec(bot="hard")], public=True)
    time.sleep(0.6)  # the first turns are being thought about (hard thinks for 1.5 s)
    platform.platform.restart("ai")  # SIGKILL: unacked turns are redelivered after the ack wait
    finished = _wait_finished(platform, match.id)
    assert finished.outcome.ranks
    log = _logged(platform, match.id)
    assert [v for v, _ in log] == list(range(1, len(log) + 1))
    request_ids = [rid for _, rid in log]
    assert len(set(request_ids)) == len(request_ids) == 10  # 5 rounds x 2 seats, each turn once
