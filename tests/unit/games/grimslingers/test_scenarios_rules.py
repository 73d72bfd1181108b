"""Scenarios S-27..S-35: draft, Standoff numbers, costs, defeat timing, Advanced Duels FX order."""

from __future__ import annotations

from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import (
    EndStandoff,
    Pick,
    Play,
    Purge,
    Reactivate,
    Reload,
    Sacrifice,
    StopPicking,
    Surge,
    UseCard,
)
from gamehall.games.grimslingers.content.schema import Effect
from gamehall.games.grimslingers.state import Phase

from .builders import BASICS, P, build, fixture_card, keys, turn


def _draft(mode: str, seats: int, draft: str = "hidden"):  # type: ignore[no-untyped-def]
    options = {} if mode == "advanced-duels" else {"draft": draft}
    s = GAME.new_match(GAME.configure(mode, seats, options=options), 3)
    while s.phase == Phase.DRAFT:
        for seat in sorted(GAME.to_act(s)):
            s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    return s


def test_S_27_hidden_draft() -> None:
    s = GAME.new_match(GAME.configure("versus-ffa", 3), 3)
    assert all(len(x.offer) == 4 for x in s.seats) and len(GAME.legal_actions(s, 0)) == 6
    s = _draft("versus-ffa", 3)
    assert s.phase == Phase.STANDOFF and len(s.sig_deck) == 18
    assert all(sum(1 for c in x.hand if cat.CARDS[c].kind == "signature") == 2 for x in s.seats)


def test_S_27_pass_draft_passes_left() -> None:
    s = GAME.new_match(GAME.configure("versus-ffa", 3, options={"draft": "pass"}), 3)
    offers = [list(x.offer) for x in s.seats]
    kept = []
    for seat in range(3):
        action = GAME.legal_actions(s, seat)[0]
        kept.append(cat.ID[action.cards[0]])  # type: ignore[attr-defined]
        s, _ = GAME.apply(s, seat, action)
    for seat in range(3):
        passed = [c for c in offers[(seat - 1) % 3] if c != kept[(seat - 1) % 3]]
        assert sorted(s.seats[seat].offer) == sorted(passed)
    s = _draft("versus-ffa", 3, "pass")
    assert len(s.sig_deck) == 18
    assert all(sum(1 for c in x.hand if cat.CARDS[c].kind == "signature") == 2 for x in s.seats)


def test_S_27_advanced_duels_draft_boxes_the_third() -> None:
    s = GAME.new_match(GAME.configure("advanced-duels", 2), 3)
    offers = [set(x.offer) for x in s.seats]
    s = _draft("advanced-duels", 2)
    boxed = set().union(*offers) - {c for x in s.seats for c in x.hand}
    assert len(boxed) == 2 and not boxed & set(s.sig_deck) and len(s.sig_deck) == 18


def _deact8() -> P:
    return P(
        ep=5, hand=["FIRE", "WATER"], deact=["EARTH", "WIND", "ICE", "LIGHTNING", "Magnify", "Pierce", "Hush", "Salve"]
    )


def test_S_28_reactivate_core_up_to_five() -> None:
    s = build([_deact8(), P()])
    s, _ = GAME.apply(s, 0, Reactivate())
    assert s.seats[0].ep == 2
    for card in ["EARTH", "WIND", "ICE", "LIGHTNING", "Magnify"]:
        s, _ = GAME.apply(s, 0, Pick(card))
    assert len(s.seats[0].deact) == 3 and GAME.to_act(s) == {1}


def test_S_28_reactivate_advanced_up_to_six_and_a_second_action() -> None:
    s = build([_deact8(), P()], mode="advanced-duels")
    s, _ = GAME.apply(s, 0, Reactivate())
    for card in ["EARTH", "WIND", "ICE", "LIGHTNING", "Magnify", "Pierce"]:
        s, _ = GAME.apply(s, 0, Pick(card))
    assert len(s.seats[0].deact) == 2 and GAME.to_act(s) == {0}
    s, _ = GAME.apply(s, 0, Purge())
    s, _ = GAME.apply(s, 0, Pick("FIRE"))
    s, _ = GAME.apply(s, 0, Pick("WATER"))
    assert s.seats[0].ep == 4 and GAME.to_act(s) == {1}


def test_S_28_reactivate_needs_three_ep() -> None:
    p = _deact8()
    p.ep = 2
    assert Reactivate() not in GAME.legal_actions(build([p, P()]), 0)


def test_S_29_anima_numbers() -> None:
    s = build([P(ep=5, hand=[], discard=BASICS), P()])
    s, _ = GAME.apply(s, 0, Reload())
    for card in ["FIRE", "WATER", "EARTH", "WIND"]:
        s, _ = GAME.apply(s, 0, Pick(card))
    assert s.seats[0].ep == 2 and len(s.seats[0].hand) == 4 and s.picking is None
    s = build([P(ep=9), P()])
    s, _ = GAME.apply(s, 0, Purge())
    s, _ = GAME.apply(s, 0, Pick("FIRE"))
    s, _ = GAME.apply(s, 0, Pick("ICE"))
    assert s.seats[0].ep == 10 and keys(s.seats[0].discard) == ["FIRE", "ICE"]
    s = build([P(), P()])
    s = turn(s, standoff={0: [Surge(), Pick("FIRE"), Pick("ICE"), Pick("WIND")]})
    assert not s.seats[0].surged and len(s.seats[0].deact) == 3  # flipped back although the seat passed
    s = build([P(hp=8, ep=9), P()])
    s, _ = GAME.apply(s, 0, Sacrifice(3))
    assert (s.seats[0].hp, s.seats[0].ep) == (5, 10)
    s = turn(build([P(ep=9), P()]))
    assert s.seats[0].ep == 10


def test_S_29_surge_needs_three_spells_and_is_exactly_three() -> None:
    assert Surge() not in GAME.legal_actions(build([P(hand=["FIRE", "ICE"]), P()]), 0)
    s = build([P(), P()])
    s, _ = GAME.apply(s, 0, Surge())
    assert StopPicking() not in GAME.legal_actions(s, 0)


def test_S_30_unaffordable_cost_deactivates() -> None:
    s = turn(build([P(ep=2, hand=[*BASICS, "Magnify"]), P()]), fire={0: Play("Magnify")})
    assert s.seats[0].ep == 0 and keys(s.seats[0].deact) == ["Magnify"] and s.seats[1].hp == 8


HEAL3 = fixture_card("FixtureHeal3", 10, [Effect("heal", n=3)], target="single")
SELFBLAST = fixture_card("FixtureSelfblast", 5, [Effect("dmg", n=4), Effect("lose_hp", who="self", n=3)])
BLOODBOLT = fixture_card(
    "FixtureBloodBolt", 5, [Effect("lose_hp", who="self", n=3), Effect("dmg", n=4), Effect("gain_ep", who="self", n=2)]
)


def test_S_31_defeated_player_healed_later_survives() -> None:
    # seats [X (FP), A, Y, B]; teams {X, Y}, {A, B}
    s = build([P(), P(hp=2), P(), P(hand=[*BASICS, HEAL3])], mode="versus-teams")
    s = turn(s, aims={0: 1, 1: 0, 2: 1, 3: 1}, fire={0: Play("ICE"), 1: Play("LIGHTNING"), 3: Play(HEAL3)})
    a = s.seats[1]
    assert a.alive and a.hp == 3 and "LIGHTNING" in keys(a.deact)


def test_S_32_defeat_before_resolution_prevents_mutual_ko() -> None:
    s = turn(build([P(hp=2), P(hp=3)]), fire={0: Play("LIGHTNING"), 1: Play("ICE")})
    assert GAME.outcome(s).winners() == (0,)  # type: ignore[union-attr]


def test_S_32_tie_when_both_fall_together() -> None:
    s = turn(build([P(hp=4), P(hp=3, hand=[*BASICS, SELFBLAST])]), fire={1: Play(SELFBLAST)})
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.ranks == (1, 1)


def test_S_32_advanced_duels_written_order() -> None:
    s = turn(build([P(hp=4), P(hp=3, hand=[*BASICS, SELFBLAST])], mode="advanced-duels"), fire={1: Play(SELFBLAST)})
    assert GAME.outcome(s).ranks == (1, 1)  # type: ignore[union-attr]  # DMG first, then the self-loss


def test_S_33_advanced_user_at_zero_stops_the_rest() -> None:
    s = build([P(hp=3, ep=4, hand=[*BASICS, BLOODBOLT]), P()], mode="advanced-duels")
    s = turn(s, fire={0: Play(BLOODBOLT), 1: Play("WATER")})
    assert s.seats[1].hp == 8 and not s.seats[0].alive and s.seats[0].ep == 4
    core = turn(build([P(hp=3, ep=4, hand=[*BASICS, BLOODBOLT]), P()]), fire={0: Play(BLOODBOLT), 1: Play("WATER")})
    assert core.seats[1].hp == 4 and core.seats[0].ep == 6 and not core.seats[0].alive


def test_S_34_advanced_target_down_midway_still_gets_the_rest() -> None:
    s = build([P(), P(hp=3, ep=0, hand=[*BASICS, "Magnify"])], mode="advanced-duels")
    s = turn(s, fire={0: Play("LIGHTNING"), 1: Play("Magnify")})
    b = s.seats[1]
    assert (b.hp, b.ep, b.alive) == (0, 1, False) and "Magnify" in keys(b.deact)


def test_S_35_advanced_standoff_order_and_limits() -> None:
    s = build([_deact8(), P()], mode="advanced-duels")
    s.seats[0].ep = 8
    s, _ = GAME.apply(s, 0, Sacrifice(2))
    assert (s.seats[0].hp, s.seats[0].ep) == (6, 10) and GAME.to_act(s) == {0}
    s, _ = GAME.apply(s, 0, Reactivate())
    s, _ = GAME.apply(s, 0, Pick("EARTH"))
    s, _ = GAME.apply(s, 0, StopPicking())
    assert s.seats[0].ep == 7 and GAME.to_act(s) == {1}  # two actions used: B's turn
    s, _ = GAME.apply(s, 1, Surge())
    for card in ["FIRE", "ICE", "WIND"]:
        s, _ = GAME.apply(s, 1, Pick(card))
    assert Purge() not in GAME.legal_actions(s, 1) and Reload() not in GAME.legal_actions(s, 1)


def test_S_35_recall_is_a_standoff_action() -> None:
    s = build([P(hand=["FIRE", "Recall"], discard=["ICE", "WIND", "EARTH"]), P()], mode="advanced-duels")
    s, _ = GAME.apply(s, 0, UseCard("Recall"))
    s, _ = GAME.apply(s, 0, Pick("ICE"))
    s, _ = GAME.apply(s, 0, Pick("WIND"))
    me = s.seats[0]
    assert me.ep == 7 and sorted(keys(me.hand)) == ["FIRE", "ICE", "WIND"] and keys(me.discard)[-1] == "Recall"
    assert me.acted == 1 and GAME.to_act(s) == {0}
    s, _ = GAME.apply(s, 0, EndStandoff())
    assert GAME.to_act(s) == {1}
