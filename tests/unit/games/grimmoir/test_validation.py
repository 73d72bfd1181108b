"""`validate_action` (precise reasons, case by case) agrees exactly with `legal_actions` (enumeration)."""

from __future__ import annotations

import random
from itertools import permutations

from gamehall.engine import Action, IllegalAction
from gamehall.games.grimmoir import GAME
from gamehall.games.grimmoir.actions import Attack, Move, Pass, Special, Swap
from gamehall.games.grimmoir.catalog import CARDS
from gamehall.games.grimmoir.state import Phase, State

CONFIGS = [
    GAME.configure(),
    GAME.configure(flags={"swap_columns": "moves_only", "back_row_moves": False, "shift_choice": "first_column"}),
]


def _candidates(state: State, seat: int) -> list[Action]:
    mine = [CARDS[u.card].id for u in state.board[seat * 6 : seat * 6 + 6] if u is not None]
    theirs = [CARDS[u.card].id for u in state.board[(1 - seat) * 6 : (1 - seat) * 6 + 6] if u is not None]
    out: list[Action] = [Pass()]
    out += [Attack(a, t) for a in mine for t in [*theirs, *mine]]
    out += [Special(a, t) for a in mine for t in [None, *theirs, *mine]]
    out += [Move(a, r, c) for a in mine for r in (1, 2) for c in (1, 2, 3)]
    out += [Swap(a, b) for a, b in permutations(mine, 2)]
    return out


def test_validation_matches_enumeration_in_random_battles() -> None:
    checked = 0
    for match in range(24):
        config = CONFIGS[match % len(CONFIGS)]
        rng = random.Random(match)
        state = GAME.new_match(config, match)
        while GAME.to_act(state):
            seat = rng.choice(sorted(GAME.to_act(state)))
            legal = list(GAME.legal_actions(state, seat))
            if state.phase == Phase.BATTLE and state.pending_shift < 0 and rng.random() < 0.3:
                legal_set = set(legal)
                for action in _candidates(state, seat):
                    try:
                        GAME.validate_action(state, seat, action)
                        accepted = True
                    except IllegalAction as exc:
                        assert exc.reason
                        accepted = False
                    assert accepted == (action in legal_set), (match, action)
                    checked += 1
            state, _ = GAME.apply(state, seat, rng.choice(legal))
    assert checked > 5000
