"""What every observer sees: the whole state but the decks' order (counts only), typed as view_types says."""

from __future__ import annotations

from gamehall.games.tiny_epic_quest.scoring import victory_points
from gamehall.games.tiny_epic_quest.state import State, max_health, max_power
from gamehall.games.tiny_epic_quest.view_types import TeqRules, TinyEpicQuestView


def build_view(s: State, seat: int | None, to_act: list[int]) -> TinyEpicQuestView:
    """The view of `seat` (None: a spectator); the same for every observer, since nothing else is secret."""
    r = s.rules
    seats = range(s.seats)
    return TinyEpicQuestView(
        mode=s.mode,  # type: ignore[arg-type]
        seats=s.seats,
        difficulty=s.difficulty,
        goal=s.goal,
        rules=TeqRules(
            foot_diagonal=r.foot_diagonal,
            quest_rule_every_refill=r.quest_rule_every_refill,
            night_quest_limit=r.night_quest_limit,
            conjure_damage_last_space=r.conjure_damage_last_space,
            exhausted_skipped=r.exhausted_skipped,
            defend_any_damage=r.defend_any_damage,
            legendary_strict_order=r.legendary_strict_order,
            single_learn_per_rest=r.single_learn_per_rest,
            gloom_setup_aggressive=r.gloom_setup_aggressive,
            treasure_return_bonus=r.treasure_return_bonus,
            end_card_flips_goblin=r.end_card_flips_goblin,
        ),
        side=s.side,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        cards=s.cards,
        goblin=s.goblin,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        gdmg=s.gdmg,
        gclaim=s.gclaim,
        supply=s.supply,
        hslot=s.hslot,
        hreg=s.hreg,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        hprog=s.hprog,
        hitems=s.hitems,
        health=s.health,
        power=s.power,
        spell=s.spell,
        goblins=s.goblins,
        quests_done=s.quests_done,
        kept=s.kept,
        legend=s.legend,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        status=s.status,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        home=s.home,
        home_reg=s.home_reg,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        quest_deck=len(s.quest_deck),
        row=s.row,
        discard=s.discard,
        color=s.color,
        round=s.round,
        phase=s.phase,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        magic=s.magic,
        first=s.first,
        token_q=s.token_q,
        used=s.used,
        solo_deck=len(s.solo_deck),
        options=s.options,
        turn=s.turn,
        card=s.card,
        actor=s.actor,
        acted=s.acted,
        moved=s.moved,
        stage=s.stage,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        in_roll=s.in_roll,
        qturn=s.qturn,
        holder=s.holder,
        roll=s.roll,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        dq=s.dq,
        dq_cur=s.dq_cur,
        dq_kind=s.dq_kind,
        dq_n=s.dq_n,
        pool=s.pool,
        using=s.using,
        pending=s.pending,
        choices=s.choices,
        seat=seat,
        to_act=to_act,
        victory_points=[victory_points(s, p) for p in seats],
        max_health=[max_health(s, p) for p in seats],
        max_power=[max_power(s, p) for p in seats],
    )
