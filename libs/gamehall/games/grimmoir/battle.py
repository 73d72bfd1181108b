"""Phase III, the battle: legal actions with their coin costs, applying them, and the round flow
(passing, end of round, initiative, new round, game end)."""

from __future__ import annotations

from gamehall.engine import Action, Event, IllegalAction
from gamehall.games.grimmoir.actions import Attack, Move, Pass, ShiftColumn, Special, Swap
from gamehall.games.grimmoir.board import column_occupied, count_units, reach, settle, shift_candidates, shift_column
from gamehall.games.grimmoir.catalog import CARD_INDEX, CARDS
from gamehall.games.grimmoir.effects import end_of_round, reset_for_round, resolve_attack, resolve_special
from gamehall.games.grimmoir.state import BOOK_CLOSED, BOOK_OPEN, DRAW, Phase, State

ROUND_COINS = 5
_IDS = tuple(card.id for card in CARDS)


# ------------------------------------------------------------------ costs
def attack_cost(exhausted: bool) -> int:
    """1 coin (and the attacker exhausts) when prepared, 2 coins when already exhausted (G-AT-02/03)."""
    return 2 if exhausted else 1


def special_targets(state: State, slot: int) -> list[int] | None:
    """Slots a Special of the unit at `slot` may aim at ([-1] for no target), or None if it cannot act."""
    unit = state.board[slot]
    assert unit is not None
    skill = CARDS[unit.card].special
    if skill is None or unit.book != BOOK_OPEN or unit.exhausted:
        return None
    board = state.board
    seat = slot // 6
    if skill.choose == "none":
        return [-1]
    if skill.choose == "enemy":
        base = (1 - seat) * 6
        return [i for i in range(base, base + 6) if board[i] is not None]
    base = seat * 6
    return [i for i in range(base, base + 6) if board[i] is not None and (skill.choose == "ally" or i != slot)]


def move_allowed(state: State, seat: int, src: int, dest: int) -> str | None:
    """Why moving the unit at `src` to blank `dest` is illegal, or None (G-MV-01, G-MV-04, AMB-9)."""
    board = state.board
    if board[dest] is not None:
        return "the destination is not a blank space"
    if dest % 6 >= 3 and not state.rules.back_row_moves:
        return "moves may only target the 1st row (flag back_row_moves)"
    if not column_occupied(board, 1 - seat, dest % 3):
        return "a character cannot be moved into a column with no opponent characters"
    return None


def swap_allowed(state: State, seat: int, a: int, b: int) -> str | None:
    """Why swapping the units at `a` and `b` is illegal, or None (G-MV-02, AMB-3)."""
    ca, cb = a % 3, b % 3
    if ca == cb or state.rules.swap_columns == "moves_only":
        return None
    foe = 1 - seat
    if not (column_occupied(state.board, foe, ca) and column_occupied(state.board, foe, cb)):
        return "a swap cannot put a character into a column with no opponent characters"
    return None


# ------------------------------------------------------------------ legal actions
def paid_actions(state: State, seat: int, first_only: bool = False) -> list[Action]:
    """Every attack, special, move and swap `seat` can pay for, in board order.

    Written flat for speed (random playouts call it twice a step); `move_allowed` and
    `swap_allowed` state the same rules one case at a time for validation.
    """
    coins = state.coins[seat]
    if coins <= 0:
        return []
    board = state.board
    base = seat * 6
    foe = 6 - base
    own = [i for i in range(base, base + 6) if board[i] is not None]
    names = [_IDS[board[i].card] for i in own]  # type: ignore[union-attr]
    out: list[Action] = []
    for i, name in zip(own, names, strict=True):
        unit = board[i]
        if coins >= (2 if unit.exhausted else 1):  # type: ignore[union-attr]
            for t in reach(board, i):
                out.append(Attack(name, _IDS[board[t].card]))  # type: ignore[union-attr]
            if first_only and out:
                return out
    for i, name in zip(own, names, strict=True):
        unit = board[i]
        if unit.book == BOOK_OPEN and not unit.exhausted:  # type: ignore[union-attr]
            targets = special_targets(state, i)
            if targets is not None:
                out.extend(Special(name, None if t < 0 else _IDS[board[t].card]) for t in targets)  # type: ignore[union-attr]
                if first_only and out:
                    return out
    foe_cols = (
        board[foe] is not None or board[foe + 3] is not None,
        board[foe + 1] is not None or board[foe + 4] is not None,
        board[foe + 2] is not None or board[foe + 5] is not None,
    )
    blanks = [
        d
        for d in range(base, base + 6)
        if board[d] is None and foe_cols[d % 3] and (d - base < 3 or state.rules.back_row_moves)
    ]
    if blanks:
        for name in names:
            for dest in blanks:  # any blank, the one right behind included (G-MV-01)
                out.append(Move(name, (dest - base) // 3 + 1, dest % 3 + 1))
                if first_only:
                    return out
    free_swaps = state.rules.swap_columns == "moves_only"
    n = len(own)
    for x in range(n):
        ca = own[x] % 3
        for y in range(x + 1, n):
            cb = own[y] % 3
            if ca == cb or free_swaps or (foe_cols[ca] and foe_cols[cb]):
                out.append(Swap(names[x], names[y]))
                if first_only:
                    return out
    return out


def battle_actions(state: State, seat: int) -> list[Action]:
    if state.pending_shift >= 0:
        if seat != state.pending_shift:
            return []
        return [ShiftColumn(c + 1) for c in shift_candidates(state.board, seat)]
    if seat != state.turn:
        return []
    actions = paid_actions(state, seat)
    actions.append(Pass())
    return actions


def can_act(state: State, seat: int) -> bool:
    """Whether `seat` is still in the round: it has not passed and can pay for some action (G-BT-04)."""
    return not state.passed[seat] and bool(paid_actions(state, seat, first_only=True))


# ------------------------------------------------------------------ validation
def own_slot(state: State, seat: int, name: str) -> int:
    card = CARD_INDEX.get(name, -1)
    base = seat * 6
    for i in range(base, base + 6):
        unit = state.board[i]
        if unit is not None and unit.card == card:
            return i
    raise IllegalAction(f"you have no character {name!r} on the battlefield")


def enemy_slot(state: State, seat: int, name: str) -> int:
    return own_slot(state, 1 - seat, name) if _exists_for(state, 1 - seat, name) else _no_enemy(name)


def _exists_for(state: State, seat: int, name: str) -> bool:
    card = CARD_INDEX.get(name, -1)
    return any(u is not None and u.card == card for u in state.board[seat * 6 : seat * 6 + 6])


def _no_enemy(name: str) -> int:
    raise IllegalAction(f"the opponent has no character {name!r} on the battlefield")


def check_battle_action(state: State, seat: int, action: Action) -> None:
    """Raise IllegalAction with the precise reason when `action` is not legal for `seat` now."""
    if state.pending_shift >= 0:
        if not isinstance(action, ShiftColumn):
            raise IllegalAction("choose which side column shifts to your empty centre first")
        if action.column - 1 not in shift_candidates(state.board, seat):
            raise IllegalAction(f"column {action.column} cannot shift to the centre")
        return
    if isinstance(action, ShiftColumn):
        raise IllegalAction("no column shift is waiting for a choice")
    if isinstance(action, Pass):
        return
    coins = state.coins[seat]
    if coins <= 0:
        raise IllegalAction("you have no coins left")
    board = state.board
    if isinstance(action, Attack):
        a = own_slot(state, seat, action.attacker)
        t = enemy_slot(state, seat, action.target)
        unit = board[a]
        assert unit is not None
        cost = attack_cost(unit.exhausted)
        if coins < cost:
            raise IllegalAction(f"this attack costs {cost} coins and you have {coins}")
        if t not in reach(board, a):
            raise IllegalAction(f"{action.target} is out of {action.attacker}'s reach")
    elif isinstance(action, Special):
        s = own_slot(state, seat, action.character)
        unit = board[s]
        assert unit is not None
        skill = CARDS[unit.card].special
        if skill is None:
            raise IllegalAction(f"{action.character} has no book icon, so no Special action")
        if unit.book != BOOK_OPEN:
            raise IllegalAction(f"{action.character}'s book is closed")
        if unit.exhausted:
            raise IllegalAction(f"{action.character} is exhausted")
        targets = special_targets(state, s) or []
        if action.target is None:
            if targets != [-1]:
                raise IllegalAction(f"{action.character}'s special needs a target")
        else:
            if targets == [-1]:
                raise IllegalAction(f"{action.character}'s special takes no target")
            side = 1 - seat if skill.choose == "enemy" else seat
            t = own_slot(state, side, action.target) if _exists_for(state, side, action.target) else -2
            if t not in targets:
                raise IllegalAction(f"{action.target} is not a valid target for {action.character}'s special")
    elif isinstance(action, Move):
        if not (1 <= action.row <= 2 and 1 <= action.column <= 3):
            raise IllegalAction("rows are 1-2 and columns 1-3")
        src = own_slot(state, seat, action.character)
        dest = seat * 6 + (action.row - 1) * 3 + action.column - 1
        reason = "the character is already there" if dest == src else move_allowed(state, seat, src, dest)
        if reason:
            raise IllegalAction(reason)
    elif isinstance(action, Swap):
        a = own_slot(state, seat, action.first)
        b = own_slot(state, seat, action.second)
        if a >= b:
            raise IllegalAction("name two different characters, the first one earlier in board order")
        reason = swap_allowed(state, seat, a, b)
        if reason:
            raise IllegalAction(reason)
    else:
        raise IllegalAction(f"{type(action).__name__} is not a battle action")


# ------------------------------------------------------------------ applying
def apply_battle(state: State, seat: int, action: Action, events: list[Event]) -> None:
    board = state.board
    if isinstance(action, ShiftColumn):
        shift_column(board, seat, action.column - 1, events)
        state.pending_shift = -1
        flow(state, state.turn, events)
        return
    if isinstance(action, Pass):
        state.passed[seat] = True
        events.append(Event("passed", {"seat": seat}))
    elif isinstance(action, Attack):
        a = own_slot(state, seat, action.attacker)
        t = own_slot(state, 1 - seat, action.target)
        unit = board[a]
        assert unit is not None
        state.coins[seat] -= attack_cost(unit.exhausted)
        unit.exhausted = True
        resolve_attack(state, a, t, events)
    elif isinstance(action, Special):
        s = own_slot(state, seat, action.character)
        unit = board[s]
        assert unit is not None
        state.coins[seat] -= 1
        unit.book = BOOK_CLOSED
        unit.exhausted = True
        target = -1
        if action.target is not None:
            skill = CARDS[unit.card].special
            assert skill is not None
            target = own_slot(state, 1 - seat if skill.choose == "enemy" else seat, action.target)
        events.append(Event("special", {"seat": seat, "character": action.character, "target": action.target}))
        resolve_special(state, s, target, events)
    elif isinstance(action, Move):
        src = own_slot(state, seat, action.character)
        dest = seat * 6 + (action.row - 1) * 3 + action.column - 1
        state.coins[seat] -= 1
        board[dest], board[src] = board[src], None
        events.append(
            Event("moved", {"seat": seat, "character": action.character, "row": action.row, "column": action.column})
        )
    elif isinstance(action, Swap):
        a = own_slot(state, seat, action.first)
        b = own_slot(state, seat, action.second)
        state.coins[seat] -= 1
        board[a], board[b] = board[b], board[a]
        events.append(Event("swapped", {"seat": seat, "first": action.first, "second": action.second}))
    flow(state, seat, events)


def flow(state: State, actor: int, events: list[Event]) -> None:
    """After an action: automatic moves, game end, then whose turn it is, ending and starting rounds."""
    while True:
        pending = settle(state, events)
        if pending >= 0:
            state.pending_shift = pending
            state.turn = actor
            return
        if game_over(state, actor, events):
            return
        if state.round_ending:
            new_round(state, events)
            if state.phase == Phase.OVER:
                return
            order = (state.initiative, 1 - state.initiative)
        else:
            order = (1 - actor, actor)
        for seat in order:
            if can_act(state, seat):
                state.turn = seat
                return
        events.append(Event("round_end", {"round": state.round}))
        end_of_round(state, events)
        state.round_ending = True


def game_over(state: State, active: int, events: list[Event]) -> bool:
    """G-EG-01/02: a side with no characters loses; both at once is AMB-6 (flag)."""
    alive = (count_units(state.board, 0), count_units(state.board, 1))
    if alive[0] and alive[1]:
        return False
    if not alive[0] and not alive[1]:
        if state.rules.simultaneous_elimination == "active_player_wins":
            state.winner, state.end_reason = active, "both sides fell; the active player wins"
        else:
            state.winner, state.end_reason = DRAW, "both sides fell at once"
    else:
        state.winner = 0 if alive[0] else 1
        state.end_reason = "all opposing characters defeated"
    state.phase = Phase.OVER
    state.pending_shift = -1
    events.append(Event("game_over", {"winner": state.winner, "reason": state.end_reason}))
    return True


def new_round(state: State, events: list[Event]) -> None:
    """Initiative (G-ER-02), then prepare all, open books, refill coins (G-NR-01..03)."""
    alive = (count_units(state.board, 0), count_units(state.board, 1))
    if alive[0] != alive[1]:
        state.initiative = 0 if alive[0] < alive[1] else 1
    else:
        state.initiative = 1 - state.initiative
    state.round_ending = False
    state.round += 1
    if state.round > state.rules.max_rounds:
        state.phase = Phase.OVER
        state.winner, state.end_reason = DRAW, f"round limit ({state.rules.max_rounds}) reached"
        events.append(Event("game_over", {"winner": state.winner, "reason": state.end_reason}))
        return
    reset_for_round(state.board)
    if state.rules.coin_refill == "reset":
        state.coins = [ROUND_COINS, ROUND_COINS]
    else:
        state.coins = [max(c, ROUND_COINS) for c in state.coins]
    state.passed = [False, False]
    events.append(Event("new_round", {"round": state.round, "first_player": state.initiative}))
