"""Items 2 and 3 of issue 40: the hand limit holds at all times (R-063) and pieces may be traded
in at any time except while a story action resolves (S-26), in duels too."""

from __future__ import annotations

from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import Pick, Propose, Reload, Stash, TradeIn
from gamehall.games.grimslingers.state import Phase, State
from gamehall.games.grimslingers.tale_state import DuelKind, Step

from .tale_builders import act, keys, place, t_of, take_from_deck, tale


def _hard_duel() -> State:
    s = tale(1, "hard")  # hand limit 6
    place(s, "gulch")
    assert s.phase == Phase.STANDOFF and t_of(s).duel == DuelKind.ATTACK
    return s


def test_R_063_reload_in_a_duel_over_the_limit_stashes_at_once() -> None:
    """R-063 (item 2): a Reload that takes the hand to 8 of 6 is followed at once by the stash,
    before the duel goes on (not at the duel's end)."""
    s = _hard_duel()
    x = s.seats[0]
    x.hand = [c for c in x.hand if cat.KEYS[c] not in ("FIRE", "WATER")]
    x.discard = [cat.ID["FIRE"], cat.ID["WATER"]]
    for key in ("bandages.1", "snake_oil.1", "whiskey_flask.1", "silver_bullet.1"):
        if len(x.hand) < 6:
            x.hand.append(take_from_deck(s, key))
    x.ep = 8
    assert len(x.hand) == 6
    s, _ = act(s, 0, Reload())
    s, _ = act(s, 0, Pick("FIRE"))
    s, _ = act(s, 0, Pick("WATER"))  # the picking closes by itself: the discard is empty
    assert len(s.seats[0].hand) == 8 and s.picking is None
    creature = s.seats[s.creature]
    assert GAME.to_act(s) == {0} and creature.commit is None  # the Draw waits: the stash comes first
    legal = GAME.legal_actions(s, 0)
    assert legal and all(isinstance(a, Stash) for a in legal)  # nothing else happens first
    s, _ = act(s, 0, Stash("bandages.1"))
    assert GAME.to_act(s) == {0} and all(isinstance(a, Stash) for a in GAME.legal_actions(s, 0))
    s, _ = act(s, 0, Stash("snake_oil.1"))
    assert len(s.seats[0].hand) == 6 and keys(t_of(s).members[0].stash) == ["bandages.1", "snake_oil.1"]
    assert s.phase == Phase.FIRE and s.seats[s.creature].commit is not None  # then the duel goes on


def test_R_063_view_never_shows_a_hand_over_its_limit_waiting() -> None:
    """R-063 (item 2): no other seat acts while a hand is over its limit."""
    s = tale(2, "hard")
    place(s, "gulch")
    s.seats[1].hand += [take_from_deck(s, "bandages.1"), take_from_deck(s, "snake_oil.1")]
    assert GAME.to_act(s) == {1} and all(isinstance(a, Stash) for a in GAME.legal_actions(s, 1))
    assert GAME.legal_actions(s, 0) == []  # seat 0 waits, though the Standoff order is free


def _pieces(s: State, seat: int = 0) -> None:
    """Three Treasure Map Pieces in the seat's stash (trade-ins take them from hand or stash)."""
    for k in (1, 2, 3):
        t_of(s).members[seat].stash.append(take_from_deck(s, f"treasure_map_piece.{k}"))


def test_S_26_trade_in_during_a_duel_standoff_is_a_free_action() -> None:
    """S-26 (item 3): in a duel's Standoff; it uses no Standoff action."""
    s = tale(1, "easy")
    place(s, "gulch")
    _pieces(s)
    assert TradeIn("treasure_map_piece") in GAME.legal_actions(s, 0)
    s, events = act(s, 0, TradeIn("treasure_map_piece"))
    assert any(e.kind == "trade_in" for e in events)
    assert s.phase == Phase.STANDOFF and GAME.to_act(s) == {0} and s.seats[0].acted == 0
    assert not any(k.startswith("treasure_map_piece") for k in keys(s.seats[0].hand + t_of(s).members[0].stash))


def test_S_26_trade_in_at_a_group_decision() -> None:
    """S-26 (item 3): at a group decision (Movement), for the seat asked to act."""
    s = tale(2, "easy")
    place(s, "trailhead", step=Step.MOVE)
    d = t_of(s).decision
    assert d is not None
    other = 1 - d.proposer
    _pieces(s, other)
    s, _ = act(s, d.proposer, Propose(d.options[0]))
    assert GAME.to_act(s) == {other} and TradeIn("treasure_map_piece") in GAME.legal_actions(s, other)
    s, _ = act(s, other, TradeIn("treasure_map_piece"))
    assert t_of(s).decision is not None and GAME.to_act(s) == {other}  # still waiting for its answer


def test_S_26_no_trade_in_while_a_story_action_resolves() -> None:
    """S-26 (item 3): not in a story duel (the resolution of a story part's action)."""
    s = tale(1, "easy")
    place(s, "gulch")
    _pieces(s)
    t_of(s).duel = DuelKind.STORY
    assert not [a for a in GAME.legal_actions(s, 0) if isinstance(a, TradeIn)]
    t_of(s).duel = DuelKind.ATTACK
    t_of(s).step = Step.NARRATIVE
    assert not [a for a in GAME.legal_actions(s, 0) if isinstance(a, TradeIn)]
