"""Single and double elimination brackets: seeding order, byes to top seeds, advancing winners and losers.

Seeds are 1 (best) .. n; the bracket is padded to a power of two with byes, placed by the
standard order (1v16, 8v9, 4v13, ...) so the top seeds meet the byes. Double elimination adds
a losers bracket (losers of winners-bracket round r drop in reversed order to delay rematches)
and a grand final; the reset final is played only if the losers-bracket champion wins it.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.tournaments.model import BYE, BracketMatch


def seed_order(size: int) -> list[int]:
    """Seed numbers in bracket order for a power-of-two `size`: [1, 16, 8, 9, 4, 13, ...] for 16."""
    order = [1]
    while len(order) < size:
        span = 2 * len(order)
        order = [s for seed in order for s in (seed, span + 1 - seed)]
    return order


def _bracket_size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return max(size, 2)


def single_elimination(seeded: Sequence[str]) -> list[BracketMatch]:
    """The bracket of players listed best seed first."""
    return _winners_bracket(seeded, double=False)


def _winners_bracket(seeded: Sequence[str], double: bool) -> list[BracketMatch]:
    size = _bracket_size(len(seeded))
    slots = [seeded[s - 1] if s <= len(seeded) else BYE for s in seed_order(size)]
    matches: list[BracketMatch] = []
    rounds = size.bit_length() - 1
    for r in range(1, rounds + 1):
        count = size >> r
        for k in range(count):
            players = [slots[2 * k], slots[2 * k + 1]] if r == 1 else ["", ""]
            match = BracketMatch(f"W{r}-{k + 1}", "W", r, players)
            if r < rounds:
                match.win_to, match.win_slot = f"W{r + 1}-{k // 2 + 1}", k % 2
            elif double:
                match.win_to, match.win_slot = "GF", 0
            matches.append(match)
    return matches


def double_elimination(seeded: Sequence[str]) -> list[BracketMatch]:
    """Winners bracket, losers bracket, grand final and (conditional) reset final."""
    matches = _winners_bracket(seeded, double=True)
    by_id = {m.id: m for m in matches}
    size = _bracket_size(len(seeded))
    k = size.bit_length() - 1
    gf = BracketMatch("GF", "GF", 2 * k, ["", ""])
    reset = BracketMatch("GF2", "GF2", 2 * k + 1, ["", ""])
    if k == 1:
        by_id["W1-1"].lose_to, by_id["W1-1"].lose_slot = "GF", 1
        return [*matches, gf, reset]
    losers: list[BracketMatch] = []
    # LB round 1: losers of WB round 1, in pairs.
    count = size // 4
    for i in range(count):
        m = BracketMatch(f"L1-{i + 1}", "L", 1, ["", ""])
        losers.append(m)
        by_id[f"W1-{2 * i + 1}"].lose_to, by_id[f"W1-{2 * i + 1}"].lose_slot = m.id, 0
        by_id[f"W1-{2 * i + 2}"].lose_to, by_id[f"W1-{2 * i + 2}"].lose_slot = m.id, 1
    previous = [m.id for m in losers]
    lb_round = 1
    for wb_round in range(2, k + 1):
        # Drop-in round: survivors meet the losers of this WB round, in reversed order.
        lb_round += 1
        current = []
        wb_matches = [f"W{wb_round}-{j + 1}" for j in range(size >> wb_round)]
        for i, survivor in enumerate(previous):
            m = BracketMatch(f"L{lb_round}-{i + 1}", "L", lb_round, ["", ""])
            losers.append(m)
            src = next(x for x in losers if x.id == survivor)
            src.win_to, src.win_slot = m.id, 0
            dropping = by_id[wb_matches[len(wb_matches) - 1 - i]]
            dropping.lose_to, dropping.lose_slot = m.id, 1
            current.append(m.id)
        previous = current
        if len(previous) > 1:
            # Consolidation round: survivors play each other.
            lb_round += 1
            current = []
            for i in range(len(previous) // 2):
                m = BracketMatch(f"L{lb_round}-{i + 1}", "L", lb_round, ["", ""])
                losers.append(m)
                for slot, src_id in enumerate(previous[2 * i : 2 * i + 2]):
                    src = next(x for x in losers if x.id == src_id)
                    src.win_to, src.win_slot = m.id, slot
                current.append(m.id)
            previous = current
    final = next(x for x in losers if x.id == previous[0])
    final.win_to, final.win_slot = "GF", 1
    return [*matches, *losers, gf, reset]


def resolve_byes(bracket: list[BracketMatch], dropped: set[str]) -> None:
    """Decide, in place, every match that needs no play: a bye or a dropped player in a filled slot.

    The other player advances; a match of two byes sends a bye on. Repeats until nothing changes.
    """
    by_id = {m.id: m for m in bracket}
    changed = True
    while changed:
        changed = False
        for m in bracket:
            if m.winner or m.void or "" in m.players or m.section == "GF2":
                continue
            a, b = m.players
            a_out = a == BYE or a in dropped
            b_out = b == BYE or b in dropped
            if not (a_out or b_out):
                continue
            if a_out and b_out:
                winner, loser = BYE, BYE
            elif a_out:
                winner, loser = b, BYE if a == BYE else a
            else:
                winner, loser = a, BYE if b == BYE else b
            set_winner(by_id, m, winner, loser)
            if m.section == "GF":
                by_id["GF2"].void = True
            changed = True


def set_winner(by_id: dict[str, BracketMatch], match: BracketMatch, winner: str, loser: str) -> None:
    """Record a bracket match's winner and loser and move them on (the grand final decides the reset)."""
    match.winner, match.loser = winner, loser
    if match.section == "GF":
        reset = by_id["GF2"]
        if winner == match.players[0]:
            reset.void = True
        else:
            reset.players = [match.players[1], match.players[0]]
        return
    if match.win_to:
        by_id[match.win_to].players[match.win_slot] = winner
    if match.lose_to:
        by_id[match.lose_to].players[match.lose_slot] = loser if loser else BYE


def ready(bracket: list[BracketMatch]) -> list[BracketMatch]:
    """Matches with both players known, undecided and not yet released as pairings."""
    return [
        m
        for m in bracket
        if not m.winner and not m.void and not m.released and "" not in m.players and BYE not in m.players
    ]


def champion(bracket: list[BracketMatch]) -> str | None:
    """The bracket winner once decided, else None."""
    by_id = {m.id: m for m in bracket}
    if "GF" in by_id:
        gf, reset = by_id["GF"], by_id["GF2"]
        if reset.void:
            return gf.winner or None
        return reset.winner or None
    final = max((m for m in bracket if m.section == "W"), key=lambda m: m.round)
    return final.winner or None
