"""A static evaluation for search bots: `evaluate(state, seat)` in [0, 1] (1 = winning).

Finished matches score their outcome return; otherwise the seat's team strength against the
strongest foe team, where strength weighs HP most, then EP, then cards available in hand.
"""

from __future__ import annotations

from gamehall.games.grimslingers import coop
from gamehall.games.grimslingers.state import State
from gamehall.games.grimslingers.table import team_of

HP_WEIGHT, EP_WEIGHT, CARD_WEIGHT, PENDING_BONUS_WEIGHT = 1.0, 0.45, 0.25, 0.5


def strength(s: State, seat: int) -> float:
    x = s.seats[seat]
    if not x.alive:
        return 0.0
    return HP_WEIGHT * x.hp + EP_WEIGHT * x.ep + CARD_WEIGHT * len(x.hand) + PENDING_BONUS_WEIGHT * x.bloodlust_bonus


def campaign(s: State) -> float:
    """Tall Tale progress in [0, 1]: story parts done, allowed defeats kept, the group's HP."""
    from gamehall.games.grimslingers.tale_effects import setting
    from gamehall.games.grimslingers.tale_story import progress

    t = s.tale
    assert t is not None
    allowed = setting(s).defeats
    kept = t.defeats_left / allowed if allowed else 1.0
    hp = sum(s.seats[i].hp for i in range(s.players)) / max(1, sum(s.seats[i].max_hp for i in range(s.players)))
    return 0.4 * progress(s) + 0.35 * kept + 0.25 * hp


def evaluate(s: State, seat: int) -> float:
    outcome = coop.outcome(s)
    if outcome is not None:
        return outcome.returns()[seat]
    if s.tale is not None:
        if s.creature < 0:
            return campaign(s)
        return campaign(s) * (0.5 + 0.5 * duel_strength(s, seat))
    return duel_strength(s, seat)


def duel_strength(s: State, seat: int) -> float:
    """The seat's side's share of the duel's total strength."""
    teams: dict[int, float] = {}
    for i in range(s.n):
        teams[team_of(s, i)] = teams.get(team_of(s, i), 0.0) + strength(s, i)
    mine = teams.pop(team_of(s, seat))
    theirs = max(teams.values(), default=0.0)
    if mine + theirs <= 0:
        return 0.5
    return mine / (mine + theirs)
