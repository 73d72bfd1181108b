"""Who sits where: living seats, clockwise order from the first player, teams, foes and targets."""

from __future__ import annotations

from gamehall.games.grimslingers.rules import team_count
from gamehall.games.grimslingers.state import State


def living(s: State) -> list[int]:
    return [i for i, seat in enumerate(s.seats) if seat.alive]


def team_of(s: State, seat: int) -> int:
    """Team modes seat teammates alternately (A, X, B, Y): team = seat % teams; creature duels put
    every player on side 0 and the creature on side 1; otherwise a seat is its own team."""
    if s.creature >= 0:
        return 1 if seat == s.creature else 0
    return seat % team_count(s.mode, s.n)


def is_foe(s: State, a: int, b: int) -> bool:
    return team_of(s, a) != team_of(s, b)


def foes(s: State, seat: int) -> list[int]:
    return [t for t in living(s) if team_of(s, t) != team_of(s, seat)]


def team(s: State, seat: int) -> list[int]:
    return [t for t in living(s) if team_of(s, t) == team_of(s, seat)]


def fp_order(s: State) -> list[int]:
    """Living seats clockwise (to the left) from the first player."""
    return [(s.first_player + k) % s.n for k in range(s.n) if s.seats[(s.first_player + k) % s.n].alive]


def seat_key(s: State, seat: int) -> int:
    """Tie-break rank: 0 for the first player, then clockwise."""
    return (seat - s.first_player) % s.n


def uses_target_cards(s: State) -> bool:
    """Target cards (Draw Step One) only with more than two Grimslingers in a versus duel."""
    return not s.advanced and s.creature < 0 and len(living(s)) > 2


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


def draw_in_order(s: State) -> bool:
    """Core Draw Step Two is declared seat by seat from the first player (R-111, R-115); Advanced
    Duels is simultaneous (R-118), and so is core with flag `draw_in_turn_order` off."""
    if s.creature >= 0:
        return True  # players play face up, one after another, after the creature
    return not s.advanced and s.flags.draw_in_turn_order


def player_seats(s: State) -> list[int]:
    """The Grimslinger seats (not the creature)."""
    return list(range(s.players))


def player_order(s: State) -> list[int]:
    """Living players in the order they act: clockwise from the first player (the creature, in a
    creature duel, acts on its own before them)."""
    return [i for i in fp_order(s) if i != s.creature]
