"""Who sits where: living seats, clockwise order from the first player, teams, foes and targets."""

from __future__ import annotations

from gamehall.games.grimslingers.state import State


def living(s: State) -> list[int]:
    return [i for i, seat in enumerate(s.seats) if seat.alive]


def team_of(s: State, seat: int) -> int:
    """Teams mode seats teammates alternately (A, X, B, Y): team = seat % 2; otherwise a seat is its team."""
    return seat % 2 if s.mode == "versus-teams" else seat


def is_foe(s: State, a: int, b: int) -> bool:
    return team_of(s, a) != team_of(s, b)


def foes(s: State, seat: int) -> list[int]:
    return [t for t in living(s) if team_of(s, t) != team_of(s, seat)]


def team(s: State, seat: int) -> list[int]:
    return [t for t in living(s) if team_of(s, t) == team_of(s, seat)]


def fp_order(s: State) -> list[int]:
    """Living seats clockwise (to the left) from the first player."""
    return [(s.fp + k) % s.n for k in range(s.n) if s.seats[(s.fp + k) % s.n].alive]


def seat_key(s: State, seat: int) -> int:
    """Tie-break rank: 0 for the first player, then clockwise."""
    return (seat - s.fp) % s.n


def uses_target_cards(s: State) -> bool:
    """Target cards (Draw Step One) only with more than two Grimslingers in the duel."""
    return not s.advanced and len(living(s)) > 2


def aimed_target(s: State, seat: int) -> int:
    """The seat `seat`'s Single Target cards hit: its revealed target card, or the one other living seat."""
    aim = s.seats[seat].aim
    if aim >= 0:
        return aim
    others = [t for t in living(s) if t != seat]
    foes_left = [t for t in others if is_foe(s, seat, t)]
    pool = foes_left or others
    return pool[0] if pool else seat


def next_living(s: State, seat: int) -> int:
    for k in range(1, s.n + 1):
        cand = (seat + k) % s.n
        if s.seats[cand].alive:
            return cand
    return seat
