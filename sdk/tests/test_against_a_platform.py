"""The SDK's own suite, run in a virtualenv that holds only `gamehall-sdk` (and its gRPC/protobuf
dependencies) against a running platform whose gateway address is GAMEHALL_SDK_TEST_ADDRESS (the
server's suite starts one: tests/e2e/test_sdk_distribution.py). Standard-library unittest only.

Two bots play a match to the end concurrently, errors come back named with their AIP-193 details,
lists are followed page by page, and matchmaking is followed through the ticket stream."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import random
import unittest
import uuid

from gamehall_sdk import (
    Gamehall,
    IllegalAction,
    InvalidRequest,
    NotFound,
    Unauthenticated,
    VersionConflict,
    play_seat,
    random_policy,
)
from gamehall_sdk.v1 import match_pb2
from gamehall_sdk.v1 import matchmaking_pb2 as mm

GAME = "high-card"
PASSWORD = "sdk suite passphrase 42"
ADDRESS = os.environ.get("GAMEHALL_SDK_TEST_ADDRESS", "")


def _name() -> str:
    return f"sdk-{uuid.uuid4().hex[:10]}"


@unittest.skipUnless(ADDRESS, "set GAMEHALL_SDK_TEST_ADDRESS to a running platform's gateway")
class AgainstAPlatform(unittest.IsolatedAsyncioTestCase):
    async def _player(self, timeout: float = 20.0) -> Gamehall:
        hall = Gamehall.connect(ADDRESS, timeout=timeout)
        self.addAsyncCleanup(hall.close)
        await hall.register(_name(), PASSWORD)
        return hall

    def test_the_server_is_not_installed_here(self) -> None:
        """This suite proves the SDK stands alone: nothing of the server distribution is importable."""
        self.assertIsNone(importlib.util.find_spec("gamehall"))
        self.assertIsNone(importlib.util.find_spec("gamehall_services"))

    async def test_two_sdk_bots_play_a_match_to_the_end(self) -> None:
        alice, bob = await self._player(), await self._player()
        assert alice.account is not None
        self.assertEqual((await alice.whoami()).id, alice.account.id)
        self.assertIsNotNone(alice.expires_at)
        match = await alice.matches.create(GAME, join_seat=0)
        self.assertEqual(match.status, match_pb2.MATCH_STATUS_OPEN)
        joined = await bob.matches.join(match.id)
        self.assertEqual((joined.seat, joined.match.status), (1, match_pb2.MATCH_STATUS_RUNNING))

        finals = await asyncio.wait_for(
            asyncio.gather(
                play_seat(alice, match.id, 0, random_policy(random.Random(1))),
                play_seat(bob, match.id, 1, random_policy(random.Random(2))),
            ),
            timeout=120,
        )
        for final in finals:
            self.assertEqual(final.status, match_pb2.MATCH_STATUS_FINISHED)
            self.assertIn(sorted(final.outcome.ranks), ([1, 2], [1, 1]))
            self.assertEqual(final.outcome.reason, "all cards played")
        replay = await alice.matches.replay(match.id)
        self.assertTrue(replay.complete)
        self.assertEqual([s.version for s in replay.steps], list(range(1, 11)))  # 5 rounds, both seats
        self.assertEqual(sorted(s.seat for s in replay.steps), [0] * 5 + [1] * 5)
        view = await alice.matches.view(match.id, 0)
        self.assertTrue(view.finished)
        self.assertEqual((view.version, view.data["hand"], len(view.data["revealed"][0])), (10, [], 5))

    async def test_errors_come_back_named(self) -> None:
        alice, bob = await self._player(), await self._player()
        anonymous = Gamehall.connect(ADDRESS)
        self.addAsyncCleanup(anonymous.close)
        with self.assertRaises(Unauthenticated) as unauthenticated:  # reads of public matches need no token
            await anonymous.matches.create(GAME, join_seat=0)
        self.assertEqual(unauthenticated.exception.reason, "UNAUTHENTICATED")
        self.assertIsNotNone(unauthenticated.exception.__cause__)

        match = await alice.matches.create(GAME, join_seat=0)
        await bob.matches.join(match.id)
        hand = (await alice.matches.view(match.id, 0)).data["hand"]
        missing = next(card for card in range(1, 13) if card not in hand)
        with self.assertRaises(IllegalAction) as illegal:
            await alice.matches.submit(match.id, 0, {"kind": "play", "card": missing})
        self.assertIn(f"card {missing}", illegal.exception.message)
        self.assertEqual(illegal.exception.reason, "ILLEGAL_ACTION")
        self.assertTrue(illegal.exception.trace_id, "the RequestInfo's trace id")

        legal = await alice.matches.legal(match.id, 0)
        self.assertEqual((legal.version, {a.kind for a in legal}), (0, {"play", "resign"}))
        with self.assertRaises(VersionConflict):
            await alice.matches.submit(match.id, 0, legal[0], expected_version=legal.version + 1)
        with self.assertRaises(InvalidRequest):
            await alice.matches.submit(match.id, 0, {"kind": "no-such-kind"})
        with self.assertRaises(NotFound):
            await alice.matches.get("no-such-match")

        played = await alice.matches.submit(match.id, 0, legal[0], expected_version=0, request_id="same-id")
        again = await alice.matches.submit(match.id, 0, legal[0], request_id="same-id")
        self.assertEqual((played.version, again.version, again.replayed, played.replayed), (1, 1, True, False))

    async def test_lists_follow_every_page(self) -> None:
        alice = await self._player(timeout=90.0)  # a fresh platform derives its games' view schemas first
        games = await alice.games()
        self.assertIn(GAME, {g.id for g in games})
        self.assertEqual(len(games), len({g.id for g in games}), "no game twice across pages")
        tournaments = await alice.tournaments.list("finished")
        self.assertTrue(all(t.status == 4 for t in tournaments))  # TOURNAMENT_STATUS_FINISHED
        board = await alice.matchmaking.leaderboard(GAME, limit=3)
        self.assertLessEqual(len(board), 3)
        self.assertEqual([r.rank for r in board], list(range(1, len(board) + 1)))

    async def _matched(self, hall: Gamehall, ticket_id: str) -> mm.Ticket:
        async with contextlib.aclosing(hall.matchmaking.watch_tickets(GAME, timeout=90)) as tickets:
            async for ticket in tickets:
                if ticket.id == ticket_id and ticket.status == mm.TICKET_STATUS_MATCHED:
                    return ticket
        raise AssertionError("the ticket stream ended before the ticket was matched")

    async def test_matchmaking_through_watch_tickets(self) -> None:
        alice, bob = await self._player(), await self._player()
        pool = f"sdk-{uuid.uuid4().hex}"  # only these two tickets meet
        first = await alice.matchmaking.enqueue(GAME, no_bots=True, pool=pool)
        self.assertEqual(first.status, mm.TICKET_STATUS_QUEUED)
        self.assertGreater(first.enqueue_time.seconds, 0)
        watching = asyncio.create_task(self._matched(alice, first.id))
        second = await bob.matchmaking.enqueue(GAME, no_bots=True, pool=pool)
        seen = await asyncio.wait_for(watching, timeout=90)
        theirs = await asyncio.wait_for(self._matched(bob, second.id), timeout=90)

        self.assertTrue(seen.match_id)
        self.assertEqual(seen.match_id, theirs.match_id)
        self.assertEqual((await alice.matchmaking.ticket(first.id)).status, mm.TICKET_STATUS_MATCHED)
        self.assertEqual({seen.seats[0], theirs.seats[0]}, {0, 1})
        # the seats are held for the players already: no JoinMatch, the match is running
        match = await alice.matches.get(seen.match_id)
        legal = await alice.matches.legal(seen.match_id, seen.seats[0])
        self.assertEqual(legal.version, 0)
        self.assertEqual((match.status, match.game), (match_pb2.MATCH_STATUS_RUNNING, GAME))
        assert alice.account is not None and bob.account is not None
        self.assertEqual({s.account_id for s in match.seats}, {alice.account.id, bob.account.id})
        rating = await alice.matchmaking.rating(GAME)
        self.assertEqual(rating.account_id, alice.account.id)


if __name__ == "__main__":
    unittest.main()
