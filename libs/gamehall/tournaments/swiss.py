"""Swiss pairing: FIDE Dutch principles, simplified, with weighted matching where the simple rule fails.

Rules followed (FIDE C.04.3 Dutch, simplified):
1. Players are ordered by score, then by initial seed (rating order).
2. Absolute: no two players meet twice while another pairing avoids it; no player gets a second
   bye while another player can take it.
3. The bye (odd field) goes to the lowest-ordered player of the lowest score group who has had none.
4. Score groups are paired top down. In a bracket (downfloaters from above first, then the group)
   the top half S1 plays the bottom half S2 in order (S1[i] v S2[i]); a rematch is resolved by
   transposing S2 with the nearest following compatible player.
5. If that fails, the bracket is paired by maximum weight matching (networkx) whose weights prefer
   pairs closest to S1[i] v S2[i], score-equal pairs, and the lowest players as downfloaters.
6. An odd bracket floats its lowest player down; a bracket that cannot be paired is merged with the
   bracket above it and re-paired (a simplified backtrack), ultimately the whole field.
7. Seats (colours): the player with fewer first seats takes the first seat; then the one who had
   the second seat last round; then alternate by table with the higher player first on odd tables.
Not followed: FIDE's exact transposition/exchange enumeration order, colour-preference strengths,
and the minimisation of upfloats across rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import networkx as nx


class SwissPlayer(NamedTuple):
    """What pairing needs to know about one active player."""

    id: str
    score: float
    seed: int
    opponents: frozenset[str]
    had_bye: bool = False
    seat_balance: int = 0
    """First seats minus second seats so far."""
    last_seat: int = -1


Pairs = list[tuple[str, str]]


def pair_round(players: Sequence[SwissPlayer]) -> tuple[Pairs, str | None]:
    """Pairs (first seat, second seat) in table order, and the bye player (None for an even field)."""
    order = sorted(players, key=lambda p: (-p.score, p.seed))
    if len(order) % 2 == 0:
        pairs = _pair_even(order, allow_rematch=False) or _pair_even(order, allow_rematch=True)
        assert pairs is not None  # rematches allowed: a complete graph always has a perfect matching
        return _seat(order, pairs), None
    candidates = [p for p in reversed(order) if not p.had_bye] or list(reversed(order))
    for allow_rematch in (False, True):
        for bye in candidates:
            rest = [p for p in order if p.id != bye.id]
            found = _pair_even(rest, allow_rematch)
            if found is not None:
                return _seat(rest, found), bye.id
    raise AssertionError("unreachable: rematches allowed always pair an even field")


def _groups(order: Sequence[SwissPlayer]) -> list[list[SwissPlayer]]:
    groups: list[list[SwissPlayer]] = []
    for p in order:
        if groups and groups[-1][0].score == p.score:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def _pair_even(order: Sequence[SwissPlayer], allow_rematch: bool) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    """Bracket by bracket, merging a failed bracket into the one above; None if no pairing exists."""
    if allow_rematch:
        return _weighted(list(order), 0, last=True, allow_rematch=True)[0] if order else []
    groups = _groups(order)
    incoming: list[list[SwissPlayer]] = []
    made: list[list[tuple[SwissPlayer, SwissPlayer]]] = []
    floaters: list[SwissPlayer] = []
    i = 0
    while i < len(groups):
        bracket = floaters + groups[i]
        last = i == len(groups) - 1
        result = _pair_bracket(bracket, len(floaters), last)
        if result is None:
            if i == 0:
                return None
            groups[i - 1] = groups[i - 1] + groups[i]
            del groups[i]
            i -= 1
            floaters = incoming[i]
            del incoming[i:]
            del made[i:]
            continue
        incoming.append(floaters)
        pairs, floaters = result
        made.append(pairs)
        i += 1
    return [pair for bracket_pairs in made for pair in bracket_pairs]


BracketResult = tuple[list[tuple[SwissPlayer, SwissPlayer]], list[SwissPlayer]]


def _pair_bracket(bracket: list[SwissPlayer], n_floaters: int, last: bool) -> BracketResult | None:
    """Pairs of one bracket and its downfloaters, or None if it cannot be paired."""
    if not bracket:
        return [], []
    if last and len(bracket) % 2:
        return None
    fast = _dutch_fast(bracket)
    if fast is not None:
        return fast
    pairs, floaters = _weighted(bracket, n_floaters, last, allow_rematch=False)
    if pairs is None:
        return None
    return pairs, floaters


def _dutch_fast(bracket: list[SwissPlayer]) -> BracketResult | None:
    """S1[i] v S2[i] with rematches fixed by transposing S2; None if a rematch remains."""
    h = len(bracket) // 2
    s1, s2 = bracket[:h], list(bracket[h:])
    for i in range(h):
        if s2[i].id not in s1[i].opponents:
            continue
        for j in range(i + 1, len(s2)):
            if s2[j].id not in s1[i].opponents:
                s2[i], s2[j] = s2[j], s2[i]
                break
        else:
            return None
    pairs = list(zip(s1, s2[:h], strict=True))
    if any(b.id in a.opponents for a, b in pairs):
        return None
    return pairs, s2[h:]


_PAIR_BASE = 1_000_000_000


def _weighted(
    bracket: list[SwissPlayer], n_floaters: int, last: bool, allow_rematch: bool
) -> tuple[list[tuple[SwissPlayer, SwissPlayer]] | None, list[SwissPlayer]]:
    """Maximum weight matching of a bracket, with float slots for the players who must go down."""
    m = len(bracket)
    h = m // 2
    floats = 0 if last else m % 2
    while floats <= (0 if last else m):
        graph = nx.Graph()
        graph.add_nodes_from(range(m))
        for a in range(m):
            pa = bracket[a]
            for b in range(a + 1, m):
                pb = bracket[b]
                rematch = pb.id in pa.opponents
                if rematch and not allow_rematch:
                    continue
                weight = _PAIR_BASE - 1000 * abs((b - a) - h)
                weight -= 10_000_000 * round(2 * abs(pa.score - pb.score))
                if rematch:
                    weight -= _PAIR_BASE // 2
                graph.add_edge(a, b, weight=weight)
            for f in range(floats):
                graph.add_edge(a, ("float", f), weight=10 * a - (100_000 if a < n_floaters else 0))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        partner: dict[object, object] = {}
        for x, y in matching:
            partner[x] = y
            partner[y] = x
        if all(a in partner for a in range(m)):
            pairs = []
            floaters = []
            for a in range(m):
                other = partner[a]
                if isinstance(other, tuple):
                    floaters.append(bracket[a])
                elif isinstance(other, int) and a < other:
                    pairs.append((bracket[a], bracket[other]))
            return pairs, floaters
        if last:
            break
        floats += 2
    return None, []


def _seat(order: Sequence[SwissPlayer], pairs: list[tuple[SwissPlayer, SwissPlayer]]) -> Pairs:
    """Tables in order of the higher player's rank; seats by rule 7."""
    rank = {p.id: k for k, p in enumerate(order)}
    ranked = sorted(
        ((a, b) if rank[a.id] < rank[b.id] else (b, a) for a, b in pairs),
        key=lambda pair: (-max(pair[0].score, pair[1].score), rank[pair[0].id]),
    )
    out: Pairs = []
    for table, (high, low) in enumerate(ranked):
        if high.seat_balance != low.seat_balance:
            first = high if high.seat_balance < low.seat_balance else low
        elif high.last_seat != low.last_seat and high.last_seat >= 0 and low.last_seat >= 0:
            first = high if high.last_seat == 1 else low
        else:
            first = high if table % 2 == 0 else low
        second = low if first is high else high
        out.append((first.id, second.id))
    return out
