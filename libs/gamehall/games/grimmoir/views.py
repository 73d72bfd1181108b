"""What each seat may see, and the two ways hidden information is redrawn.

Secret: the step-5 face-down arrangement of the other seat (until step 6), and with the
`team_secrecy=secret` flag the other seat's unplaced characters (team and hand). Everything
else (factions, board, counters, coins, fallen characters) is public. The RNG state is never shown.
"""

from __future__ import annotations

import functools
import random
from typing import Any, Literal

from gamehall.games.grimmoir.catalog import BY_FACTION, CARD_INDEX, CARDS, FACTIONS, MAX_SUPPORT
from gamehall.games.grimmoir.state import (
    BOOK_CLOSED,
    BOOK_OPEN,
    DISPLAY_STEPS,
    NO_BOOK,
    PHASE_NAMES,
    Phase,
    Rules,
    State,
    Unit,
)
from gamehall.games.grimmoir.view_types import GrimmoirFlags, GrimmoirOptions, GrimmoirView, UnitView

_BOOKS: dict[int, Literal["open", "closed"] | None] = {NO_BOOK: None, BOOK_OPEN: "open", BOOK_CLOSED: "closed"}
_BOOK_CODES = {v: k for k, v in _BOOKS.items()}


def _faction(f: int) -> str | None:
    return FACTIONS[f] if f >= 0 else None


_CARD_IDS: tuple[str, ...] = tuple(c.id for c in CARDS)


def _unit_view(unit: Unit) -> UnitView:
    return UnitView(
        character=_CARD_IDS[unit.card],
        wounds=unit.wounds,
        strengthening=unit.plus,
        weakening=unit.minus,
        exhausted=unit.exhausted,
        book=_BOOKS[unit.book],
        pens=unit.pens,
    )


def _ids(cards: list[int]) -> list[str]:
    return [_CARD_IDS[c] for c in cards]


@functools.lru_cache(maxsize=64)
def _flags(rules: Rules) -> GrimmoirFlags:
    """The flags part of a view, built once per rule set (views only read it)."""
    return GrimmoirFlags(
        faction_exclusivity=rules.faction_exclusivity,  # type: ignore[arg-type]
        shift_choice=rules.shift_choice,  # type: ignore[arg-type]
        swap_columns=rules.swap_columns,  # type: ignore[arg-type]
        back_row_moves=rules.back_row_moves,
        coin_refill=rules.coin_refill,  # type: ignore[arg-type]
        simultaneous_elimination=rules.simultaneous_elimination,  # type: ignore[arg-type]
        team_secrecy=rules.team_secrecy,  # type: ignore[arg-type]
    )


@functools.lru_cache(maxsize=64)
def _options(rules: Rules) -> GrimmoirOptions:
    return GrimmoirOptions(max_rounds=rules.max_rounds)


def sees_team(state: State, viewer: int | None, seat: int) -> bool:
    return state.rules.team_secrecy == "open" or viewer == seat


def build_view(state: State, viewer: int | None, to_act: list[int]) -> GrimmoirView:
    """The view of `viewer` (None: spectator), typed; the game returns its builtins."""
    teams: list[list[str] | None] = []
    hands: list[list[str] | None] = []
    for seat in (0, 1):
        visible = sees_team(state, viewer, seat)
        teams.append(_ids(state.teams[seat]) if visible else None)
        hands.append(_ids(state.hands[seat]) if visible else None)
    rules = state.rules
    board = state.board
    return GrimmoirView(
        game="grimmoir",
        seat=viewer,
        flags=_flags(rules),
        options=_options(rules),
        phase=PHASE_NAMES[state.phase],  # type: ignore[arg-type]
        step=state.step,
        display_position=DISPLAY_STEPS[state.step][0] if state.phase == Phase.DISPLAY else None,  # type: ignore[arg-type]
        first_player=state.first,
        initiative=state.initiative,
        turn=state.turn,
        round=state.round,
        to_act=to_act,
        main_factions=[_faction(f) for f in state.mains],  # type: ignore[misc]
        supporting_factions=[_faction(f) for f in state.supports],  # type: ignore[misc]
        team_sizes=[len(t) for t in state.teams],
        teams=teams,
        hand_sizes=[len(h) for h in state.hands],
        hands=hands,
        face_down_committed=[bool(a) for a in state.arranged],
        my_face_down=_ids(state.arranged[viewer]) if viewer is not None and state.arranged[viewer] else None,
        board=[
            [None if u is None else _unit_view(u) for u in board[:6]],
            [None if u is None else _unit_view(u) for u in board[6:]],
        ],
        fallen=[_ids(f) for f in state.fallen],
        coins=list(state.coins),
        passed=list(state.passed),
        pending_shift=state.pending_shift if state.pending_shift >= 0 else None,
        round_ending=state.round_ending,
        winner=state.winner,
        end_reason=state.end_reason,
    )


# ------------------------------------------------------------------ redrawing what is hidden
def _hidden_cards(state: State, seat: int) -> list[int]:
    """Team cards of `seat` not visible on the battlefield or among the fallen."""
    shown = [u.card for u in state.board[seat * 6 : seat * 6 + 6] if u is not None] + state.fallen[seat]
    hidden = list(state.teams[seat])
    for card in shown:
        hidden.remove(card)
    return hidden


def _sample_cards(state: State, seat: int, count: int, shown: list[int], rng: random.Random) -> list[int]:
    """`count` cards `seat` could hold besides `shown`: its factions' cards, at most 2 supporting in all."""
    main, support = state.mains[seat], state.supports[seat]
    pool = [c for c in BY_FACTION[main] if c not in shown]
    if support >= 0:
        pool += [c for c in BY_FACTION[support] if c not in shown]
    rng.shuffle(pool)
    support_left = MAX_SUPPORT - sum(1 for c in shown if CARDS[c].faction == support)
    chosen: list[int] = []
    for card in pool:
        if len(chosen) == count:
            break
        if CARDS[card].faction == support:
            if support_left <= 0:
                continue
            support_left -= 1
        chosen.append(card)
    return chosen


def redraw_seat(state: State, seat: int, rng: random.Random) -> None:
    """Redraw in place what the other seat cannot see of `seat`."""
    if state.rules.team_secrecy == "secret":
        hidden = _hidden_cards(state, seat)
        shown = [c for c in state.teams[seat] if c not in hidden]
        fresh = _sample_cards(state, seat, len(hidden), shown, rng)
        state.teams[seat] = shown + fresh
        rng.shuffle(state.teams[seat])
        n_hand = len(state.hands[seat])
        state.hands[seat] = sorted(fresh[:n_hand])
        if state.arranged[seat]:
            state.arranged[seat] = fresh[n_hand:]
    if state.arranged[seat]:
        rng.shuffle(state.arranged[seat])


def from_view(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    """A full state agreeing with `view` (of `seat`); the other seat's secrets are sampled."""
    flags, options = view["flags"], view["options"]
    rules = Rules(
        faction_exclusivity=flags["faction_exclusivity"],
        shift_choice=flags["shift_choice"],
        swap_columns=flags["swap_columns"],
        back_row_moves=flags["back_row_moves"],
        coin_refill=flags["coin_refill"],
        simultaneous_elimination=flags["simultaneous_elimination"],
        team_secrecy=flags["team_secrecy"],
        max_rounds=options["max_rounds"],
    )
    board: list[Unit | None] = []
    for side in view["board"]:
        for cell in side:
            if cell is None:
                board.append(None)
                continue
            board.append(
                Unit(
                    card=CARD_INDEX[cell["character"]],
                    wounds=cell["wounds"],
                    plus=cell["strengthening"],
                    minus=cell["weakening"],
                    exhausted=cell["exhausted"],
                    book=_BOOK_CODES[cell["book"]],
                    pens=cell["pens"],
                )
            )
    foe = 1 - seat
    teams: list[list[int]] = [[], []]
    hands: list[list[int]] = [[], []]
    arranged: list[list[int]] = [[], []]
    fallen = [[CARD_INDEX[c] for c in side] for side in view["fallen"]]
    teams[seat] = [CARD_INDEX[c] for c in view["teams"][seat]]
    hands[seat] = [CARD_INDEX[c] for c in view["hands"][seat]]
    if view["my_face_down"]:
        arranged[seat] = [CARD_INDEX[c] for c in view["my_face_down"]]
    state = State(
        rules=rules,
        rng=rng.getrandbits(64),
        phase=Phase(PHASE_NAMES.index(view["phase"])),
        first=view["first_player"],
        initiative=view["initiative"],
        step=view["step"],
        mains=[-1 if f is None else FACTIONS.index(f) for f in view["main_factions"]],
        supports=[-1 if f is None else FACTIONS.index(f) for f in view["supporting_factions"]],
        teams=teams,
        hands=hands,
        arranged=arranged,
        board=board,
        fallen=fallen,
        coins=list(view["coins"]),
        turn=view["turn"],
        passed=list(view["passed"]),
        round=view["round"],
        pending_shift=-1 if view["pending_shift"] is None else view["pending_shift"],
        round_ending=view["round_ending"],
        winner=view["winner"],
        end_reason=view["end_reason"],
    )
    shown = [u.card for u in board[foe * 6 : foe * 6 + 6] if u is not None] + fallen[foe]
    committed = view["face_down_committed"][foe]
    if view["teams"][foe] is not None:
        teams[foe] = [CARD_INDEX[c] for c in view["teams"][foe]]
        hands[foe] = [CARD_INDEX[c] for c in view["hands"][foe]]
        if committed:
            rest = list(teams[foe])
            for card in shown + hands[foe]:
                rest.remove(card)
            rng.shuffle(rest)
            arranged[foe] = rest
    else:
        hidden = view["team_sizes"][foe] - len(shown)
        fresh = _sample_cards(state, foe, hidden, shown, rng)
        teams[foe] = shown + fresh
        n_hand = view["hand_sizes"][foe]
        hands[foe] = sorted(fresh[:n_hand])
        if committed:
            arranged[foe] = fresh[n_hand:]
    return state
