"""Secrets: step-5 face-down placements (and secret teams) stay hidden; determinize samples them."""

from __future__ import annotations

import json
import random

import pytest

from gamehall.engine import IllegalAction, NotYourTurn
from gamehall.games.grimmoir import GAME
from gamehall.games.grimmoir.actions import Arrange, Attack, DeclineSupport, Pass, PickFaction, Place, Recruit
from gamehall.games.grimmoir.catalog import BY_FACTION, CARDS, FACTIONS
from gamehall.games.grimmoir.state import Phase

from .builder import act, battle_state, draft_state, of_type

P1, P2 = 0, 1


def _ids(faction: str) -> list[str]:
    return [CARDS[c].id for c in BY_FACTION[FACTIONS.index(faction)]]


def _to_arrange(flags: dict[str, str] | None = None) -> object:
    state = draft_state(first=P1, flags=flags)
    state = act(state, P1, PickFaction("animo"))
    state = act(state, P2, PickFaction("ingenium"))
    state = act(state, P1, DeclineSupport())
    state = act(state, P2, DeclineSupport())
    mine, theirs = _ids("animo")[:6], _ids("ingenium")[:6]
    for a, b in zip(mine, theirs, strict=True):
        state = act(state, P1, Recruit(a))
        state = act(state, P2, Recruit(b))
    for seat, name, col in [
        (P1, mine[0], 1),
        (P2, theirs[0], 1),
        (P2, theirs[1], 2),
        (P1, mine[1], 2),
        (P1, mine[2], 3),
        (P2, theirs[2], 3),
    ]:
        state = act(state, seat, Place(name, col))
    assert state.phase == Phase.ARRANGE
    return state


def test_face_down_placement_is_secret_until_both_commit() -> None:
    state = _to_arrange()
    mine = _ids("animo")[3:6]
    order = (mine[2], mine[0], mine[1])
    after, events = GAME.apply(state, P1, Arrange(order))  # type: ignore[arg-type]
    assert GAME.view(after, P1)["my_face_down"] == list(order)
    for observer in (P2, None):
        view = GAME.view(after, observer)
        assert view["my_face_down"] is None
        assert view["face_down_committed"] == [True, False]
        assert all(cell is None for cell in view["board"][P1][3:])
        assert not any(e.visible_to(observer) and order[0] in json.dumps(e.data) for e in events)
    with pytest.raises(NotYourTurn):
        GAME.apply(after, P1, Arrange(order))
    # what P2 sees cannot tell P1's order apart from any other
    other = GAME.resample_hidden(after, P2, random.Random(3))  # type: ignore[arg-type]
    assert GAME.view(other, P2) == GAME.view(after, P2)
    revealed = act(after, P2, Arrange(tuple(_ids("ingenium")[3:6])))  # type: ignore[arg-type]
    assert revealed.phase == Phase.BATTLE
    assert [c["character"] for c in GAME.view(revealed, P2)["board"][P1][3:]] == list(order)


def test_determinize_samples_the_hidden_arrangement() -> None:
    state = act(_to_arrange(), P1, Arrange(tuple(_ids("animo")[3:6])))  # type: ignore[arg-type]
    seen = set()
    for seed in range(20):
        guess = GAME.determinize(GAME.view(state, P2), P2, random.Random(seed))
        assert GAME.view(guess, P2) == GAME.view(state, P2)
        assert sorted(guess.arranged[P1]) == sorted(state.arranged[P1])  # type: ignore[attr-defined]
        seen.add(tuple(guess.arranged[P1]))
    assert len(seen) > 1


def test_secret_teams_hide_the_hand_and_determinize_draws_it() -> None:
    state = _to_arrange({"team_secrecy": "secret"})
    view = GAME.view(state, P2)
    assert view["hands"][P1] is None and view["hand_sizes"][P1] == 3
    assert view["teams"][P1] is None
    for name in _ids("animo")[3:6]:
        assert name not in json.dumps(view)
    guess = GAME.determinize(view, P2, random.Random(1))
    assert GAME.view(guess, P2) == view
    assert len(guess.hands[P1]) == 3
    assert all(CARDS[c].faction == FACTIONS.index("animo") for c in guess.hands[P1])


def test_spectator_sees_no_secret_and_no_rng() -> None:
    state = act(_to_arrange({"team_secrecy": "secret"}), P2, Arrange(tuple(_ids("ingenium")[3:6])))  # type: ignore[arg-type]
    view = GAME.view(state, None)
    assert view["hands"] == [None, None] and view["my_face_down"] is None
    assert "rng" not in view and str(state.rng) not in json.dumps(view)  # type: ignore[attr-defined]


def test_default_action_prefers_passing() -> None:
    state = draft_state(first=P1)
    assert isinstance(GAME.default_action(state, P1), PickFaction)
    state = act(state, P1, PickFaction("animo"))
    state = act(state, P2, PickFaction("ingenium"))
    assert GAME.default_action(state, P1) == DeclineSupport()
    battle = battle_state(front=[of_type("melee", 1), of_type("ranged", 1)])
    assert GAME.default_action(battle, P1) == Pass()
    assert GAME.default_action(battle, P2) is None
    arrange = _to_arrange()
    assert GAME.default_action(arrange, P1) in GAME.legal_actions(arrange, P1)  # type: ignore[arg-type]


def test_illegal_actions_carry_reasons() -> None:
    state = battle_state(front=[of_type("melee", 1), of_type("ranged", 1)])
    with pytest.raises(IllegalAction, match="no character 'nobody'"):
        GAME.apply(state, P1, Attack("nobody", of_type("ranged", 1)[0]))
    with pytest.raises(IllegalAction, match="not a battle action"):
        GAME.apply(state, P1, Place(of_type("melee", 1)[0], 1))
    with pytest.raises(NotYourTurn):
        GAME.apply(state, P2, Pass())
    with pytest.raises(IllegalAction, match="does not belong"):
        GAME.apply(draft_state(), 0, Pass())


def test_encode_decode_round_trip() -> None:
    state = _to_arrange()
    assert GAME.encode(GAME.decode(GAME.encode(state))) == GAME.encode(state)  # type: ignore[arg-type]
    assert GAME.config_of(state).flags == GAME.configure().flags  # type: ignore[arg-type]
