"""The typed shape of a Tiny Epic Quest view: what `TinyEpicQuest.view` returns, in every mode, for any observer.

Tiny Epic Quest hides only the order of the quest deck and of the solo Power-card deck, so the view is
the whole match state in the engine's compact integer encoding (with those two decks as counts).
Codes index the content pack's lists in the order the catalog serves them: cards, temples, grottos,
items, quests, player colours and spell symbols. Per-seat lists have one entry per seat; per-hero
lists have three per seat, hero `i` of seat `p` at index `3 * p + i`; per-slot lists have one entry
per land-map slot.

Some fields have full-word names in Python but keep their short keys on the wire (`msgspec.field(name=...)`:
`goblin_damage` is `gdmg`, `handout_seat` is `dq_cur`, ...), the same keys as the state's snapshots.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from gamehall.games.tiny_epic_quest.state import FLAG_DOCS


def _flag(name: str) -> msgspec.Meta:
    return msgspec.Meta(description=FLAG_DOCS[name])


class TeqRules(msgspec.Struct, forbid_unknown_fields=True):
    """The rule flags the match was created with (readings of ambiguous rules)."""

    foot_diagonal: Annotated[bool, _flag("foot_diagonal")]
    quest_rule_every_refill: Annotated[bool, _flag("quest_rule_every_refill")]
    night_quest_limit: Annotated[bool, _flag("night_quest_limit")]
    conjure_damage_last_space: Annotated[bool, _flag("conjure_damage_last_space")]
    exhausted_skipped: Annotated[bool, _flag("exhausted_skipped")]
    defend_any_damage: Annotated[bool, _flag("defend_any_damage")]
    legendary_strict_order: Annotated[bool, _flag("legendary_strict_order")]
    single_learn_per_rest: Annotated[bool, _flag("single_learn_per_rest")]
    gloom_setup_aggressive: Annotated[bool, _flag("gloom_setup_aggressive")]
    treasure_return_bonus: Annotated[bool, _flag("treasure_return_bonus")]
    end_card_flips_goblin: Annotated[bool, _flag("end_card_flips_goblin")]


def _doc(text: str) -> msgspec.Meta:
    return msgspec.Meta(description=text)


PerSeat = list[int]
PerHero = list[int]
PerSlot = list[int]


class TinyEpicQuestView(msgspec.Struct, forbid_unknown_fields=True):
    """What one seat (or a spectator) sees of a Tiny Epic Quest match: everything but the two decks' order."""

    mode: Literal["standard", "gloomfall", "solo"]
    seats: Annotated[int, msgspec.Meta(ge=1, le=4)]
    difficulty: Annotated[
        str, _doc("The solo difficulty id (peasant, page, squire, knight, hero-of-legend); empty otherwise.")
    ]
    goal: Annotated[int, _doc("The solo victory-point goal of the difficulty; 0 outside solo.")]
    rules: TeqRules
    side: Annotated[
        Literal[0, 1], _doc("Which side of the land cards is up: 0 Bright (standard, solo), 1 Gloom (GloomFall).")
    ]
    cards: Annotated[PerSlot, _doc("The land card (content index) on each map slot; -1 for an empty slot.")]
    goblin: Annotated[
        list[Literal[0, 1, 2]], _doc("The goblin on each slot's portal: 0 none, 1 passive, 2 aggressive.")
    ]
    goblin_damage: Annotated[PerSlot, _doc("Hits dealt this Night to each slot's goblin.")] = msgspec.field(name="gdmg")
    goblin_claim: Annotated[
        PerSlot, _doc("The seat fighting each slot's goblin this Night, or -1.")
    ] = msgspec.field(name="gclaim")
    supply: Annotated[int, _doc("Goblin tokens left in the supply.")]
    hero_slot: Annotated[PerHero, _doc("Per hero: the map slot it stands on.")] = msgspec.field(name="hslot")
    hero_region: Annotated[
        list[Literal[0, 1]], _doc("Per hero: the region of that slot's card, 0 left or 1 right.")
    ] = msgspec.field(name="hreg")
    hero_progress: Annotated[
        list[Annotated[int, msgspec.Meta(ge=0, le=4)]],
        _doc("Per hero in a temple: 0 the entrance, 1..4 the track spaces (4 the last)."),
    ] = msgspec.field(name="hprog")
    hero_items: Annotated[
        list[list[int]], _doc("Per hero: the items (content indices) it carries.")
    ] = msgspec.field(name="hitems")
    health: Annotated[PerSeat, _doc("Health per seat.")]
    power: Annotated[PerSeat, _doc("Power per seat.")]
    spell: Annotated[PerSeat, _doc("Per seat: the highest spell book learned (0 none).")]
    goblins: Annotated[PerSeat, _doc("Goblins defeated per seat.")]
    quests_done: Annotated[list[list[int]], _doc("Per seat: the quests (content indices) it completed, in order.")]
    kept: Annotated[list[list[int]], _doc("Per seat: items kept by its player card, carried by no hero.")]
    legend: Annotated[
        list[Annotated[list[Literal[0, 1, 2, 3]], msgspec.Meta(min_length=3, max_length=3)]],
        _doc(
            "Per seat, for its Sword, Shield and Staff: 0 no temple done, 1 the first temple done, 2 the item "
            "earned, 3 the second temple done first (only without legendary_strict_order)."
        ),
    ]
    status: Annotated[list[Literal[0, 1, 2]], _doc("Per seat at Night: 0 adventuring, 1 rested, 2 exhausted.")]
    home: Annotated[PerSeat, _doc("Per seat: the map slot of its castle.")]
    home_region: Annotated[
        list[Literal[0, 1]], _doc("Per seat: the region (0 left, 1 right) of its castle on that card.")
    ] = msgspec.field(name="home_reg")
    quest_deck: Annotated[int, _doc("Quests left in the face-down quest deck (their order is secret).")]
    row: Annotated[list[int], _doc("The face-up quest row (content indices), left to right.")]
    discard: Annotated[list[int], _doc("The quest discard pile (content indices).")]
    color: Annotated[PerSeat, _doc("Per seat: its player card's colour (index into the pack's players).")]
    round: Annotated[int, msgspec.Meta(ge=1, le=5, description="The round, 1..5.")]
    phase: Annotated[Literal[0, 1, 2], _doc("0 Day, 1 Night, 2 the match is over.")]
    magic: Annotated[int, _doc("The magic token's position on the Night's magic track.")]
    first: Annotated[int, _doc("The seat holding the first-player token this round.")]
    no_quest_by_day: Annotated[
        bool, _doc("No quest was completed by Day this round (the rightmost row quest is then discarded).")
    ] = msgspec.field(name="token_q")
    used: Annotated[
        list[bool], msgspec.Meta(min_length=5, max_length=5), _doc("Per Power card (0..4): already played this Day.")
    ]
    solo_deck: Annotated[int, _doc("Solo: Power cards left in the face-down solo deck (their order is secret).")]
    options: Annotated[list[int], _doc("Solo: the Power cards (0..4) on offer this Day turn.")]
    turn: Annotated[int, msgspec.Meta(ge=0, le=4, description="The Day turn, 0..3 (4 once the Day is over).")]
    card: Annotated[
        int, msgspec.Meta(ge=-1, le=4), _doc("The Power card chosen this Day turn (0..4), or -1 before the choice.")
    ]
    actor: Annotated[int, _doc("The seat now acting on this Day turn's Power card.")]
    acted: Annotated[int, _doc("Seats that have acted on this Day turn's Power card.")]
    moved: Annotated[bool, _doc("The acting seat has taken its action on the card.")]
    stage: Annotated[
        Literal[0, 1, 2, 3],
        _doc("Night stage: 0 choose (adventure or rest), 1 hand out symbols, 2 use the roll, 3 provoke (solo)."),
    ]
    in_roll: Annotated[list[bool], _doc("Per seat: takes part in the current Adventure roll.")]
    quested_this_turn: Annotated[
        list[bool], _doc("Per seat: completed a quest this Day turn (at most one per turn).")
    ] = msgspec.field(name="qturn")
    holder: Annotated[int, _doc("The seat holding the Adventure dice (to adventure or rest), or -1.")]
    roll: Annotated[
        list[Literal[0, 1, 2, 3, 4, 5]],
        _doc("The last Adventure roll's faces: 0 damage, 1 power, 2 magic, 3 torch, 4 scroll, 5 attack."),
    ]
    handout: Annotated[
        list[int], _doc("Damage, power and magic symbols of the roll still to hand out (face codes).")
    ] = msgspec.field(name="dq")
    handout_seat: Annotated[
        int, _doc("The seat next in line for the symbols being handed out, or -1.")
    ] = msgspec.field(name="dq_cur")
    handout_kind: Annotated[int, _doc("The face code being handed out, or -1.")] = msgspec.field(name="dq_kind")
    handout_count: Annotated[int, _doc("Symbols of that kind handed out so far.")] = msgspec.field(name="dq_n")
    pool: Annotated[list[list[int]], _doc("Per seat: [torches, scrolls, attacks] of the roll still to use.")]
    using: Annotated[list[bool], _doc("Per seat: still using the roll's symbols.")]
    pending: Annotated[
        list[Annotated[list[int], msgspec.Meta(min_length=4, max_length=4)]],
        _doc(
            "Decisions waiting, first first: [seat, kind, a, b] with kind 0 gain, 1 grotto, 2 quest, 3 equip, "
            "4 learn, 5 defend, 6 provoke, and a, b that decision's arguments."
        ),
    ]
    choices: Annotated[list[int], _doc("The quests a pending quest decision chooses from.")]
    seat: Annotated[int | None, _doc("The viewing seat, or null for a spectator.")]
    to_act: Annotated[list[int], _doc("Seats that must choose now, ascending.")]
    victory_points: Annotated[PerSeat, _doc("Victory points each seat would score now.")]
    max_health: Annotated[PerSeat, _doc("Per seat: its Health limit.")]
    max_power: Annotated[PerSeat, _doc("Per seat: its Power limit.")]
