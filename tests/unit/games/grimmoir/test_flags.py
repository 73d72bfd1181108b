"""Each rule flag (an inferred reading of the spec) changes the result of at least one scenario."""

from __future__ import annotations

import pytest

from gamehall.engine import IllegalAction
from gamehall.games.grimmoir import GAME
from gamehall.games.grimmoir.actions import (
    DeclineSupport,
    Move,
    Pass,
    PickFaction,
    Recruit,
    ShiftColumn,
    Swap,
)
from gamehall.games.grimmoir.battle import flow
from gamehall.games.grimmoir.catalog import BY_FACTION, CARDS, FACTIONS
from gamehall.games.grimmoir.state import DRAW, Phase

from .builder import act, battle_state, card, draft_state, id_at, of_type, quiet

P1, P2 = 0, 1


def test_every_flag_defaults_to_the_spec_reading() -> None:
    defaults = {o.name: o.default for o in GAME.flags}
    assert defaults == {
        "faction_exclusivity": "all",
        "shift_choice": "owner",
        "swap_columns": "every_destination",
        "back_row_moves": True,
        "coin_refill": "top_up",
        "simultaneous_elimination": "draw",
        "team_secrecy": "open",
    }


@pytest.mark.parametrize(("value", "expected"), [("all", {"animo"}), ("none", {"animo", "ingenium"})])
def test_faction_exclusivity_changes_SC_G03(value: str, expected: set[str]) -> None:
    state = draft_state(first=P1, flags={"faction_exclusivity": value})
    state = act(state, P1, PickFaction("diligit"))
    state = act(state, P2, PickFaction("humilitat"))
    state = act(state, P1, PickFaction("ingenium"))
    legal = GAME.legal_actions(state, P2)
    assert DeclineSupport() in legal
    assert {a.faction for a in legal if isinstance(a, PickFaction)} == expected


def test_faction_exclusivity_none_allows_a_mirror_with_own_copies() -> None:
    state = draft_state(first=P1, flags={"faction_exclusivity": "none"})
    state = act(state, P1, PickFaction("animo"))
    assert PickFaction("animo") in GAME.legal_actions(state, P2)
    state = act(state, P2, PickFaction("animo"))
    state = act(state, P1, DeclineSupport())
    state = act(state, P2, DeclineSupport())
    first = CARDS[BY_FACTION[FACTIONS.index("animo")][0]].id
    state = act(state, P1, Recruit(first))
    state = act(state, P2, Recruit(first))
    assert state.teams == [[card(first).index], [card(first).index]]


def _both_sides_qualify(flag: str) -> object:
    mine = of_type("melee", 2)
    left, right = of_type("ranged", 2)
    return battle_state(
        front=[(None, mine[0], None), (left, None, right)],
        back=[(None, mine[1], None), (None, None, None)],
        flags={"shift_choice": flag},
    )


def test_shift_choice_owner_asks_the_owner() -> None:
    state = act(_both_sides_qualify("owner"), P1, Pass())  # type: ignore[arg-type]
    assert GAME.to_act(state) == {P2}
    assert list(GAME.legal_actions(state, P2)) == [ShiftColumn(1), ShiftColumn(3)]
    with pytest.raises(IllegalAction, match="choose which side column"):
        GAME.apply(state, P2, Pass())
    left, right = of_type("ranged", 2)
    shifted = act(state, P2, ShiftColumn(3))
    assert id_at(shifted, P2, 1, 2) == right and id_at(shifted, P2, 1, 1) == left
    assert GAME.to_act(shifted) == {P2}  # P1 passed, so the turn stays with P2


def test_shift_choice_first_column_shifts_column_1() -> None:
    state = act(_both_sides_qualify("first_column"), P1, Pass())  # type: ignore[arg-type]
    left, right = of_type("ranged", 2)
    assert id_at(state, P2, 1, 2) == left and id_at(state, P2, 1, 3) == right
    assert state.pending_shift == -1


@pytest.mark.parametrize(("value", "legal"), [("every_destination", False), ("moves_only", True)])
def test_swap_columns_flag(value: str, legal: bool) -> None:
    a, b, c = of_type("melee", 3)
    x, y = of_type("ranged", 2)
    state = battle_state(front=[(a, b, c), (x, y, None)], flags={"swap_columns": value})
    assert (Swap(a, c) in GAME.legal_actions(state, P1)) is legal
    if legal:
        after = act(state, P1, Swap(a, c))
        assert id_at(after, P1, 1, 3) == a
    else:
        with pytest.raises(IllegalAction, match="no opponent characters"):
            GAME.apply(state, P1, Swap(a, c))
    assert Swap(a, b) in GAME.legal_actions(state, P1)  # both destinations face opponents


@pytest.mark.parametrize("allowed", [True, False])
def test_back_row_moves_flag(allowed: bool) -> None:
    a, d, e, f = of_type("melee", 4)
    x, y, z = of_type("ranged", 3)
    state = battle_state(
        front=[(d, e, f), (x, y, z)], back=[(a, None, None), (None, None, None)], flags={"back_row_moves": allowed}
    )
    move = Move(a, 2, 2)
    assert (move in GAME.legal_actions(state, P1)) is allowed
    if allowed:
        assert id_at(act(state, P1, move), P1, 2, 2) == a
    else:
        with pytest.raises(IllegalAction, match="1st row"):
            GAME.apply(state, P1, move)


@pytest.mark.parametrize(("value", "coins"), [("top_up", [7, 5]), ("reset", [5, 5])])
def test_coin_refill_flag(value: str, coins: list[int]) -> None:
    x, y = of_type("melee", 2)
    state = battle_state(front=[(x, None, None), (y, None, None)], coins=(7, 2), flags={"coin_refill": value})
    state.passed = [True, True]
    flow(state, P1, [])
    assert state.round == 2 and state.coins == coins


def _mutual_elimination(flag: str) -> object:
    avenger = next(
        c
        for c in CARDS
        if any(e.op == "wound" and e.to == "killer" and e.amount >= 1 for s in c.on_death for e in s.effects)
    )
    amount = next(e.amount for s in avenger.on_death for e in s.effects if e.op == "wound")
    (x,) = quiet(1, "magic")
    return (
        battle_state(
            front=[(x, None, None), (avenger.id, None, None)],
            units={x: {"wounds": card(x).strength - amount, "plus": 5}, avenger.id: {"wounds": avenger.strength - 1}},
            flags={"simultaneous_elimination": flag},
        ),
        x,
        avenger.id,
    )


@pytest.mark.parametrize(("value", "winner"), [("draw", DRAW), ("active_player_wins", P1)])
def test_simultaneous_elimination_flag(value: str, winner: int) -> None:
    from gamehall.games.grimmoir.actions import Attack

    state, x, avenger = _mutual_elimination(value)  # type: ignore[misc]
    after = act(state, P1, Attack(x, avenger))
    assert after.phase == Phase.OVER and after.winner == winner
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.ranks == ((1, 1) if winner == DRAW else (1, 2))


@pytest.mark.parametrize("value", ["open", "secret"])
def test_team_secrecy_flag(value: str) -> None:
    state = draft_state(first=P1, flags={"team_secrecy": value})
    state = act(state, P1, PickFaction("animo"))
    state = act(state, P2, PickFaction("ingenium"))
    state = act(state, P1, DeclineSupport())
    state = act(state, P2, DeclineSupport())
    pick = CARDS[BY_FACTION[FACTIONS.index("ingenium")][0]].id
    after, events = GAME.apply(state, P2, Recruit(pick))
    seen_by_p1 = GAME.view(after, P1)
    if value == "open":
        assert seen_by_p1["teams"][P2] == [pick]
        assert all(e.visible_to(P1) for e in events)
    else:
        assert seen_by_p1["teams"][P2] is None and seen_by_p1["team_sizes"][P2] == 1
        assert pick not in str(seen_by_p1)
        assert not any(e.visible_to(P1) and pick in str(e.data) for e in events)
        assert GAME.view(after, P2)["teams"][P2] == [pick]
