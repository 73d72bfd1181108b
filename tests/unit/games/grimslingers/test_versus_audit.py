"""Fixes from the outside audit of versus (issue 14), one test each; rule ids from the spec."""

from __future__ import annotations

import pytest

from gamehall.engine.protocol import MatchConfig
from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import BloodFeast, Choose, EndStandoff, Pass, Play, Scavenge
from gamehall.games.grimslingers.conservation import located, violations
from gamehall.games.grimslingers.content.schema import Effect
from gamehall.games.grimslingers.state import Phase, PromptKind
from gamehall.matchmaking.tickets import MatchShape

from .builders import BASICS, P, build, fixture_card, keys, turn


@pytest.mark.parametrize(
    ("mode", "seats", "draft"),
    [("versus-ffa", n, d) for n in range(2, 9) for d in ("hidden", "pass")]
    + [("versus-teams-3v3", 6, "hidden"), ("versus-teams", 4, "hidden")],
)
def test_R_035_every_seat_count_keeps_two_signatures(mode: str, seats: int, draft: str) -> None:
    s = GAME.new_match(GAME.configure(mode, seats, options={"draft": draft}), 5)
    while s.phase == Phase.DRAFT:
        for seat in sorted(GAME.to_act(s)):
            s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert s.phase == Phase.STANDOFF
    for x in s.seats:
        assert sum(1 for c in x.hand if cat.CARDS[c].kind == "signature") == 2
    assert not violations(s)


def test_R_035_deck_too_small_for_four_each_deals_three_keeps_two() -> None:
    s = GAME.new_match(GAME.configure("versus-ffa", 7), 1)
    assert all(len(x.offer) == 3 for x in s.seats)
    assert {len(a.cards) for a in GAME.legal_actions(s, 0)} == {2}  # type: ignore[attr-defined]


def test_equilibrium_copying_scourge_conserves_every_card() -> None:
    s = build([P(hand=[*BASICS, "Equilibrium"]), P(hand=[*BASICS, "Scourge"])])
    s = turn(s, fire={0: Play("Equilibrium"), 1: Play("Scourge")}, answers={0: [Choose(1)]})
    assert s.scourge_on == 1 and s.scourge_owner == 0 and cat.KEYS[s.scourge_card] == "Equilibrium"
    assert "Scourge" in keys(s.seats[1].discard)  # B's own Scourge found the slot taken
    assert _once(s, "Equilibrium", "Scourge")
    s = turn(s, fire={1: Play("EARTH")})  # B gains HP: the copy leaves B's space
    assert s.scourge_on == -1 and keys(s.seats[0].discard).count("Equilibrium") == 1
    assert sum(keys(x.discard).count("Scourge") for x in s.seats) == 1
    assert _once(s, "Equilibrium", "Scourge")


def _once(s, *names: str) -> bool:  # type: ignore[no-untyped-def]
    """A scenario state is not a dealt match, so count the cards in question across every zone."""
    found = located(s)
    found.subtract(s.sig_deck)  # the builder hands out cards without taking them from the deck
    return all(found[cat.ID[k]] == 1 for k in names)


def _scourged(s, victim: int, owner: int):  # type: ignore[no-untyped-def]
    s.seats[owner].hand.remove(cat.SCOURGE)
    s.scourge_on, s.scourge_owner, s.scourge_loss, s.scourge_card = victim, owner, 1, cat.SCOURGE
    return s


def test_R_173_blood_feast_hp_gain_removes_scourge() -> None:
    s = build(
        [P(hp=8, ep=4, hand=[*BASICS, "Scourge"]), P(hp=5, ep=5, archetype="vampyre", max_hp=10, max_ep=10)],
        options={"archetypes": True},
    )
    s = _scourged(s, 1, 0)
    s = turn(s, fire={0: Play("FIRE"), 1: BloodFeast()})
    assert s.scourge_on == -1 and "Scourge" in keys(s.seats[0].discard)


def test_R_199_revival_counts_as_hp_gain_and_removes_scourge() -> None:
    s = build(
        [P(hand=[*BASICS, "Scourge"]), P(hp=2, ep=3, archetype="revenant", max_hp=10, max_ep=10)],
        options={"archetypes": True},
    )
    s = _scourged(s, 1, 0)
    s = turn(s, fire={0: Play("ICE")}, answers={1: [Choose(1)]})  # 2 DMG: 2 -> 0, revives at 1 HP
    assert s.seats[1].alive and s.scourge_on == -1 and "Scourge" in keys(s.seats[0].discard)


def test_R_157_true_grit_is_offered_against_dynamite() -> None:
    s = build(
        [P(archetype="forgotten", hp=2, ep=5, max_hp=10, max_ep=10), P()],
        options={"items": True, "archetypes": True},
        field_=["unstable_dynamite.1", "snake_oil.1", "snake_oil.2"],
        item_deck=["lucky_charm.1"],
    )
    for seed in range(60):
        s.rng = seed
        after, _ = GAME.apply(s, 0, Scavenge(0))
        if after.prompts and after.prompts[0].kind == PromptKind.TRUE_GRIT:
            break
    else:
        raise AssertionError("no seed made the Dynamite explode")
    assert after.prompts[0].options == [0, 1, 2, 3] and after.field[0] == -1
    after, _ = GAME.apply(after, 0, Choose(3))
    x = after.seats[0]
    assert (x.hp, x.ep) == (2, 2) and keys(after.field)[0] == "lucky_charm.1"
    assert "unstable_dynamite.1" in keys(after.item_discard)


def test_R_111_core_passes_are_declared_in_first_player_order() -> None:
    s = build([P(), P(), P()], fp=1)
    for seat in (1, 2, 0):
        s, _ = GAME.apply(s, seat, EndStandoff())
    for seat, target in ((1, 2), (2, 0), (0, 1)):
        s, _ = GAME.apply(s, seat, _aim(target))
    assert GAME.to_act(s) == {1}
    s, _ = GAME.apply(s, 1, Pass())
    assert GAME.to_act(s) == {2} and GAME.view(s, 2)["players"][1]["commit"] == "pass"
    assert s.seats[1].ep == 10


def _aim(target: int):  # type: ignore[no-untyped-def]
    from gamehall.games.grimslingers.actions import Aim

    return Aim(target)


def test_R_118_advanced_duels_draw_stays_simultaneous() -> None:
    s = build([P(), P()], mode="advanced-duels")
    for seat in (0, 1):
        s, _ = GAME.apply(s, seat, EndStandoff())
    assert GAME.to_act(s) == {0, 1}


def test_R_194_bloodlust_counts_damage_taken_before_it_resolves() -> None:
    jab = fixture_card("Jab1", 1, [Effect("dmg", n=2)])
    s = build([P(hand=[*BASICS, "Bloodlust"]), P(hand=[*BASICS, jab])])
    s = turn(s, fire={0: Play("Bloodlust"), 1: Play(jab)})  # RN 1 hits before Bloodlust (RN 2)
    assert s.seats[0].bloodlust_bonus == 2


def test_teams_mode_declares_team_size_and_teams_agree() -> None:
    for mode in GAME.modes:
        for seats in [n for n in mode.seats if n >= 2]:  # a solo mode has no matchmaking shape
            layout = GAME.teams(GAME.configure(mode.id, seats))
            shape = MatchShape.from_mode(mode, seats)
            assert (len(layout), len(layout[0])) == (shape.teams, shape.team_size), mode.id
    assert GAME.mode("versus-teams").team_size == 2 and GAME.mode("versus-teams-3v3").team_size == 3


def _all_timeouts(config: MatchConfig, seed: int) -> str:
    s = GAME.new_match(config, seed)
    for _ in range(20_000):
        if GAME.outcome(s) is not None:
            return s.reason
        seat = min(GAME.to_act(s))
        action = GAME.default_action(s, seat)
        assert action is not None
        s, _ = GAME.apply(s, seat, action)
    raise AssertionError(f"{config} seed {seed}: no end with every seat timing out")


@pytest.mark.parametrize("mode", [m.id for m in GAME.modes])
def test_every_mode_ends_when_every_seat_only_times_out(mode: str) -> None:
    m = GAME.mode(mode)
    for seats in m.seats:
        for seed in range(4):
            options = (
                {}
                if mode not in ("versus-1v1", "versus-ffa", "versus-teams", "versus-teams-3v3")
                else {
                    "items": True,
                    "archetypes": True,
                }
            )
            assert _all_timeouts(GAME.configure(mode, seats, options=options), seed)
