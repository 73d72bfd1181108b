"""A finish rates its match in the transaction that projects it (SQLite and PostgreSQL): once however often it
is delivered, chained when one player finishes twice in a batch, and all or nothing with the rest of the batch."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import pytest

from gamehall.matchmaking import Rating, update
from gamehall.store import NewSeat, Store
from gamehall.store.projection import LogRecord, Settled
from gamehall.store.ratings import PlayerRating, RatedTeams, RatingConflict, RatingUpdate
from gamehall.store.records import Match, OutboxMessage, Seat
from gamehall.store.transaction import Row
from tests.integration.store.helpers import DUEL, account
from tests.integration.store.test_projection import action

GAME, MODE = "high-card", "duel"
WON_BY_SEAT_0 = json.dumps({"ranks": [1, 2], "scores": None, "reason": "all cards played"})


class OneTeamPerHuman:
    """A rater without an engine: each human seat is a team of its own."""

    def __init__(self, claimed_matches: int | None = None) -> None:
        self.claimed_matches = claimed_matches
        """When set, every update claims this stored match count (a stale read, to provoke a conflict)."""

    def teams(
        self, match_id: str, game: str, mode: str, seats: Sequence[Seat], ranks: Sequence[int]
    ) -> RatedTeams | None:
        humans = [s for s in seats if s.kind == "human" and s.account_id]
        if len(humans) < 2:
            return None
        return RatedTeams(
            teams=tuple((s.account_id or "",) for s in humans), ranks=tuple(ranks[s.seat] for s in humans)
        )

    def update(self, teams: RatedTeams, before: Mapping[str, PlayerRating]) -> Sequence[RatingUpdate]:
        current = {p: Rating(r.mu, r.sigma, r.matches) for p, r in before.items()}
        after = update(current, teams.teams, teams.ranks)
        return [
            RatingUpdate(
                account=p,
                expected_matches=self.claimed_matches
                if self.claimed_matches is not None
                else (before[p].matches if p in before else 0),
                mu=r.mu,
                sigma=r.sigma,
            )
            for p, r in after.items()
        ]


def keep(settled: dict[str, Settled]):  # type: ignore[no-untyped-def]
    def capture(record: LogRecord, row: Row, done: Settled) -> list[OutboxMessage]:
        settled[record.match_id] = done
        return []

    return capture


async def duel(store: Store, *players: str, bot: bool = False) -> Match:
    seats = [NewSeat(kind="human", account_id=p) for p in players]
    if bot:
        seats.append(NewSeat(kind="bot", bot_difficulty="easy"))
    return await store.create_match(game=GAME, config=DUEL, seats=seats, status="running")


def finish(match: Match, seq: int, outcome: str = WON_BY_SEAT_0) -> LogRecord:
    return action(match.id, seq, 1, status="finished", outcome=outcome)


async def test_a_finish_rates_its_match_once_however_often_it_is_delivered(store: Store) -> None:
    alice, bob = (await account(store, "alice")).id, (await account(store, "bob")).id
    match = await duel(store, alice, bob)
    settled: dict[str, Settled] = {}
    result = await store.project([finish(match, 1)], keep(settled), OneTeamPerHuman())
    assert result.rated == ((GAME, MODE),) and settled[match.id].ratings_settled and settled[match.id].rated
    expected = update({}, [[alice], [bob]], [1, 2])
    stored = await store.ratings(GAME, MODE, [alice, bob])
    assert {p: (r.mu, r.sigma, r.matches) for p, r in stored.items()} == {
        p: (pytest.approx(r.mu), pytest.approx(r.sigma), 1) for p, r in expected.items()
    }
    assert await store.is_rated(match.id)
    again = await store.project([finish(match, 1)], keep(settled), OneTeamPerHuman())
    assert (again.written, again.rated) == (0, ())
    assert (await store.ratings(GAME, MODE, [alice]))[alice].matches == 1


async def test_two_finishes_of_one_player_in_a_batch_chain_in_log_order(store: Store) -> None:
    alice, bob, carol = [(await account(store, name)).id for name in ("alice", "bob", "carol")]
    first, second = await duel(store, alice, bob), await duel(store, carol, alice)
    result = await store.project([finish(first, 1), finish(second, 2)], keep({}), OneTeamPerHuman())
    assert result.rated == ((GAME, MODE), (GAME, MODE))
    after_first = update({}, [[alice], [bob]], [1, 2])
    after_second = update(after_first, [[carol], [alice]], [1, 2])
    stored = (await store.ratings(GAME, MODE, [alice]))[alice]
    assert (stored.mu, stored.sigma, stored.matches) == (
        pytest.approx(after_second[alice].mu),
        pytest.approx(after_second[alice].sigma),
        2,
    )


async def test_a_match_that_rates_nobody_or_was_aborted_settles_without_a_rating(store: Store) -> None:
    alice = (await account(store, "alice")).id
    against_a_bot = await duel(store, alice, bot=True)
    aborted = await duel(store, alice, (await account(store, "bob")).id)
    settled: dict[str, Settled] = {}
    close = LogRecord(
        match_id=aborted.id, seq=2, version=0, kind="close", status="aborted", created_at=finish(aborted, 2).created_at
    )
    result = await store.project([finish(against_a_bot, 1), close], keep(settled), OneTeamPerHuman())
    assert result.rated == () and await store.ratings(GAME, MODE, [alice]) == {}
    assert settled[against_a_bot.id].ratings_settled and not settled[against_a_bot.id].rated
    assert settled[aborted.id] == Settled()  # an abort settles nothing
    assert not await store.is_rated(against_a_bot.id) and not await store.is_rated(aborted.id)


async def test_without_a_rater_a_finish_settles_no_rating(store: Store) -> None:
    alice, bob = (await account(store, "alice")).id, (await account(store, "bob")).id
    match = await duel(store, alice, bob)
    settled: dict[str, Settled] = {}
    await store.project([finish(match, 1)], keep(settled))
    assert not settled[match.id].ratings_settled and not await store.is_rated(match.id)


async def test_a_rating_that_moved_meanwhile_fails_the_whole_batch_and_writes_nothing(store: Store) -> None:
    """A second writer (another persistence replica) moved a rating after it was read: the
    batch rolls back whole, the match is still running in SQL, and its redelivery rates it from fresh values."""
    alice, bob = (await account(store, "alice")).id, (await account(store, "bob")).id
    match = await duel(store, alice, bob)
    other = await duel(store, alice, bob)
    running = action(other.id, 1, 1)
    with pytest.raises(RatingConflict):
        await store.project([running, finish(match, 2)], keep({}), OneTeamPerHuman(claimed_matches=5))
    assert (await store.get_match(match.id)).status == "running" and await store.get_actions(other.id) == []
    assert not await store.is_rated(match.id) and await store.ratings(GAME, MODE, [alice, bob]) == {}
    result = await store.project([running, finish(match, 2)], keep({}), OneTeamPerHuman())
    assert result.rated == ((GAME, MODE),) and (await store.ratings(GAME, MODE, [alice]))[alice].matches == 1


async def test_many_finishes_in_one_batch_settle_as_they_would_one_batch_each(store: Store) -> None:
    """A batch settles its finishes together (a few statements for all of them): the ratings, the rated marks and
    what each finish settled are those of projecting the same finishes one per batch."""
    lost = json.dumps({"ranks": [2, 1], "scores": None, "reason": "all cards played"})

    async def play(prefix: str) -> tuple[list[str], list[LogRecord], dict[str, Settled]]:
        names = [(await account(store, f"{prefix}{n}")).id for n in range(4)]
        rated_before = await duel(store, names[2], names[3])  # two of the players have a rating already
        assert (await store.project([finish(rated_before, 1)], keep({}), OneTeamPerHuman())).rated
        pairs = [(0, 1), (1, 0), (0, 2), (2, 3), (3, 1), (0, 1)]
        ends = []
        for n, (a, b) in enumerate(pairs):
            match = await duel(store, names[a], names[b])
            ends.append(finish(match, n + 1, WON_BY_SEAT_0 if n % 3 else lost))
        against_a_bot = await duel(store, names[0], bot=True)
        ends.append(finish(against_a_bot, len(pairs) + 1))
        return names, ends, {}

    together_names, together, settled_together = await play("t")
    result = await store.project(together, keep(settled_together), OneTeamPerHuman())
    assert len(result.rated) == 6
    apart_names, apart, settled_apart = await play("a")
    for end in apart:
        await store.project([end], keep(settled_apart), OneTeamPerHuman())

    def shape(names: list[str], ratings: Mapping[str, PlayerRating]) -> list[tuple[object, ...]]:
        return [(pytest.approx(ratings[p].mu), pytest.approx(ratings[p].sigma), ratings[p].matches) for p in names]

    assert shape(together_names, await store.ratings(GAME, MODE, together_names)) == shape(
        apart_names, await store.ratings(GAME, MODE, apart_names)
    )
    assert [(s.ratings_settled, s.rated, len(s.seats)) for s in settled_together.values()] == [
        (s.ratings_settled, s.rated, len(s.seats)) for s in settled_apart.values()
    ]
    assert [await store.is_rated(e.match_id) for e in together] == [await store.is_rated(e.match_id) for e in apart]
