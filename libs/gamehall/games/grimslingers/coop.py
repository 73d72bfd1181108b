"""Co-op results: creature duels, the Witch King and the Tall Tale end with one shared result.

Every player wins or loses together, so the ranks tie (1 for a win, 2 for a loss). Ranks alone
cannot tell a search bot anything then: `Outcome.returns()` gives every seat 0.5 when all ranks
tie, win or loss, and per-seat ranks would make teammates compete. So co-op outcomes are a
`TeamOutcome`, whose returns are the team's score, the same for every seat (item 7 of issue 40):

- a win scores 0.75 plus up to 0.25 for how well the team did (the share of the players' HP left
  in a duel; the share of allowed defeats kept in the Tall Tale);
- a loss scores at most 0.25: the share of the creature's HP taken in a duel (a stalemate is a
  loss, the creature stands); the share of the campaign done in the Tall Tale.

Every win outscores every loss, so a bot maximising its return plays to win first, then to win
well (or to get furthest), and every seat of the team maximises the same number.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.engine.protocol import Outcome
from gamehall.games.grimslingers.state import State

WIN_FLOOR = 0.75
LOSS_CEILING = 0.25


@dataclass(frozen=True)
class TeamOutcome(Outcome):
    """An outcome every seat shares: its returns are the team's score (see the module docstring)."""

    def returns(self) -> tuple[float, ...]:
        assert self.scores is not None
        return self.scores


def is_coop(s: State) -> bool:
    return s.creature >= 0 or s.tale is not None


def team_score(s: State) -> float:
    """The team's score in [0, 1] for a finished co-op match (see the module docstring)."""
    won = s.ranks is not None and s.ranks[0] == 1
    if s.tale is not None:
        return _tale_score(s, won)
    players = [s.seats[i] for i in range(s.players)]
    if won:
        left = sum(max(0, x.hp) for x in players if x.alive) / max(1, sum(x.max_hp for x in players))
        return round(WIN_FLOOR + (1 - WIN_FLOOR) * left, 4)
    from gamehall.games.grimslingers.creatures import starting

    c = s.seats[s.creature]
    taken = 1 - max(0, c.hp) / max(1, starting(s, s.creature_key, s.players)[0])
    return round(LOSS_CEILING * min(1.0, max(0.0, taken)), 4)


def _tale_score(s: State, won: bool) -> float:
    from gamehall.games.grimslingers.tale_effects import setting
    from gamehall.games.grimslingers.tale_story import progress

    t = s.tale
    assert t is not None
    if won:
        allowed = setting(s).defeats
        kept = t.defeats_left / allowed if allowed else 1.0
        return round(WIN_FLOOR + (1 - WIN_FLOOR) * min(1.0, max(0.0, kept)), 4)
    return round(LOSS_CEILING * progress(s), 4)


def outcome(s: State) -> Outcome | None:
    if s.ranks is None:
        return None
    if is_coop(s):
        score = team_score(s)
        return TeamOutcome(tuple(s.ranks), (score,) * len(s.ranks), s.reason)
    return Outcome(tuple(s.ranks), reason=s.reason)
