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
        goblin_damage=s.goblin_damage,
        goblin_claim=s.goblin_claim,
        supply=s.supply,
        hero_slot=s.hero_slot,
        hero_region=s.hero_region,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        hero_progress=s.hero_progress,
        hero_items=s.hero_items,
        health=s.health,
        power=s.power,
        spell=s.spell,
        goblins=s.goblins,
        quests_done=s.quests_done,
        kept=s.kept,
        legend=s.legend,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        status=s.status,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        home=s.home,
        home_region=s.home_region,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        quest_deck=len(s.quest_deck),
        row=s.row,
        discard=s.discard,
        color=s.color,
        round=s.round,
        phase=int(s.phase),  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        magic=s.magic,
        first=s.first,
        no_quest_by_day=s.no_quest_by_day,
        used=s.used,
        solo_deck=len(s.solo_deck),
        options=s.options,
        turn=s.turn,
        card=s.card,
        actor=s.actor,
        acted=s.acted,
        moved=s.moved,
        stage=int(s.stage),  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        in_roll=s.in_roll,
        quested_this_turn=s.quested_this_turn,
        holder=s.holder,
        roll=s.roll,  # type: ignore[arg-type]  # codes kept as ints; the type's Literal ranges are checked by conformance
        handout=s.handout,
        handout_seat=s.handout_seat,
        handout_kind=s.handout_kind,
        handout_count=s.handout_count,
        pool=[[p.torches, p.scrolls, p.attacks] for p in s.pool],
        using=s.using,
        pending=[[d.seat, int(d.kind), d.value, d.extra] for d in s.pending],
        choices=s.choices,
        seat=seat,
        to_act=to_act,
        victory_points=[victory_points(s, p) for p in seats],
        max_health=[max_health(s, p) for p in seats],
        max_power=[max_power(s, p) for p in seats],
    )
