"""Item 5 of issue 40: no prompt may reveal a hand; item 6: what everyone saw stays known.

A decision the rules keep secret must look the same to the others whether or not the seat could
make it: the views other seats get and the public events are compared between a seat that holds
the card and one that does not.
"""

from __future__ import annotations

import random
from typing import Any

from gamehall.engine.protocol import Event
from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers.actions import Choose, EndStandoff, Pass, Play
from gamehall.games.grimslingers.revival import DECLINE, JUJU
from gamehall.games.grimslingers.state import Phase, PromptKind, State

from .builders import BASICS, C, P, build, build_creature, keys


def _public(events: list[Event]) -> list[tuple[str, Any]]:
    return [(e.kind, dict(e.data)) for e in events if e.audience is None]


def _others_see(s: State, seat: int) -> list[Any]:
    return [GAME.view(s, o) for o in [None, *range(s.players)] if o != seat]


def _zeroed(hand: list[str], items: bool = False) -> tuple[State, list[Event]]:
    """Seat 1 at 2 HP takes ICE (2 DMG), passing; its hand is `hand`."""
    s = build([P(), P(hp=2, hand=hand)], options={"items": items})
    events: list[Event] = []
    for seat in (0, 1):
        s, ev = GAME.apply(s, seat, EndStandoff())
        events += ev
    s, ev = GAME.apply(s, 0, Play("ICE"))
    events += ev
    s, ev = GAME.apply(s, 1, Pass())
    events += ev
    return s, events


def test_item_5_resurrect_offer_looks_the_same_held_or_not() -> None:
    """Item 5: the Resurrect offer is put whether or not the seat holds Resurrect; the others'
    views and the public events are identical, before and after it declines."""
    with_card, ev_a = _zeroed([*BASICS[:5], "Resurrect"])
    without, ev_b = _zeroed([*BASICS[:5], "Magnify"])
    for s in (with_card, without):
        assert s.prompts and s.prompts[0].seat == 1 and s.prompts[0].kind == PromptKind.RESURRECT
    assert _others_see(with_card, 1) == _others_see(without, 1)
    assert _public(ev_a) == _public(ev_b)
    # only the seat itself learns its real answers
    assert GAME.legal_actions(with_card, 1) == [Choose(k) for k in range(0, with_card.seats[1].ep + 1)]
    assert GAME.legal_actions(without, 1) == [Choose(DECLINE)]
    a, ev_a = GAME.apply(with_card, 1, Choose(DECLINE))
    b, ev_b = GAME.apply(without, 1, Choose(DECLINE))
    assert _others_see(a, 1) == _others_see(b, 1) and _public(ev_a) == _public(ev_b)


def test_item_5_revive_juju_offer_looks_the_same_held_or_not() -> None:
    """Item 5: Revive Juju shares the one secret offer with Resurrect (answer revival.JUJU)."""
    with_card, _ = _zeroed([*BASICS[:5], "revive_juju.1"], items=True)
    without, _ = _zeroed([*BASICS[:5], "snake_oil.1"], items=True)
    # items are public (items_held), so compare with the item lists aligned: only the prompt matters
    for s in (with_card, without):
        assert s.prompts and s.prompts[0].kind == PromptKind.RESURRECT and s.prompts[0].options == [DECLINE]
    assert [v["prompts"] for v in _others_see(with_card, 1)] == [v["prompts"] for v in _others_see(without, 1)]
    assert GAME.legal_actions(with_card, 1) == [Choose(DECLINE), Choose(JUJU)]
    a, _ = GAME.apply(with_card, 1, Choose(JUJU))
    assert a.seats[1].hp >= 1 and "revive_juju.1" in keys(a.item_discard)


def test_item_5_engulf_options_do_not_reveal_wind() -> None:
    """Item 5: Engulf's prompt lists every option; whether the target holds WIND shows only in
    its own legal actions."""
    deck = ["claw", "howl", "lunge", "wail", "possess", "engulf"]

    def engulfed(hand: list[str]) -> tuple[State, list[Event]]:
        s = build_creature([P(hand=hand), P()], C(hp=15, ep=15, hand=deck), key="specter")
        events: list[Event] = []
        while not s.prompts:
            seat = min(GAME.to_act(s))
            action = Play("FIRE") if s.phase == Phase.FIRE and seat == 0 else GAME.legal_actions(s, seat)[0]
            if s.phase == Phase.FIRE and seat == 1:
                action = Pass()
            if s.phase == Phase.STANDOFF:
                action = EndStandoff()
            s, ev = GAME.apply(s, seat, action)
            events += ev
        return s, events

    with_wind, ev_a = engulfed(["FIRE", "ICE", "WIND"])
    without, ev_b = engulfed(["FIRE", "ICE", "EARTH"])
    for s in (with_wind, without):
        assert s.prompts[0].kind == PromptKind.SKILL_OPTION and s.prompts[0].seat == 0
        assert s.prompts[0].options == [0, 1, 2]
    assert [v["prompts"] for v in _others_see(with_wind, 0)] == [v["prompts"] for v in _others_see(without, 0)]
    assert _others_see(with_wind, 0) == _others_see(without, 0)
    assert _public(ev_a) == _public(ev_b)
    assert Choose(2) in GAME.legal_actions(with_wind, 0) and Choose(2) not in GAME.legal_actions(without, 0)


def _hushed() -> State:
    """Seat 0 Hushes seat 1, whose FIRE (revealed face up) goes back to its hand."""
    s = build([P(hand=[*BASICS, "Hush"]), P()])
    for seat in (0, 1):
        s, _ = GAME.apply(s, seat, EndStandoff())
    s, _ = GAME.apply(s, 0, Play("Hush"))
    s, events = GAME.apply(s, 1, Play("FIRE"))
    assert any(e.kind == "revealed" and e.data["card"] == "FIRE" and e.data["seat"] == 1 for e in events)
    assert "FIRE" in keys(s.seats[1].hand)
    return s


def test_item_6_hushed_card_stays_known_in_every_view() -> None:
    """Item 6: the card everyone saw go back to the hand is in every view (`hand_known`)."""
    s = _hushed()
    for observer in (None, 0, 1):
        assert GAME.view(s, observer)["players"][1]["hand_known"] == ["FIRE"]


def test_item_6_determinize_keeps_the_known_card_in_hand() -> None:
    """Item 6: a bot's determinized world never redraws a card all players saw."""
    s = _hushed()
    view = GAME.view(s, 0)
    for k in range(30):
        world = GAME.determinize(view, 0, random.Random(k))
        assert "FIRE" in keys(world.seats[1].hand)
        assert GAME.view(world, 0) == view


def test_item_6_knowledge_is_forgotten_when_a_card_may_have_gone_unseen() -> None:
    """Item 6: once the deactivated pile grows (a card may have gone there face down), the known
    card is no longer claimed; forgetting depends only on public facts (the pile's size)."""
    from gamehall.games.grimslingers.catalog import ID
    from gamehall.games.grimslingers.piles import deactivate_card, prune_shown

    s = _hushed()
    s.seats[1].hand.remove(ID["WATER"])
    deactivate_card(s, 1, ID["WATER"])
    prune_shown(s)
    assert GAME.view(s, 0)["players"][1]["hand_known"] == []
