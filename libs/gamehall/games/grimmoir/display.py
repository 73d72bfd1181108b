"""Phase II, character display: steps 1-4 place positions A-F face up in book order, step 5 is a
simultaneous face-down arrangement of the 2nd rows, step 6 reveals it and readies the battle."""

from __future__ import annotations

from itertools import permutations

from gamehall.engine import Action, Event, IllegalAction
from gamehall.games.grimmoir.actions import Arrange, Place
from gamehall.games.grimmoir.catalog import CARD_INDEX, CARDS
from gamehall.games.grimmoir.state import BOOK_OPEN, DISPLAY_STEPS, FRONT, Phase, State, Unit

START_COINS = 5


def placer(state: State) -> int:
    """The seat placing the current display position."""
    return state.first if DISPLAY_STEPS[state.step][1] else 1 - state.first


def placement_columns(state: State) -> list[int]:
    """Columns (0-based) of the placer's 1st row allowed at this step (G-DP-01..04)."""
    seat = placer(state)
    board = state.board
    mine, theirs = seat * 6, (1 - seat) * 6
    empty = [c for c in range(3) if board[mine + c] is None]
    position = DISPLAY_STEPS[state.step][0]
    if position in ("A", "E"):
        return empty  # A: any column; E: the one column left
    if position == "C":
        faced = [c for c in range(3) if board[theirs + c] is not None and board[mine + c] is not None]
        return [c for c in empty if any(abs(c - b) == 1 for b in faced)]  # next to B
    # B, D, F: directly in front of the opponent's card that nothing faces yet
    return [c for c in empty if board[theirs + c] is not None]


def display_actions(state: State, seat: int) -> list[Action]:
    if seat != placer(state):
        return []
    columns = placement_columns(state)
    return [Place(CARDS[card].id, col + 1) for card in state.hands[seat] for col in columns]


def check_place(state: State, seat: int, action: Place) -> None:
    card = CARD_INDEX.get(action.character)
    if card is None or card not in state.hands[seat]:
        raise IllegalAction(f"{action.character} is not in your hand")
    if action.column - 1 not in placement_columns(state):
        position = DISPLAY_STEPS[state.step][0]
        raise IllegalAction(f"position {position} cannot be in column {action.column}")


def apply_place(state: State, seat: int, action: Place, events: list[Event]) -> None:
    card = CARD_INDEX[action.character]
    state.hands[seat].remove(card)
    state.board[seat * 6 + FRONT * 3 + action.column - 1] = Unit(card)
    position = DISPLAY_STEPS[state.step][0]
    events.append(
        Event("placed", {"seat": seat, "position": position, "character": action.character, "column": action.column})
    )
    state.step += 1
    if state.step == len(DISPLAY_STEPS):
        state.phase = Phase.ARRANGE
        state.step = 0


def arrange_actions(state: State, seat: int) -> list[Action]:
    if state.arranged[seat]:
        return []
    ids = [CARDS[c].id for c in state.hands[seat]]
    return [Arrange((a, b, c)) for a, b, c in permutations(ids)]


def check_arrange(state: State, seat: int, action: Arrange) -> None:
    if state.arranged[seat]:
        raise IllegalAction("you have already placed your 2nd row")
    cards = [CARD_INDEX.get(name, -1) for name in action.characters]
    if sorted(cards) != state.hands[seat]:
        raise IllegalAction("step 5 places exactly the three characters left in your hand")


def apply_arrange(state: State, seat: int, action: Arrange, events: list[Event]) -> None:
    state.arranged[seat] = [CARD_INDEX[name] for name in action.characters]
    state.hands[seat] = []
    events.append(Event("face_down_placed", {"seat": seat}))
    events.append(Event("your_face_down", {"characters": list(action.characters)}, frozenset({seat})))
    if all(state.arranged):
        reveal(state, events)


def reveal(state: State, events: list[Event]) -> None:
    """Step 6 and the end of the display: reveal, place book and pen counters, take 5 coins (G-DP-06..10)."""
    for seat in (0, 1):
        for col, card in enumerate(state.arranged[seat]):
            state.board[seat * 6 + 3 + col] = Unit(card)
        events.append(Event("revealed", {"seat": seat, "characters": [CARDS[c].id for c in state.arranged[seat]]}))
        state.arranged[seat] = []
    for unit in state.board:
        if unit is not None:
            printed = CARDS[unit.card]
            unit.book = BOOK_OPEN if printed.has_book else 0
            unit.pens = printed.pens
    state.coins = [START_COINS, START_COINS]
    state.phase = Phase.BATTLE
    state.round = 1
    state.initiative = state.first
    state.passed = [False, False]
    events.append(Event("battle_begins", {"first_player": state.first}))
