"""Queue matching: one pass over the waiting tickets of a (game, mode) makes the fairest matches it can.

The pass sorts tickets by skill and only ever looks at close neighbours in that order, so it
runs in O(n log n): (1) tickets past `max_wait_s`, oldest first, take their nearest feasible
neighbours; (2) every free ticket proposes the group of its next acceptable neighbours (all
members within each other's window), and proposals are taken best predicted-draw first,
repeated until nothing changes; (3) tickets past `bot_fill_after` that allow bots get bot seats.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from gamehall.matchmaking.errors import AlreadyQueued, InvalidTicket, UnknownTicket
from gamehall.matchmaking.packing import assign_teams, fits
from gamehall.matchmaking.ratings import MODEL, Rating, draw_margin, predict_draw
from gamehall.matchmaking.tickets import Match, MatchPolicy, MatchShape, PassResult, Reason, Seat, Ticket


class _Pool:
    """The tickets of one constraint pool, sorted by skill, with the per-pass bookkeeping."""

    def __init__(self, tickets: list[Ticket], now: float, policy: MatchPolicy) -> None:
        # Sorted by skill; equal skills by enqueue time then ticket id, so the order never depends on input order.
        mus = [_mu(t) for t in tickets]
        order = sorted(range(len(tickets)), key=mus.__getitem__)
        if len(set(mus)) != len(mus):
            order.sort(key=lambda k: (mus[k], tickets[k].enqueued_at, tickets[k].id))
        self.tickets = [tickets[k] for k in order]
        self.mu = [mus[k] for k in order]
        self.size = [len(t.members) for t in self.tickets]
        self.wait = [now - t.enqueued_at for t in self.tickets]
        window = policy.window
        self.window = [window(w) for w in self.wait]
        self.taken = bytearray(len(order))
        self.var = [_variance(t) for t in self.tickets]


def _mu(ticket: Ticket) -> float:
    members = ticket.members
    return members[0].rating.mu if len(members) == 1 else ticket.mu


def _variance(ticket: Ticket) -> float:
    return sum(m.rating.sigma * m.rating.sigma for m in ticket.members)


def _ratings(ticket: Ticket) -> list[Rating]:
    return [m.rating for m in ticket.members]


def _build(pool: _Pool, members: Sequence[int], shape: MatchShape, reason: Reason) -> Match:
    """The match of tickets `members` of `pool` (seats filled exactly), teams balanced for quality."""
    tickets = [pool.tickets[i] for i in members]
    choice, quality = assign_teams([_ratings(t) for t in tickets], shape)
    teams: tuple[tuple[Seat, ...], ...]
    if shape.free_for_all:
        teams = tuple((Seat(m.player, t.id, m.rating),) for t in tickets for m in t.members)
    else:
        grouped: list[list[Seat]] = [[] for _ in range(shape.teams)]
        for ticket, team in zip(tickets, choice, strict=True):
            grouped[team].extend(Seat(m.player, ticket.id, m.rating) for m in ticket.members)
        teams = tuple(tuple(team) for team in grouped)
    return Match(tuple(t.id for t in tickets), teams, quality, reason)


def _pair_quality(a: Ticket, b: Ticket) -> float:
    return predict_draw([_ratings(a), _ratings(b)])


def _propose(pool: _Pool, i: int, shape: MatchShape, lookahead: int) -> list[int] | None:
    """Ticket i plus its next free neighbours up in skill that all accept each other, or None."""
    mu, size, window, taken = pool.mu, pool.size, pool.window, pool.taken
    members = [i]
    sizes = [size[i]]
    seats = size[i]
    limit = window[i]
    looked = 0
    j = i + 1
    n = len(mu)
    while seats < shape.seats and j < n and looked < lookahead:
        if not taken[j]:
            looked += 1
            gap = mu[j] - mu[i]
            if gap > limit:
                break
            if gap <= window[j] and fits([*sizes, size[j]], shape):
                members.append(j)
                sizes.append(size[j])
                seats += size[j]
                limit = min(limit, window[j])
        j += 1
    if seats != shape.seats or not fits(sizes, shape):
        return None
    return members


def _quality_of(pool: _Pool, members: list[int], shape: MatchShape) -> float:
    if len(members) == 2 and shape.teams == 2:
        return _pair_quality(pool.tickets[members[0]], pool.tickets[members[1]])
    return assign_teams([_ratings(pool.tickets[k]) for k in members], shape)[1]


def _window_pairs(pool: _Pool, policy: MatchPolicy) -> list[Match]:
    """`_window_matches` for 1v1 of solo tickets: the same rule, inlined (the 100k-ticket hot path)."""
    made: list[Match] = []
    mu, var, window, taken, tickets = pool.mu, pool.var, pool.window, pool.taken, pool.tickets
    margin = draw_margin(2)
    two_beta2 = 2 * MODEL.beta * MODEL.beta
    erf, sqrt, root2 = math.erf, math.sqrt, math.sqrt(2.0)
    lookahead = policy.lookahead
    free = [i for i in range(len(mu)) if not taken[i]]
    while len(free) > 1:
        firsts: list[int] = []
        seconds: list[int] = []
        count = len(free)
        for p in range(count - 1):
            i = free[p]
            limit = window[i]
            mu_i = mu[i]
            for q in range(p + 1, min(count, p + 1 + lookahead)):
                j = free[q]
                gap = mu[j] - mu_i
                if gap > limit:
                    break
                if gap <= window[j]:
                    firsts.append(i)
                    seconds.append(j)
                    break
        quality_of = [
            0.5 * (erf((margin + gap) / scale) - erf((gap - margin) / scale))
            for gap, scale in (
                (mu[j] - mu[i], sqrt(two_beta2 + var[i] + var[j]) * root2) for i, j in zip(firsts, seconds, strict=True)
            )
        ]
        # Best quality first; the sort is stable, so equal qualities keep skill order.
        order = sorted(range(len(quality_of)), key=quality_of.__getitem__, reverse=True)
        before = len(made)
        for k in order:
            i, j = firsts[k], seconds[k]
            if taken[i] or taken[j]:
                continue
            taken[i] = taken[j] = 1
            a, b = tickets[i], tickets[j]
            ma, mb = a.members[0], b.members[0]
            teams = ((Seat(ma.player, a.id, ma.rating),), (Seat(mb.player, b.id, mb.rating),))
            made.append(Match((a.id, b.id), teams, quality_of[k], "window"))
        if len(made) == before:
            break
        free = [i for i in free if not taken[i]]
    return made


def _window_matches(pool: _Pool, shape: MatchShape, policy: MatchPolicy) -> list[Match]:
    if shape.teams == 2 and shape.team_size == 1 and all(size == 1 for size in pool.size):
        return _window_pairs(pool, policy)
    return _window_groups(pool, shape, policy)


def _window_groups(pool: _Pool, shape: MatchShape, policy: MatchPolicy) -> list[Match]:
    """Proposals of every free ticket, best predicted draw first, until a round adds nothing."""
    made: list[Match] = []
    taken = pool.taken
    while True:
        proposals: list[tuple[float, int, list[int]]] = []
        for i in range(len(pool.tickets)):
            if taken[i]:
                continue
            members = _propose(pool, i, shape, policy.lookahead)
            if members is not None:
                proposals.append((-_quality_of(pool, members, shape), i, members))
        proposals.sort(key=lambda p: (p[0], p[1]))
        before = len(made)
        for _, _, members in proposals:
            if any(taken[k] for k in members):
                continue
            for k in members:
                taken[k] = 1
            made.append(_build(pool, members, shape, "window"))
        if len(made) == before:
            return made


def _nearest_free(pool: _Pool, i: int) -> Iterable[int]:
    """Free tickets of the pool ordered by skill distance from ticket i (ties: the lower one first)."""
    lo, hi = i - 1, i + 1
    n = len(pool.mu)
    while lo >= 0 or hi < n:
        while lo >= 0 and pool.taken[lo]:
            lo -= 1
        while hi < n and pool.taken[hi]:
            hi += 1
        if lo < 0 and hi >= n:
            return
        if hi >= n or (lo >= 0 and pool.mu[i] - pool.mu[lo] <= pool.mu[hi] - pool.mu[i]):
            yield lo
            lo -= 1
        else:
            yield hi
            hi += 1


def _starving_matches(pool: _Pool, shape: MatchShape, policy: MatchPolicy) -> list[Match]:
    """Tickets past max wait, oldest first, take the nearest feasible free tickets whatever the gap."""
    made: list[Match] = []
    starving = sorted(
        (i for i, w in enumerate(pool.wait) if w >= policy.max_wait_s),
        key=lambda i: (pool.tickets[i].enqueued_at, pool.tickets[i].id),
    )
    for i in starving:
        if pool.taken[i]:
            continue
        members = [i]
        sizes = [pool.size[i]]
        for j in _nearest_free(pool, i):
            if sum(sizes) == shape.seats:
                break
            if fits([*sizes, pool.size[j]], shape):
                members.append(j)
                sizes.append(pool.size[j])
        if sum(sizes) == shape.seats:
            for k in members:
                pool.taken[k] = 1
            made.append(_build(pool, sorted(members), shape, "max-wait"))
    return made


def _bot_matches(pool: _Pool, shape: MatchShape, policy: MatchPolicy) -> list[Match]:
    """Each free ticket past `bot_fill_after` that allows bots plays with bots rated like its party."""
    if policy.bot_fill_after is None:
        return []
    made: list[Match] = []
    for i, ticket in enumerate(pool.tickets):
        if pool.taken[i] or pool.wait[i] < policy.bot_fill_after or not ticket.constraints.allow_bots:
            continue
        pool.taken[i] = 1
        bot_rating = Rating(ticket.mu, ticket.members[0].rating.sigma)
        humans = [Seat(m.player, ticket.id, m.rating) for m in ticket.members]
        teams: tuple[tuple[Seat, ...], ...]
        if shape.free_for_all:
            seats = humans + [Seat(None, None, bot_rating)] * (shape.seats - len(humans))
            teams = tuple((s,) for s in seats)
        else:
            first = humans + [Seat(None, None, bot_rating)] * (shape.team_size - len(humans))
            rest = [(Seat(None, None, bot_rating),) * shape.team_size] * (shape.teams - 1)
            teams = (tuple(first), *rest)
        quality = predict_draw([[s.rating for s in team] for team in teams])
        made.append(Match((ticket.id,), teams, quality, "bot-fill"))
    return made


def match_pass(tickets: Sequence[Ticket], shape: MatchShape, now: float, policy: MatchPolicy) -> PassResult:
    """Match the waiting tickets of one (game, mode); deterministic for the same input.

    Only tickets of the same constraint pool meet. Every ticket appears in at most one match;
    the others are returned in input order.
    """
    limit = shape.seats if shape.free_for_all else shape.team_size
    for ticket in tickets:
        if not 1 == len(ticket.members) <= limit:
            shape.check(ticket)
    by_pool: dict[str, list[Ticket]] = {}
    for ticket in tickets:
        by_pool.setdefault(ticket.constraints.pool, []).append(ticket)
    matches: list[Match] = []
    matched: set[str] = set()
    for name in sorted(by_pool):
        pool = _Pool(by_pool[name], now, policy)
        made = _starving_matches(pool, shape, policy)
        made += _window_matches(pool, shape, policy)
        made += _bot_matches(pool, shape, policy)
        matches += made
        matched.update(pool.tickets[i].id for i, t in enumerate(pool.taken) if t)
    remaining = [t for t in tickets if t.id not in matched]
    return PassResult(matches, remaining)


class Queue:
    """The waiting tickets of one game across its modes; a player holds at most one ticket per game."""

    def __init__(self, game: str, shapes: Mapping[str, MatchShape]) -> None:
        self.game = game
        self.shapes = dict(shapes)
        self._tickets: dict[str, Ticket] = {}
        self._ticket_of: dict[str, str] = {}

    def enqueue(self, ticket: Ticket) -> None:
        """Queue `ticket`; raises InvalidTicket (wrong game/mode, bad party) or AlreadyQueued."""
        if ticket.game != self.game:
            raise InvalidTicket(f"ticket {ticket.id} is for {ticket.game!r}, this queue is {self.game!r}")
        shape = self.shapes.get(ticket.mode)
        if shape is None:
            raise InvalidTicket(f"{self.game} has no queue for mode {ticket.mode!r}; modes: {sorted(self.shapes)}")
        shape.check(ticket)
        if ticket.id in self._tickets:
            raise InvalidTicket(f"ticket id {ticket.id!r} is already in use")
        for player in ticket.players():
            if player in self._ticket_of:
                raise AlreadyQueued(player, self._ticket_of[player])
        self._tickets[ticket.id] = ticket
        for player in ticket.players():
            self._ticket_of[player] = ticket.id

    def cancel(self, ticket_id: str) -> Ticket:
        """Withdraw a ticket (e.g. the party leader left); raises UnknownTicket."""
        ticket = self._tickets.pop(ticket_id, None)
        if ticket is None:
            raise UnknownTicket(f"no queued ticket {ticket_id!r}")
        for player in ticket.players():
            del self._ticket_of[player]
        return ticket

    def ticket_of(self, player: str) -> Ticket | None:
        ticket_id = self._ticket_of.get(player)
        return None if ticket_id is None else self._tickets[ticket_id]

    def tickets(self, mode: str | None = None) -> list[Ticket]:
        """Queued tickets (of one mode, or all) in enqueue order: what a service persists."""
        return [t for t in self._tickets.values() if mode is None or t.mode == mode]

    def __len__(self) -> int:
        return len(self._tickets)

    def run_pass(self, now: float, policy: MatchPolicy) -> list[Match]:
        """One matching pass over every mode (sorted by id); matched tickets leave the queue."""
        made: list[Match] = []
        for mode in sorted(self.shapes):
            result = match_pass(self.tickets(mode), self.shapes[mode], now, policy)
            for match in result.matches:
                for ticket_id in match.tickets:
                    self.cancel(ticket_id)
            made += result.matches
        return made


def wait_stats(tickets: Iterable[Ticket], now: float) -> tuple[int, float]:
    """Queue depth and longest wait in seconds (for the queue metrics)."""
    waits = [now - t.enqueued_at for t in tickets]
    return len(waits), max(waits, default=0.0)


__all__ = ["Queue", "match_pass", "wait_stats"]
