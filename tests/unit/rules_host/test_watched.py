"""Watch leases on the owner's side: an audience is pushed to only while a gateway keeps its lease."""

from __future__ import annotations

import msgspec

from gamehall.engine import get_game
from gamehall.matches import LiveMatch, MatchFacts, SeatFacts
from gamehall.matches.owner import MatchOwner
from gamehall.matches.testing import MemoryLog, MemoryStore, RecordingPublisher
from gamehall.matches.watched import LEASE_SECONDS, PRUNE_EVERY_SECONDS, Watched


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _lease(*pairs: tuple[str, int | None]) -> bytes:
    return msgspec.json.encode([list(p) for p in pairs])


def test_an_audience_is_watched_until_its_lease_lapses_and_renewals_extend_it() -> None:
    clock = _Clock()
    watched = Watched(clock)
    assert watched.audiences("m1") == []
    watched.note(_lease(("m1", 0), ("m1", None), ("m2", 1)))
    assert sorted(watched.audiences("m1"), key=str) == [0, None]
    clock.now += LEASE_SECONDS - 1
    watched.note(_lease(("m1", None)))  # only the spectators' lease is renewed
    clock.now += 2
    assert watched.audiences("m1") == [None]
    assert watched.audiences("m2") == []
    clock.now += LEASE_SECONDS
    assert watched.audiences("m1") == [] and len(watched) == 0


def test_an_unreadable_lease_is_ignored_and_stale_matches_are_pruned() -> None:
    clock = _Clock()
    watched = Watched(clock)
    watched.note(b"{not json")
    watched.note(b'[["m1", "seat-zero"]]')
    assert len(watched) == 0
    watched.note(_lease(*((f"m{i}", 0) for i in range(100))))
    clock.now += max(LEASE_SECONDS, PRUNE_EVERY_SECONDS) + 1
    watched.note(_lease(("fresh", None)))  # prunes the lapsed ones without being asked about them
    assert len(watched) == 1 and watched.audiences("fresh") == [None]


class _Views(RecordingPublisher):
    """A publisher that pushes to the audiences with a live lease."""

    def __init__(self, watched: Watched) -> None:
        super().__init__()
        self.watched = watched

    def audiences(self, match_id: str) -> list[int | None] | None:
        return self.watched.audiences(match_id)


async def test_the_owner_builds_and_pushes_views_only_for_watched_audiences() -> None:
    game = get_game("grimmoir")
    seats = (SeatFacts(0, "human", "a"), SeatFacts(1, "human", "b"))
    facts = MatchFacts(id="m1", game=game.id, status="running", seed=3, config=game.configure().to_json(), seats=seats)
    live = LiveMatch.rebuild(game, facts, None, 0, [])
    seat = live.to_act[0]
    step = live.play(seat, live.legal(seat)[0], "r1", now_ms=1)
    live.commit(step)
    clock = _Clock()
    watched = Watched(clock)
    views = _Views(watched)
    pushed = views.pushed
    owner = MatchOwner(game, MemoryStore(), MemoryLog(), views)
    await owner._push(live, step)
    assert pushed == []  # nobody watches: nothing built, nothing sent
    watched.note(_lease(("m1", 1), ("other", None)))
    await owner._push(live, step)
    assert [(m, a) for m, a, _ in pushed] == [("m1", 1)]
    assert msgspec.json.decode(pushed[0][2].view_json) == msgspec.json.decode(msgspec.json.encode(live.view(1)))
    message = pushed[0][2]
    if 1 in live.to_act:  # the seat must act: its choice comes with its view (issue 39: no ListLegalActions)
        assert [a.id for a in message.legal_actions] == [live.describe(a)[0] for a in live.legal(1)]
    else:
        assert not message.legal_actions
    watched.note(_lease(("m1", 0)))
    pushed.clear()
    await owner._push(live, step)
    seat_zero = next(m for _, a, m in pushed if a == 0)
    assert bool(seat_zero.legal_actions) == (0 in live.to_act)
    assert live.to_act and any(s in live.to_act for s in (0, 1)), "one of the two pushes carried legal actions"
