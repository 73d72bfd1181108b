"""Match log entries: what a step writes, and the subject tag that routes it (bots read only `bot` entries,
the end only `end`); a takeover rebuilds the owner's state and request ids from the entries alone."""

from __future__ import annotations

import json
import random

from gamehall.engine import get_game
from gamehall.events.v1.log_pb2 import LogEntry
from gamehall.matches import LiveMatch, MatchFacts, SeatFacts
from gamehall.matches.live import SNAPSHOT_EVERY, forfeit_outcome
from gamehall.runtime.matchlog import BOT, END, MOVE, bot_filter, entry_tag, log_subject, match_filter
from gamehall.wire.matches import logged_from_entry
from gamehall.wire.matchlog import close_entry, entry_for_step


def _match(game_id: str, seats: tuple[SeatFacts, ...]) -> LiveMatch:
    game = get_game(game_id)
    config = game.configure(None, len(seats))
    facts = MatchFacts(id="m1", game=game.id, status="running", seed=11, config=config.to_json(), seats=seats)
    return LiveMatch.rebuild(game, facts, None, 0, [])


def _play_out(live: LiveMatch, rng: random.Random) -> list[LogEntry]:
    entries = []
    while live.outcome() is None and live.version < 400:
        seat = rng.choice(live.to_act)
        step = live.play(seat, rng.choice(live.legal(seat)), f"r{live.version}", now_ms=1_000 + live.version)
        entries.append(entry_for_step(live.game, live.facts, step, 1_000 + live.version))
        live.commit(step)
    return entries


def test_entries_after_which_a_bot_acts_are_tagged_for_the_ai_and_the_last_for_the_end() -> None:
    live = _match("grimmoir", (SeatFacts(0, "human", "alice"), SeatFacts(1, "bot", bot_difficulty="hard")))
    entries = _play_out(live, random.Random(5))
    assert entries and live.outcome() is not None
    for entry in entries[:-1]:
        bots_next = 1 in entry.to_act
        assert entry_tag(entry) == (BOT if bots_next else MOVE)
        assert [(t.seat, t.difficulty) for t in entry.bot_turns] == ([(1, "hard")] if bots_next else [])
    last = entries[-1]
    assert (entry_tag(last), last.status, last.bot_turns) == (END, "finished", [])
    assert json.loads(last.outcome_json)["ranks"] == list(live.outcome().ranks)  # type: ignore[union-attr]


def test_a_bot_turn_carries_exactly_its_seats_view_and_legal_actions() -> None:
    """The ai decides from the entry alone, so the turn holds what the seat's player would read through the
    API at that version: the seat's own view (never the human's hand) and its legal actions."""
    live = _match("grimmoir", (SeatFacts(0, "human", "alice"), SeatFacts(1, "bot", bot_difficulty="easy")))
    rng, checked = random.Random(3), 0
    while live.outcome() is None and live.version < 400:
        seat = rng.choice(live.to_act)
        step = live.play(seat, rng.choice(live.legal(seat)), f"r{live.version}", now_ms=1_000 + live.version)
        entry = entry_for_step(live.game, live.facts, step, 1_000)
        live.commit(step)
        for turn in entry.bot_turns:
            assert json.loads(turn.view_json) == json.loads(json.dumps(live.view(turn.seat)))
            assert json.loads(turn.view_json) != json.loads(json.dumps(live.view(0)))
            assert [c.id for c in turn.legal] == [live.describe(a)[0] for a in live.legal(turn.seat)]
            assert [live.game.parse_action(json.loads(c.action_json)) for c in turn.legal] == live.legal(turn.seat)
            checked += 1
    assert checked > 3


def test_snapshots_ride_every_few_dozen_entries_and_the_last() -> None:
    live = _match("grimmoir", (SeatFacts(0, "human", "a"), SeatFacts(1, "human", "b")))
    entries = _play_out(live, random.Random(2))
    with_state = [e.version for e in entries if e.snapshot]
    expected = [v for v in range(1, len(entries) + 1) if v % SNAPSHOT_EVERY == 0 or v == len(entries)]
    assert with_state == expected


def test_a_takeover_rebuilds_state_and_request_ids_from_the_entries() -> None:
    live = _match("tiny-epic-quest", tuple(SeatFacts(s, "human", f"p{s}") for s in range(2)))
    entries = _play_out(live, random.Random(9))
    game = live.game
    rebuilt = LiveMatch.rebuild(game, live.facts, None, 0, [logged_from_entry(e) for e in entries])
    assert game.encode(rebuilt.state) == game.encode(live.state)
    assert rebuilt.logged_requests == {(e.seat, e.request_id) for e in entries}
    assert all(rebuilt.logged_before(e.request_id, e.seat) for e in entries)  # a retry is answered, never replayed
    assert not any(rebuilt.logged_before(e.request_id, e.seat + 1) for e in entries)  # ids are the seat's own


def test_a_close_entry_keeps_the_version_and_ends_the_match() -> None:
    live = _match("grimmoir", (SeatFacts(0, "human", "a"), SeatFacts(1, "human", "b")))
    entry = close_entry(live.facts, 4, "finished", forfeit_outcome(2, 1, "resigned"), "forfeit:4:1", 5)
    assert (entry.kind, entry.version, entry_tag(entry)) == (LogEntry.KIND_CLOSE, 4, END)


def test_subjects_of_one_match_share_the_filter_the_compare_and_swap_uses() -> None:
    assert all(
        log_subject("grimmoir", "m1", tag).startswith(match_filter("grimmoir", "m1")[:-1]) for tag in (BOT, END, MOVE)
    )
    assert bot_filter("grimmoir") == "gamehall.v1.log.grimmoir.*.bot"


def test_bots_acting_at_once_are_announced_one_per_version_lowest_seat_first() -> None:
    """Every play expects its version, so of two bot turns announced at one version one was always refused
    after its search: each entry announces the lowest bot seat to act, and the next entry the one left."""
    from gamehall.testing.high_card import GAME as HIGH_CARD
    from gamehall.wire.outbox import turns_for_bots

    seats = (SeatFacts(0, "bot", bot_difficulty="easy"), SeatFacts(1, "bot", bot_difficulty="hard"))
    config = HIGH_CARD.configure(None, 2)
    facts = MatchFacts(id="m2", game=HIGH_CARD.id, status="running", seed=5, config=config.to_json(), seats=seats)
    live = LiveMatch.rebuild(HIGH_CARD, facts, None, 0, [])
    assert len(live.to_act) == 2  # both choose at once
    start = turns_for_bots("m2", HIGH_CARD.id, 0, live.to_act, facts.bot_seats(), {}, HIGH_CARD, live.state)
    assert [e.msg_id.rsplit(":", 1)[1] for e in start] == ["0"]
    while live.outcome() is None:
        seat = live.to_act[0]
        step = live.play(seat, live.legal(seat)[0], f"r{live.version}", now_ms=1_000)
        entry = entry_for_step(HIGH_CARD, live.facts, step, 1_000)
        live.commit(step)
        if live.outcome() is None:
            assert [(t.seat, t.difficulty) for t in entry.bot_turns] == [
                (min(live.to_act), seats[min(live.to_act)].bot_difficulty)
            ]
