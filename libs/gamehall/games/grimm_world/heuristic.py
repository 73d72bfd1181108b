"""A position evaluation for bots: `evaluate(state, seat)` in [0, 1], Martha's chance of winning the skirmish
(or, in a campaign, of curing Hedda). Bots call it on determinized states only.

A fight is valued by a damage race (fight_value.py), a campaign by its progress (progress.py); a fight inside a
campaign is read as its two endings weighed by the race: won (and the main-quest flag it earns) or lost (the chapters
it costs and the cards its defeat entry heals), so a search sees what a fight risks before it picks one.
Random rollouts are cut after one action:
random fight play mostly wastes cards, so the evaluation guides the search better than a random continuation.
"""

from __future__ import annotations

from gamehall.games.grimm_world.content.schema import Op
from gamehall.games.grimm_world.fight_value import fight_value
from gamehall.games.grimm_world.state import State

STAGE_FLAGS = ("told", "water", "curse")
"""The main-quest flags a fight's victory can earn (progress.STAGES)."""

ROLLOUT_DEPTH = 1
"""Random actions after a search leaf before the evaluation (1 measured best against 2 and 24 on skirmishes)."""


def evaluate(state: State, seat: int) -> float:
    if state.journey is None:
        return fight_value(state)
    return _campaign(state)


def _fighting(s: State) -> bool:
    return s.fight is not None and not s.fight.result


def _thalers(ops: tuple[Op, ...]) -> int:
    """The thalers a fight's victory (or defeat) entry pays out (or takes) at its top level."""
    return sum(op.n for op in ops if op.op == "thalers")


def _campaign(s: State) -> float:
    from gamehall.games.grimm_world.progress import Outlook, campaign_value

    if not _fighting(s):
        return min(0.99, max(0.01, campaign_value(s)))
    assert s.journey is not None and s.fight is not None
    pending = next((op for op in reversed(s.journey.stack) if op.op == "after_fight"), None)
    chapters, heals = (pending.k, max(1, pending.n)) if pending is not None else (0, 1)
    flag = next(
        (op.text for op in (pending.then if pending is not None else ()) if op.op == "flag" and op.text in STAGE_FLAGS),
        "",
    )
    then, orelse = (pending.then, pending.orelse) if pending is not None else ((), ())
    odds = fight_value(s)
    won = campaign_value(
        s, Outlook(fights=1, thalers=_thalers(then), flag=flag, healthy=len(s.sheet.hand) + len(s.fight.discard))
    )
    lost = campaign_value(s, Outlook(fights=-1, thalers=_thalers(orelse), chapters=chapters, healthy=heals))
    return min(0.99, max(0.01, odds * won + (1 - odds) * lost))
