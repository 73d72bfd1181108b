"""Tall Tale scenarios S-26, S-43..S-54 and S-56 of the specification, each test named by its id."""

from __future__ import annotations

import pytest

from gamehall.engine.errors import IllegalAction, NotYourTurn
from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import (
    Accept,
    Decide,
    Discard,
    Done,
    EndStandoff,
    Flee,
    Organize,
    Pass,
    Pick,
    Propose,
    Reactivate,
    Reject,
    Reload,
    Select,
    Stash,
    StopPicking,
    TradeIn,
    Unstash,
    UseCard,
)
from gamehall.games.grimslingers.content.tale_schema import TaleEffect
from gamehall.games.grimslingers.creatures import check_end
from gamehall.games.grimslingers.state import Phase, State
from gamehall.games.grimslingers.tale_content import EVENTS, NODE_ID, NODES
from gamehall.games.grimslingers.tale_duel import FLED, LOST, WON
from gamehall.games.grimslingers.tale_effects import apply, take_named
from gamehall.games.grimslingers.tale_state import Activity, DecisionKind, DuelKind, Step

from .tale_builders import act, advance, ids, keys, place, t_of, take_from_deck, tale, top_event

# ------------------------------------------------------------------ S-26


def test_S_26_three_treasure_map_pieces_trade_in_for_what_the_card_stipulates() -> None:
    s = tale(1)
    pieces = [take_from_deck(s, f"treasure_map_piece.{k}") for k in (1, 2, 3)]
    s.seats[0].hand.append(pieces[0])
    t_of(s).members[0].stash += pieces[1:]  # three collected, two of them in the stash
    place(s, "trailhead")
    assert TradeIn("treasure_map_piece") in GAME.legal_actions(s, 0)
    deck_before = len(s.item_deck)
    s, events = act(s, 0, TradeIn("treasure_map_piece"))
    assert all(p in s.item_discard for p in pieces)
    gained = next(e for e in events if e.kind == "trade_in").data["gained"]
    assert len(gained) == 3 and len(s.item_deck) == deck_before - 3
    assert all(k in keys(s.seats[0].hand) for k in gained)


def test_S_26_two_map_pieces_and_a_hex_fragment_do_not_qualify() -> None:
    s = tale(1, "easy")
    s.seats[0].hand += [take_from_deck(s, k) for k in ("treasure_map_piece.1", "treasure_map_piece.2")]
    t_of(s).members[0].stash.append(take_from_deck(s, "hex_fragment.1"))
    place(s, "trailhead")
    assert not [a for a in GAME.legal_actions(s, 0) if isinstance(a, TradeIn)]
    with pytest.raises(IllegalAction):
        act(s, 0, TradeIn("treasure_map_piece"))


def test_S_26_three_hex_fragments_craft_an_item_and_never_during_a_story_action() -> None:
    s = tale(1)
    t_of(s).members[0].stash += [take_from_deck(s, f"hex_fragment.{k}") for k in (1, 2, 3)]
    place(s, "trailhead")
    crafts = [a for a in GAME.legal_actions(s, 0) if isinstance(a, TradeIn)]
    assert {a.craft for a in crafts} == {
        "lucky_charm",
        "frog_mans_drum",
        "the_devils_deck",
        "prosthetic_pistol",
        "bloody_grimoire",
    }
    s, _ = act(s, 0, TradeIn("hex_fragment", "the_devils_deck"))
    assert "the_devils_deck" in keys(s.seats[0].hand)
    # a story part resolves inside the Narrative phase, where no seat is asked anything (no trade-in possible)
    s2 = tale(1)
    t_of(s2).members[0].stash += [take_from_deck(s2, f"hex_fragment.{k}") for k in (1, 2, 3)]
    events = place(s2, "haven", step=Step.NARRATIVE, part=1)
    assert any(e.kind == "story" for e in events) and t_of(s2).part == 2


# ------------------------------------------------------------------ S-43


def test_S_43_goblin_grotto_individual_sequential_sneaks_with_a_reshuffle() -> None:
    s = tale(2, "normal")
    for x in s.seats:
        x.hp = x.max_hp
    t = t_of(s)
    t.numbers = [7, 9, 2, 6, 5, 4]  # flipped from the end: 4, 5
    place(s, "grotto")
    assert t_of(s).activity == Activity.SNEAK and GAME.to_act(s) == {0}
    s, _ = act(s, 0, Select("sneak"))
    s, _ = act(s, 0, Select("flip"))
    assert t_of(s).numbers_seen == [4, 5] and GAME.to_act(s) == {0}  # P2 cannot act while P1 flips
    with pytest.raises(NotYourTurn):
        act(s, 1, Select("sneak"))
    assert GAME.legal_actions(s, 0) == [Stash(k) for k in sorted(set(keys(s.seats[0].hand)))]  # at once
    s, _ = act(s, 0, Stash("FIRE"))
    s, events = act(s, 0, Select("stop"))
    assert any(e.kind == "numbers_reshuffled" for e in events)
    assert len(t_of(s).numbers) == 10 and t_of(s).numbers_seen == [] and GAME.to_act(s) == {1}
    s, _ = act(s, 1, Select("pass"))
    assert t_of(s).activity == Activity.CAMP  # then hand and stash may be organized
    for seat in (0, 1):
        s, _ = act(s, seat, Done())
    assert t_of(s).decision is not None and t_of(s).decision.kind == DecisionKind.MOVE  # Movement


# ------------------------------------------------------------------ S-44


def test_S_44_behemoth_discarding_a_deactivate_on_use_item() -> None:
    s = tale(1, "easy")
    s.seats[0].hand.append(take_from_deck(s, "arcane_hand_cannon.1"))
    top_event(s, "behemoth_be_comin")
    place(s, "crossroads")
    blast = next(i for i, o in enumerate(EVENTS[t_of(s).event].options) if o.key == "blast")
    s, _ = act(s, 0, Propose(blast))
    assert t_of(s).activity == Activity.BEHEMOTH
    for card in ("FIRE", "ICE", "arcane_hand_cannon.1"):
        s, _ = act(s, 0, Discard(card))
    x = s.seats[0]
    assert t_of(s).behemoth == 3  # the Cannon adds 1 DMG to the total
    assert cat.ID["arcane_hand_cannon.1"] in x.deact and cat.ID["arcane_hand_cannon.1"] not in s.item_discard
    assert keys(x.discard) == ["FIRE", "ICE"]


# ------------------------------------------------------------------ S-45


def _rest_fixture() -> State:
    s = tale(1)
    x = s.seats[0]
    x.max_hp = x.max_ep = 8
    x.hp, x.ep = 3, 1
    x.deact = [x.hand.pop() for _ in range(4)] + ids(["snake_oil.1", "whiskey_flask.1"])
    for k in ("snake_oil.1", "whiskey_flask.1"):
        s.item_deck.remove(cat.ID[k])
    x.hand += [take_from_deck(s, "frog_mans_drum.1"), take_from_deck(s, "snake_oil.2")]
    t_of(s).members[0].stash = [take_from_deck(s, "bandages.1"), take_from_deck(s, "silver_bullet.1")]
    place(s, "trailhead")
    return s


def test_S_45_rest_node_heals_then_one_refresh_and_one_standoff_item() -> None:
    s = _rest_fixture()
    x = s.seats[0]
    assert (x.hp, x.ep) == (5, 3)
    assert Unstash("bandages.1") in GAME.legal_actions(s, 0) and Stash("FIRE") in GAME.legal_actions(s, 0)
    s, _ = act(s, 0, Reactivate())
    for _ in range(5):
        card = next(a for a in GAME.legal_actions(s, 0) if isinstance(a, Pick))
        s, _ = act(s, 0, card)
    assert s.seats[0].ep == 0 and len(s.seats[0].deact) == 1 and s.picking is None
    assert len(s.seats[0].hand) == 9  # over the limit of 7: two cards go to the stash at once
    for card in ("FIRE", "WATER"):
        s, _ = act(s, 0, Stash(card))
    legal = GAME.legal_actions(s, 0)
    assert Reload() not in legal and Reactivate() not in legal
    with pytest.raises(IllegalAction):
        act(s, 0, Reload())
    assert Unstash("bandages.1") not in legal  # the hand is at its limit now
    s, _ = act(s, 0, UseCard("snake_oil.2"))
    assert not [a for a in GAME.legal_actions(s, 0) if isinstance(a, UseCard)]
    with pytest.raises(IllegalAction):
        act(s, 0, UseCard("frog_mans_drum.1"))


# ------------------------------------------------------------------ S-46


def _move_options(s: State, node: str, last_start: str | None) -> list[str]:
    place(s, node, step=Step.MOVE, last_start=last_start)
    decision = t_of(s).decision
    assert decision is not None and decision.kind == DecisionKind.MOVE
    return sorted(NODES[o].key for o in decision.options)


def test_S_46_movement_no_backtracking() -> None:
    s = tale(1)
    # the chapter's first turn has no restriction; staying is never an option
    assert _move_options(s, "trailhead", None) == ["crossroads", "gulch"]
    assert _move_options(s, "gulch", "trailhead") == ["haven", "mesa"]
    assert _move_options(s, "haven", "gulch") == ["canyon", "crossroads", "dry_creek"]
    with pytest.raises(IllegalAction):
        act(s, 0, Propose(NODE_ID["gulch"]))
    s, events = act(s, 0, Propose(NODE_ID["canyon"]))
    t = t_of(s)
    assert t.last_start == NODE_ID["haven"] and t.turn_start == NODE_ID["canyon"]
    assert any(e.kind == "move" for e in events)


def test_S_46_the_group_decides_moves_by_proposal_or_roll_off() -> None:
    s = tale(2)
    place(s, "trailhead", step=Step.MOVE)
    assert GAME.to_act(s) == {0}
    s, _ = act(s, 0, Propose(NODE_ID["gulch"]))
    assert GAME.to_act(s) == {1} and GAME.legal_actions(s, 1) == [Accept(), Reject()]
    s, events = act(s, 1, Reject())
    winner = t_of(s).decision.decider  # type: ignore[union-attr]
    assert any(e.kind == "roll_off" for e in events) and GAME.to_act(s) == {winner}
    s, _ = act(s, winner, Decide(NODE_ID["crossroads"]))
    assert t_of(s).last_start == NODE_ID["trailhead"] and t_of(s).turn_start == NODE_ID["crossroads"]


# ------------------------------------------------------------------ S-47


def _lose_duel(s: State) -> State:
    """Every player only ends the Standoff and passes until the duel is over."""
    while s.phase not in (Phase.ADVENTURE, Phase.OVER):
        seat = min(GAME.to_act(s))
        legal = GAME.legal_actions(s, seat)
        for choice in (EndStandoff(), Pass(), StopPicking()):
            if choice in legal:
                break
        else:
            choice = legal[-1]
        s, _ = act(s, seat, choice)
    return s


def _attack(difficulty: str, players: int = 1) -> State:
    s = tale(players, difficulty)
    for x in s.seats:
        x.hand = [c for c in x.hand if not cat.IS_ITEM[c]]
    place(s, "gulch")
    assert s.phase == Phase.STANDOFF and s.creature == players and t_of(s).duel == DuelKind.ATTACK
    return s


def test_S_47_solo_creature_duel_defeat_on_normal() -> None:
    s = _attack("normal")
    assert len(s.modifiers) == 1 and t_of(s).defeats_left == 2
    s.seats[0].discard = [s.seats[0].hand.pop()]
    piles = (list(s.seats[0].discard), list(s.seats[0].deact))
    s = _lose_duel(s)
    t, x = t_of(s), s.seats[0]
    assert t.defeats_left == 1 and (x.hp, x.ep) == (3, 3) and x.alive
    assert s.creature == -1 and s.n == 1 and s.modifiers == [] and s.creature_deck == []  # space cleaned up
    assert t.award == [] and t.members[0].level == 0 and t.duels_won == 0  # no rewards, no levels
    assert set(piles[0]) <= set(x.discard)  # the piles stay as they are (the duel added to them)
    assert t.decision is not None and t.decision.kind == DecisionKind.MOVE


def test_S_47_impossible_variant_is_game_over_and_hard_revives_two_two() -> None:
    s = _lose_duel(_attack("impossible"))
    assert s.phase == Phase.OVER and GAME.outcome(s) is not None and GAME.outcome(s).ranks == (2,)  # type: ignore[union-attr]
    s = _lose_duel(_attack("hard"))
    assert t_of(s).defeats_left == 0 and (s.seats[0].hp, s.seats[0].ep) == (2, 2)
    place(s, "dry_creek")
    s = _lose_duel(s)
    assert s.phase == Phase.OVER and s.reason == "allowed defeats used up"


# ------------------------------------------------------------------ S-48


def test_S_48_coop_duel_defeat_revives_at_the_next_duel_turn() -> None:
    s = _attack("easy", players=2)
    p1 = s.seats[0]
    p1.hp, p1.alive = 0, False  # P1 fell in this turn's Aftermath; P2 stands
    s.standoff_open = False
    s.turn = 4
    advance(s)  # the next duel turn starts
    assert t_of(s).defeats_left == 3 and s.seats[0].alive and (s.seats[0].hp, s.seats[0].ep) == (5, 5)
    assert s.phase == Phase.STANDOFF and s.creature == 2


def test_S_48_variant_duel_ends_the_same_turn_revival_at_movement_rewards_kept() -> None:
    s = _attack("easy", players=2)
    s.seats[0].hp, s.seats[0].alive = 0, False
    s.seats[2].hp, s.seats[2].alive = 0, False  # the creature is defeated the same turn
    assert check_end(s)
    advance(s)
    t = t_of(s)
    assert t.defeats_left == 3 and s.seats[0].alive and (s.seats[0].hp, s.seats[0].ep) == (5, 5)
    assert t.duels_won == 1 and t.decision is not None and t.decision.kind == DecisionKind.ITEM_OWNER
    assert all(m.level >= 1 for m in t.members)  # the group still gains the rewards (levels too)


# ------------------------------------------------------------------ S-49


def _grotto(players: int, difficulty: str) -> State:
    s = tale(players, difficulty)
    for x in s.seats:
        x.hp = x.max_hp
    return s


def test_S_49_coop_landmark_partial_defeat() -> None:
    s = _grotto(3, "normal")
    s.seats[0].hp = 2
    t_of(s).numbers = [9, 8, 1, 4]  # flipped from the end: P1 flips 4 (an item), then 1: caught, 2 HP lost
    place(s, "grotto")
    s, _ = act(s, 0, Select("sneak"))
    loot = keys(s.seats[0].hand)[-1]
    s, _ = act(s, 0, Select("flip"))
    assert t_of(s).members[0].down and loot not in keys(s.seats[0].hand)  # no reward for that choice
    assert GAME.to_act(s) == {1}
    for seat in (1, 2):
        t_of(s).numbers = [1, 2, 3, 9, 7]  # 7: a Treasure Map Piece
        s, _ = act(s, seat, Select("sneak"))
        assert "treasure_map_piece" in keys(s.seats[seat].hand)[-1]
        s, _ = act(s, seat, Select("stop"))
    for seat in (1, 2):  # the camp turns of those still standing
        s, _ = act(s, seat, Done())
    t = t_of(s)
    assert t.defeats_left == 1 and not t.members[0].down and (s.seats[0].hp, s.seats[0].ep) == (3, 3)
    assert t.decision is not None and t.decision.kind == DecisionKind.MOVE


def test_S_49_variant_all_three_defeated_with_two_allowed_is_game_over() -> None:
    s = _grotto(3, "normal")
    place(s, "grotto")
    for seat in range(3):
        s.seats[seat].hp = 2
        t_of(s).numbers = [5, 6, 1]
        s, _ = act(s, seat, Select("sneak"))
    assert s.phase == Phase.OVER and s.reason == "allowed defeats used up"


# ------------------------------------------------------------------ S-50


def test_S_50_coop_event_all_defeated() -> None:
    s = tale(2, "easy")
    for x in s.seats:
        x.hp = 2
    top_event(s, "snake_pit")
    place(s, "crossroads")
    jump = next(i for i, o in enumerate(EVENTS[t_of(s).event].options) if o.key == "jump")
    s, _ = act(s, 0, Propose(jump))
    s, _ = act(s, 1, Accept())
    t = t_of(s)
    assert t.defeats_left == 2 and t.event == -1 and EVENTS[t.event_discard[-1]].key == "snake_pit"
    assert [(x.hp, x.ep) for x in s.seats] == [(min(5, x.max_hp), min(5, x.max_ep)) for x in s.seats]
    assert t.decision is not None and t.decision.kind == DecisionKind.MOVE


# ------------------------------------------------------------------ S-51


def test_S_51_rest_node_self_defeat_solo() -> None:
    s = tale(1, "normal")
    s.seats[0].hp = 1
    s.seats[0].hand.append(take_from_deck(s, "blood_tonic.1"))
    place(s, "trailhead")
    assert s.seats[0].hp == 3  # +2 at the Rest
    s.seats[0].hp = 2  # the Blood Tonic costs 2 HP
    s, _ = act(s, 0, UseCard("blood_tonic.1"))
    t = t_of(s)
    assert t.defeats_left == 1 and (s.seats[0].hp, s.seats[0].ep) == (3, 3)
    assert t.activity == Activity.NONE and t.decision is not None and t.decision.kind == DecisionKind.MOVE


def test_S_51_rest_node_self_defeat_coop_the_others_continue() -> None:
    s = tale(2, "normal")
    s.seats[0].hand.append(take_from_deck(s, "blood_tonic.1"))
    place(s, "trailhead")
    s.seats[0].hp = 2
    s, _ = act(s, 0, UseCard("blood_tonic.1"))
    assert t_of(s).members[0].down and GAME.to_act(s) == {1}  # P1 takes no more actions
    s, _ = act(s, 1, Done())
    assert t_of(s).defeats_left == 1 and (s.seats[0].hp, s.seats[0].ep) == (3, 3)


# ------------------------------------------------------------------ S-52


def test_S_52_creature_rewards_ritual_item_from_the_discard_and_a_roll_off() -> None:
    s = tale(2, "easy")
    guts = take_from_deck(s, "chupa_guts")
    s.item_discard.append(guts)
    alpha = next(k for k, m in enumerate(cat.MODIFIERS) if m.key == "alpha")
    from gamehall.engine.rng import Rng
    from gamehall.games.grimslingers import tale_duel

    place(s, "gulch", step=Step.MOVE)
    t_of(s).decision = None
    tale_duel.start(s, DuelKind.ATTACK, "chupacabra", [alpha], [], Rng(5))
    s.seats[2].hp, s.seats[2].alive = 0, False
    assert check_end(s)
    advance(s)
    t = t_of(s)
    awarded = list(t.award)
    assert guts in awarded and guts not in s.item_discard
    assert len(awarded) == 3  # Chupa Guts (its second portrait item), 1 more portrait item, 1 from Alpha
    assert t.decision is not None and t.decision.kind == DecisionKind.ITEM_OWNER
    s, _ = act(s, 0, Propose(1))
    s, events = act(s, 1, Reject())
    winner = t_of(s).decision.decider  # type: ignore[union-attr]
    s, _ = act(s, winner, Decide(winner))
    assert guts in s.seats[winner].hand and any(e.kind == "roll_off" for e in events)
    assert set(awarded) <= set(s.seats[0].hand + s.seats[1].hand + t_of(s).award)


def test_S_52_variant_owned_named_item_gives_nothing_and_named_plus_random_shuffles_first() -> None:
    s = tale(2, "easy")
    blade = take_from_deck(s, "hexilion_blade")
    s.seats[1].hand.append(blade)
    from gamehall.engine.rng import Rng

    events: list = []
    apply(s, [TaleEffect("named_item", who="group", name="hexilion_blade")], [0, 1], events, Rng(3))
    assert t_of(s).award == [] and blade in s.seats[1].hand and any(e.kind == "no_item" for e in events)
    before = list(s.item_deck)
    rng = Rng(9)
    card = take_named(s, "lucky_charm", rng)
    rest = [c for c in before if c != card]
    assert card in before and sorted(s.item_deck) == sorted(rest) and s.item_deck != rest  # searched, then shuffled
    top = [s.item_deck[-1], s.item_deck[-2]]
    apply(s, [TaleEffect("items", 2, "group")], [0, 1], events, rng)
    assert t_of(s).award == top  # then dealt from the top of the shuffled deck


# ------------------------------------------------------------------ S-53


def test_S_53_hand_limit_overflow_goes_to_the_stash_by_choice() -> None:
    s = tale(1, "hard")
    assert GAME.view(s, 0)["tale"]["members"][0]["hand_limit"] == 6
    s.seats[0].hand += [take_from_deck(s, "bandages.1"), take_from_deck(s, "silver_bullet.1")]
    place(s, "haven", step=Step.MOVE)
    assert t_of(s).decision is None and GAME.to_act(s) == {0}  # the stash comes first
    assert not [a for a in GAME.legal_actions(s, 0) if not isinstance(a, Stash)]
    s, _ = act(s, 0, Stash("WIND"))
    s, _ = act(s, 0, Stash("bandages.1"))
    assert len(s.seats[0].hand) == 6 and keys(t_of(s).members[0].stash) == ["WIND", "bandages.1"]
    assert t_of(s).decision is not None  # then the adventure goes on (Movement)


def test_S_53_stash_only_through_organize_in_a_duel_and_never_for_a_discard() -> None:
    s = tale(1, "hard")
    t_of(s).members[0].stash = [take_from_deck(s, "bandages.1")]
    s.seats[0].hand.pop()
    place(s, "gulch")
    assert s.phase == Phase.STANDOFF
    assert Unstash("bandages.1") not in GAME.legal_actions(s, 0)
    s, _ = act(s, 0, Organize())
    s, _ = act(s, 0, Unstash("bandages.1"))
    assert "bandages.1" in keys(s.seats[0].hand) and Unstash("bandages.1") not in GAME.legal_actions(s, 0)
    s, _ = act(s, 0, StopPicking())
    # item 22 (was "phase != STANDOFF or ..."): Organize was the seat's one action, so its Standoff is over
    assert s.seats[0].acted == 1 and s.phase == Phase.FIRE
    s2 = tale(1, "hard")
    t_of(s2).members[0].stash = [take_from_deck(s2, "bandages.1")]
    top_event(s2, "behemoth_be_comin")
    place(s2, "crossroads")
    s2, _ = act(s2, 0, Propose(1))
    assert Discard("bandages.1") not in GAME.legal_actions(s2, 0)  # the stash is out of reach


# ------------------------------------------------------------------ S-54


def test_S_54_flee_everyone_flees_an_attack_duel() -> None:
    s = _attack("normal")
    level = t_of(s).members[0].level
    s, events = act(s, 0, Flee())
    t = t_of(s)
    assert any(e.kind == "duel_over" and e.data["outcome"] == FLED for e in events)
    assert s.creature == -1 and t.award == [] and t.members[0].level == level and t.duels_won == 0
    assert t.decision is not None and t.decision.kind == DecisionKind.MOVE


def test_S_54_one_player_stays_every_flee_fails() -> None:
    s = _attack("normal", players=2)
    s, _ = act(s, 0, Flee())
    s, _ = act(s, 1, EndStandoff())
    assert s.creature == 2 and s.phase == Phase.FIRE  # the duel goes on; P1's Standoff action is spent
    assert Flee() not in GAME.legal_actions(s, 0)


def test_S_54_flee_is_illegal_in_story_and_landmark_duels() -> None:
    s = tale(1)
    place(s, "hollow", step=Step.NARRATIVE, part=4)
    t = t_of(s)
    assert s.phase == Phase.STANDOFF and t.duel == DuelKind.STORY
    assert Flee() not in GAME.legal_actions(s, 0)
    with pytest.raises(IllegalAction):
        act(s, 0, Flee())


# ------------------------------------------------------------------ S-56


def test_S_56_story_part_gating() -> None:
    s = tale(2)
    events = place(s, "crossroads", step=Step.NARRATIVE, part=1)
    assert not any(e.kind == "story" for e in events) and t_of(s).part == 1  # not met: not read
    s = tale(2)
    hands = [len(x.hand) for x in s.seats]
    events = place(s, "haven", step=Step.NARRATIVE, part=1)
    story = next(e for e in events if e.kind == "story")
    assert story.data["part"] == "haven" and t_of(s).part == 2
    for i, x in enumerate(s.seats):
        gained = keys(x.hand[hands[i] :])
        assert len(gained) == 2 and all(k.split(".")[0] in ("trail_rations", "canteen") for k in gained)
    view = GAME.view(s, None)
    assert view["tale"]["objective"] == "Head out into the Valley of Death and travel to any attack or event node."


def test_outcomes_named_in_tale_duel_are_the_creature_duel_reasons() -> None:
    assert (WON, LOST) == ("creature defeated", "all players defeated")
