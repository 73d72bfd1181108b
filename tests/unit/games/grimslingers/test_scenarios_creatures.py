"""Scenarios S-36..S-42 and S-55: creature duels (core) and the Witch King challenge."""

from __future__ import annotations

from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import Choose, Pass, Pick, Play, StopPicking
from gamehall.games.grimslingers.content.schema import Effect
from gamehall.games.grimslingers.state import Phase, PromptKind

from .builders import BASICS, C, P, build_creature, fixture_card, keys, turn

BANDITS = ["claw", "howl", "lunge", "stick_up", "ambush", "berate"]  # last = top


def test_S_36_berate_wins_the_rn_tie_and_boosts_pierce_and_amnesia() -> None:
    players = [
        P(hand=[*BASICS, "Paralyze"]),  # Thomas
        P(hand=[*BASICS, "Amnesia"]),  # Becca
        P(hand=[*BASICS, "Pierce"]),  # Erin
    ]
    s = build_creature(players, C(hp=20, ep=10, hand=BANDITS))
    assert s.phase == Phase.STANDOFF and len(s.seats[s.creature].hand) == 6  # 6 active: no creature action
    view = None
    for seat in (0, 1, 2):
        s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])  # end Standoff
    view = GAME.view(s, 0)
    assert view["creature"]["back"] == "bandits"  # a Bandit-specific back, face down
    s = turn(s, fire={0: Play("Paralyze"), 1: Play("Amnesia"), 2: Play("Pierce")})
    bandits = s.seats[s.creature]
    assert keys(bandits.discard) == ["berate"]
    assert len(bandits.hand) == 1 and len(bandits.deact) == 4  # Amnesia +1 NV: 4 of 5 active cards
    assert bandits.hp == 20 - 4  # Pierce 3 DMG +1 NV
    assert "Paralyze" in keys(s.seats[0].discard)  # it found Berate already resolved
    assert "Amnesia" in keys(s.seats[1].discard) and "Pierce" in keys(s.seats[2].discard)


def _standoff(c: C, players: int = 1):  # type: ignore[no-untyped-def]
    return build_creature([P() for _ in range(players)], c)


def test_S_37_bandits_reload_never_below_one_ep() -> None:
    s = _standoff(C(ep=5, hand=[], discard=BANDITS))
    b = s.seats[s.creature]
    assert (b.ep, len(b.hand), len(b.discard), len(b.deact)) == (1, 4, 2, 0)


def test_S_37_variant_deactivated_cards_come_back_free() -> None:
    s = build_creature([P()], C(ep=5, hand=[], discard=BANDITS[:4], deact=BANDITS[4:]))
    b = s.seats[s.creature]
    assert (b.ep, len(b.hand), len(b.discard), len(b.deact)) == (1, 6, 0, 0)  # 4 for 4 EP, 2 free


def test_S_37_variant_exactly_enough_ep() -> None:
    s = _standoff(C(ep=8, hand=[], discard=BANDITS))
    b = s.seats[s.creature]
    assert (b.ep, len(b.hand), len(b.discard)) == (2, 6, 0)


def test_S_38_case_a_creature_that_cannot_afford_passes() -> None:
    s = _standoff(C(ep=1, hand=[], discard=BANDITS))
    b = s.seats[s.creature]
    assert (b.ep, len(b.hand)) == (1, 0)
    s = turn(s, fire={0: Pass()})  # the pass: EP 1 -> 3; the next Standoff reloads min(6, 3 - 1) = 2
    b = s.seats[s.creature]
    assert (b.ep, len(b.hand), len(b.discard)) == (1, 2, 4)


def test_S_38_case_b_all_deactivated_pass_brings_them_back() -> None:
    s = _standoff(C(ep=6, hand=[], discard=[], deact=BANDITS[:3]))
    s = turn(s, fire={0: Pass()})
    b = s.seats[s.creature]
    assert b.ep == 8 and len(b.hand) == 3 and not b.deact


def test_S_38_case_c_creature_at_zero_ep_is_defeated() -> None:
    s = _standoff(C(hp=30, ep=2, hand=BANDITS))
    s = turn(s, fire={0: Play("ICE")})
    assert s.phase == Phase.OVER and s.ranks == [1] and s.reason == "creature defeated"


def test_S_39_paralyze_beats_mirrorer() -> None:
    wk = ["elemental_catalyst", "dark_tide", "hex_bolt", "soul_siphon", "unmaking", "mirrorer"]
    s = build_creature(
        [P(hand=[*BASICS, "Paralyze"]), P()], C(hp=20, ep=20, hand=wk), key="witch_king", mode="witch-king"
    )
    assert (s.seats[s.creature].hp, s.seats[s.creature].ep) == (20, 20)
    s = turn(s, fire={0: Play("Paralyze"), 1: Play("FIRE")})
    w = s.seats[s.creature]
    assert (w.hp, w.ep, len(w.hand), len(w.discard), len(w.deact)) == (18, 20, 4, 2, 0)
    assert keys(w.discard)[0] == "mirrorer"
    assert s.seats[0].ep == 8 - cat.COST[cat.ID["Paralyze"]] and s.seats[1].hp == 8


def _catalyst_state(hp: int, ep: int, hand: list[str]):  # type: ignore[no-untyped-def]
    deck = ["mirrorer", "dark_tide", "hex_bolt", "soul_siphon", "unmaking", "elemental_catalyst"]
    return build_creature([P(hp=hp, ep=ep, hand=hand)], C(hp=30, ep=30, hand=deck), key="witch_king", mode="witch-king")


def test_S_40_elemental_catalyst() -> None:
    s = _catalyst_state(8, 4, [*BASICS, "Magnify", "Barrier", "Hush"])
    s = turn(s, fire={0: Pass()}, answers={0: [Pick("LIGHTNING"), Pick("FIRE")]})
    p = s.seats[0]
    assert (p.hp, p.ep) == (3, 6 + 2)  # Purge 4 -> 6; WATER +2 and ICE -2 net 0; +2 for passing
    assert p.hand == [] and sorted(keys(p.deact)) == ["Barrier", "Hush", "Magnify"]
    assert sorted(keys(p.discard)) == sorted(BASICS)


def test_S_40_i_nets_before_clamping_at_max_hp() -> None:
    s = _catalyst_state(10, 4, [*BASICS, "Magnify", "Barrier", "Hush"])
    s = turn(s, fire={0: Pass()}, answers={0: [Pick("LIGHTNING"), Pick("FIRE")]})
    assert s.seats[0].hp == 5


def test_S_40_ii_nets_before_clamping_at_zero_ep() -> None:
    s = _catalyst_state(8, 0, ["WIND", "ICE", "WATER", "EARTH", "Magnify", "Barrier", "Hush"])
    s = turn(s, fire={0: Play("Magnify")}, answers={0: [StopPicking()]})
    assert (s.seats[0].hp, s.seats[0].ep) == (3, 0)


def _engulf(option: int):  # type: ignore[no-untyped-def]
    deck = ["claw", "howl", "lunge", "wail", "possess", "engulf"]
    s = build_creature([P()], C(hp=15, ep=15, hand=deck), key="specter")
    seen = []
    s = turn(s, fire={0: Play("WIND")}, answers={0: [Choose(option)]}, events=seen)
    return s


def test_S_41_engulf_take_damage() -> None:
    s = _engulf(0)
    sp = s.seats[s.creature]
    assert s.seats[0].hp == 3 and sp.hp == 14 and len(sp.deact) == 3


def test_S_41_engulf_pay_ep() -> None:
    s = _engulf(1)
    sp = s.seats[s.creature]
    assert (s.seats[0].hp, s.seats[0].ep) == (8, 5) and sp.hp == 14 and len(sp.deact) == 3


def test_S_41_engulf_discard_the_played_wind() -> None:
    s = _engulf(2)
    sp = s.seats[s.creature]
    assert (s.seats[0].hp, s.seats[0].ep) == (8, 8) and sp.hp == 15 and not sp.deact
    assert "WIND" in keys(s.seats[0].discard)


def test_S_41_the_target_makes_the_choice() -> None:
    deck = ["claw", "howl", "lunge", "wail", "possess", "engulf"]
    s = build_creature([P(hand=["FIRE", "ICE"], ep=2)], C(hp=15, ep=15, hand=deck), key="specter")
    s, _ = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0])
    s, _ = GAME.apply(s, 0, Play("FIRE"))
    assert s.prompts and s.prompts[0].kind == PromptKind.SKILL_OPTION and s.prompts[0].seat == 0
    assert s.prompts[0].options == [0, 1, 2]  # public: every option (item 5: no hint of the hand)
    assert GAME.legal_actions(s, 0) == [Choose(0)]  # 2 EP cannot pay 3; no WIND to discard


def test_S_42_creature_at_zero_before_its_card_is_deactivated() -> None:
    smite = fixture_card("Smite", 4, [Effect("dmg", n=20)])
    deck = ["claw", "howl", "lunge", "burrow", "sand_blast", "devour"]  # Devour RN 9 on top
    s = build_creature([P(hand=[*BASICS, smite])], C(hp=20, ep=10, hand=deck), key="dune_wurm")
    s = turn(s, fire={0: Play(smite)})
    w = s.seats[s.creature]
    assert "devour" in keys(w.deact) and s.seats[0].hp == 8
    assert s.phase == Phase.OVER and s.ranks == [1]


def _wk(players: list[P], top: str, hp: int = 20, ep: int = 20):  # type: ignore[no-untyped-def]
    deck = [k for k in cat.WITCH_KING.skills if k != top] + [top]
    return build_creature(players, C(hp=hp, ep=ep, hand=deck), key="witch_king", mode="witch-king")


def test_S_55_a_witch_king_out_of_ep_loses() -> None:
    s = _wk([P(), P()], "unmaking", ep=2)
    s = turn(s, fire={0: Play("ICE"), 1: Pass()})
    assert s.phase == Phase.OVER and s.ranks == [1, 1] and s.reason == "creature defeated"
    # co-op (item 7): a shared win; the team score (0.75 + 0.25 x HP left: 15 of 16 after ICE) is
    # every seat's return
    assert GAME.outcome(s).scores == (0.95, 0.95) and GAME.outcome(s).returns() == (0.95, 0.95)  # type: ignore[union-attr]


def test_S_55_b_a_defeated_player_leaves_and_the_other_goes_on() -> None:
    s = _wk([P(hp=2, hand=["EARTH"]), P()], "hex_bolt")  # 4 DMG to the weakest
    s = turn(s, fire={0: Pass(), 1: Pass()})
    assert not s.seats[0].alive and s.seats[1].alive and s.phase != Phase.OVER


def test_S_55_c_every_player_down_is_game_over() -> None:
    s = _wk([P(hp=1, hand=["EARTH"]), P(hp=1, hand=["EARTH"])], "dark_tide")
    s = turn(s, fire={0: Pass(), 1: Pass()})
    assert s.phase == Phase.OVER and s.ranks == [2, 2] and s.reason == "all players defeated"
    assert GAME.outcome(s).returns() == GAME.outcome(s).scores  # type: ignore[union-attr]
    assert GAME.outcome(s).scores[0] == GAME.outcome(s).scores[1] < 0.25  # type: ignore[union-attr,index]


def test_S_55_d_specter_spell_brings_a_player_back() -> None:
    s = _wk([P(hp=2, ep=4, hand=["EARTH", "Specter"]), P()], "hex_bolt")
    s = turn(s, fire={0: Pass(), 1: Pass()}, answers={0: [Choose(1)]})
    assert s.seats[0].alive and s.seats[0].hp == 4 and s.seats[0].specter_turn == s.turn


def test_S_41_engulf_redirected_at_the_specter_chooses_for_itself() -> None:
    deck = ["claw", "howl", "lunge", "wail", "possess", "engulf"]
    s = build_creature([P(hand=[*BASICS, "Redirect"])], C(hp=15, ep=15, hand=deck), key="specter")
    s = turn(s, fire={0: Play("Redirect")}, answers={0: [Choose(1)]})  # Engulf's target -> the Specter
    assert s.seats[s.creature].hp == 10 and s.seats[0].hp == 8  # it takes the first option, 5 DMG
