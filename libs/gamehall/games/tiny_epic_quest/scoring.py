"""Final scoring (the Round Card table, AMB-11 clamp), the four tie-breakers and the solo goal."""

from __future__ import annotations

from gamehall.engine import Outcome
from gamehall.games.tiny_epic_quest.progress import item_count, legendary_count
from gamehall.games.tiny_epic_quest.state import State
from gamehall.games.tiny_epic_quest.tables import SCORE_GOBLINS, SCORE_LEGENDARY, SCORE_QUESTS, SCORE_SPELLS


def _row(table: tuple[int, ...], n: int) -> int:
    return table[min(n, len(table) - 1)]


def victory_points(s: State, seat: int) -> int:
    return (
        _row(SCORE_SPELLS, s.spell[seat])
        + _row(SCORE_QUESTS, len(s.quests_done[seat]))
        + _row(SCORE_GOBLINS, s.goblins[seat])
        + SCORE_LEGENDARY * legendary_count(s, seat)
    )


def rank_key(s: State, seat: int) -> tuple[int, int, int, int, int]:
    """VP, then most quests, most goblins, highest spell level, most items (T-SC-05)."""
    return (victory_points(s, seat), len(s.quests_done[seat]), s.goblins[seat], s.spell[seat], item_count(s, seat))


def final_outcome(s: State) -> Outcome:
    keys = [rank_key(s, p) for p in range(s.seats)]
    scores = tuple(float(k[0]) for k in keys)
    if s.mode == "solo":
        vp = keys[0][0]
        won = vp >= s.goal
        return Outcome(
            (1 if won else 2,), scores, reason=f"{'won' if won else 'lost'}: {vp} VP against a goal of {s.goal}"
        )
    ranks = tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)
    return Outcome(ranks, scores, reason="five rounds played")


def solo_won(s: State) -> bool:
    return victory_points(s, 0) >= s.goal
