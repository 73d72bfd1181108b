"""The types of a Grimslingers view: what `views.view` builds, and the catalog's view schema.

One Struct per mode, tagged by the view's `mode` key (a msgspec tagged union): the versus modes
never show a creature or a tale, the creature duels always show their creature, the Tall Tale always
shows its tale. Cards are named by their catalog keys (`fire`, `scourge`, ...); seats are numbers
from 0, clockwise; a creature, when there is one, sits after the players.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

import msgspec
from msgspec import UNSET, Meta, UnsetType

from gamehall.games.grimslingers.rules import FLAGS, OPTIONS


def _option(name: str) -> Meta:
    """The description of a match option, as the catalog declares it."""
    return Meta(description=next(o.description for o in OPTIONS if o.name == name))


def _flag(name: str) -> Meta:
    """The description of a rule flag, as the catalog declares it."""
    return Meta(description=next(o.description for o in FLAGS if o.name == name))


CardKey = Annotated[str, Meta(description="A card's catalog key, e.g. `fire` or `scourge`.")]
PhaseName = Literal["archetype", "draft", "standoff", "aim", "fire", "cheat", "aftermath", "over", "adventure"]
CommitName = Literal["play", "pass", "into_darkness", "blood_feast"]
PromptName = Literal[
    "redirect",
    "equilibrium",
    "transmute",
    "true_grit",
    "resurrect",
    "revive_juju",
    "revenant",
    "specter",
    "dirty_cheat",
    "skill_option",
]
PickName = Literal["reload", "purge", "surge", "reactivate", "recall", "organize", "trade"]
StepName = Literal["narrative", "node", "move", "duel", "over"]
ActivityName = Literal["none", "camp", "sneak", "behemoth", "perk", "overflow"]
DecisionName = Literal["move", "event_option", "item_owner", "difficulty"]
DuelName = Literal["none", "attack", "event", "story"]


class _View(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Base of every view part: refuses keys it does not declare."""


class OptionsView(_View):
    """The match options as configured (every option is listed; those of other modes keep their defaults)."""

    items: Annotated[bool, _option("items")]
    archetypes: Annotated[bool, _option("archetypes")]
    draft: Annotated[str, _option("draft")]
    light_and_dark: Annotated[bool, _option("light_and_dark")]
    creature: Annotated[str, _option("creature")]
    modifiers: Annotated[int, _option("modifiers")]
    difficulty: Annotated[str, _option("difficulty")]


class FlagsView(_View):
    """The rule flags of the match: readings of ambiguous rules (AMB-nn of the rules checklist)."""

    element_cycle: Annotated[str, _flag("element_cycle")]
    wind_water_damage: Annotated[str, _flag("wind_water_damage")]
    amnesia_pile: Annotated[str, _flag("amnesia_pile")]
    blood_feast_pass_bonus: Annotated[bool, _flag("blood_feast_pass_bonus")]
    sacrifice_to_zero: Annotated[bool, _flag("sacrifice_to_zero")]
    reactivate_up_to: Annotated[bool, _flag("reactivate_up_to")]
    revenant_immediate: Annotated[bool, _flag("revenant_immediate")]
    fx_netting: Annotated[bool, _flag("fx_netting")]
    equilibrium_copy_cost: Annotated[bool, _flag("equilibrium_copy_cost")]
    cheat_after_pass: Annotated[bool, _flag("cheat_after_pass")]
    cheat_pays_spell_cost: Annotated[bool, _flag("cheat_pays_spell_cost")]
    ad_repeat_actions: Annotated[bool, _flag("ad_repeat_actions")]
    item_reshuffle: Annotated[bool, _flag("item_reshuffle")]
    draw_in_turn_order: Annotated[bool, _flag("draw_in_turn_order")]
    stalemate_turns: Annotated[int, _flag("stalemate_turns")]


class PlayerView(_View):
    """One seat's public table: health, energy, statuses, piles and what it has shown (never its hand)."""

    hp: int
    ep: int
    max_hp: int
    max_ep: int
    alive: bool
    acted: Annotated[int, Meta(description="Actions taken in the current phase (draft picks, Standoff actions).")]
    used: Annotated[
        int,
        Meta(
            description="Standoff action kinds used this turn, a bit set: sacrifice 1, reload 2, purge 4, surge 8, "
            "reactivate 16, scavenge 32, card 64, flare 128, flee 256, organize 512, trade 1024."
        ),
    ]
    anima: Annotated[bool, Meta(description="The Anima card is flipped (a Reload, Purge or Surge was used).")]
    surged: bool
    flare: bool
    bl_bonus: Annotated[int, Meta(description="Bloodlust: DMG added to the seat's next damaging spell.")]
    bl_on: Annotated[bool, Meta(description="Bloodlust is counting this turn's DMG taken.")]
    bl_tally: Annotated[int, Meta(description="Bloodlust: DMG taken this turn so far.")]
    dark: bool
    barrier: int
    exalt: bool
    transmute: Annotated[int, Meta(description="Transmute's chosen element id, -1 when none.")]
    transmute_phase: int
    specter_turn: Annotated[int, Meta(description="The turn the seat became a Specter, -1 when it is none.")]
    zeroed: bool
    out_step: Annotated[int, Meta(description="The order in which the seat was defeated, -1 while standing.")]
    archetype: Annotated[str | None, Meta(description="The archetype's key; null before one is picked or without.")]
    hand_size: Annotated[int, Meta(description="Cards in hand, counting face-down committed cards until the reveal.")]
    commit_cards: Annotated[
        list[CardKey] | None,
        Meta(description="Creature duels: a player's face-up committed cards before the reveal; else null."),
    ]
    deactivated_size: int
    discard: list[CardKey]
    discard_top: CardKey | None
    signatures_revealed: Annotated[
        list[CardKey], Meta(description="The seat's signatures seen in public (they may be back in its hand).")
    ]
    items_held: Annotated[list[CardKey], Meta(description="Item cards the seat holds (items are public).")]
    hand_known: Annotated[
        list[CardKey],
        Meta(
            description="Cards everyone saw go into the seat's hand (Hush, Reload...) and still there "
            "(or face down in its commitment before the reveal)."
        ),
    ]
    offer_size: Annotated[int, Meta(description="Cards in the seat's draft offer.")]
    dealt: Annotated[list[int], Meta(description="DMG dealt per seat this turn.")]
    decided: Annotated[bool, Meta(description="The seat has made this phase's secret choice (draft, aim, draw).")]
    aim: Annotated[int | None, Meta(description="The aimed seat; null while aims are secret (aim phase, others).")]
    commit: Annotated[
        CommitName | None,
        Meta(description="What the seat committed to in Draw Step Two; null if nothing yet or still secret."),
    ]


class CreatureView(_View):
    """The creature of a creature duel: public deck, modifiers and the back of its face-down card (R-120)."""

    seat: int
    key: str
    modifiers: list[str]
    deck: Annotated[list[CardKey], Meta(description="Every skill card it duels with, whatever pile each is in.")]
    back: Annotated[
        str | None, Meta(description="The back of its face-down card (its creature, general, or a telegraph).")
    ]


class PlayView(_View):
    """A card played this turn, in the Aftermath's order."""

    owner: int
    card: CardKey
    combine: CardKey | None
    target: Annotated[int, Meta(description="The target seat, -1 when none.")]
    rn: Annotated[int, Meta(description="The resolution number.")]
    nv: Annotated[int, Meta(description="+N NV added to the card's FX (R-010).")]
    bonus: int
    as_card: Annotated[CardKey | None, Meta(description="The card this one resolves as (Equilibrium copies).")] = (
        msgspec.field(name="as")
    )
    status: Annotated[int, Meta(description="0 pending, 1 resolved, 2 removed.")]
    consumed: bool


class PromptView(_View):
    """A question a seat answers with the `choose` action."""

    seat: int
    kind: PromptName
    options: list[int]
    ref: int


class PickingView(_View):
    """A Standoff action that selects cards one at a time."""

    seat: int
    kind: PickName
    left: int
    minimum: int
    taken: int
    card: Annotated[CardKey | None, Meta(description="The Standoff card being resolved (Recall), set aside.")]


class ScourgeView(_View):
    """Scourge in play: on whom, whose, how much it takes, and the physical card (Scourge or a copy)."""

    on: int
    owner: int
    loss: int
    card: CardKey | None


class OutcomeView(_View):
    """The result once the duel is over: a rank per seat (1 is best)."""

    ranks: list[int]
    reason: str


class MyCommitView(_View):
    """The observer's own Draw Step Two commitment."""

    kind: CommitName
    cards: list[CardKey]


class MemberView(_View):
    """A Tall Tale player's campaign record: stash, level, perks."""

    stash: Annotated[list[CardKey], Meta(description="Stashed cards (kept face up in the character space).")]
    level: int
    hand_bonus: int
    hand_limit: int
    perks_due: Annotated[list[int], Meta(description="Levels whose perk is not chosen yet.")]
    down: Annotated[bool, Meta(description="Defeated outside a duel (or fallen in a co-op duel), awaiting revival.")]
    counted: Annotated[bool, Meta(description="This defeat was already taken from the allowed defeats.")]


class DecisionView(_View):
    """A group decision: a proposal every player accepts, or a roll-off (R-237, R-238, R-251)."""

    kind: DecisionName
    options: list[int]
    proposer: int
    proposal: int
    accepted: list[int]
    decider: Annotated[int, Meta(description="The roll-off winner who picks alone; -1 before a roll-off.")]
    ref: Annotated[int, Meta(description="item_owner: the item card's id being given.")]


class TaleView(_View):
    """The Tall Tale campaign: map position, story, group decision, activities, decks' sizes."""

    difficulty: str
    chapter: str
    chapter_index: int
    part: int
    objective: str
    node: Annotated[str, Meta(description="The map node the group stands on.")]
    node_type: str
    links: Annotated[list[str], Meta(description="Nodes linked to the current one.")]
    turn_start: str | None
    last_start: Annotated[str | None, Meta(description="Where the previous adventure turn started (R-238).")]
    turn: int
    step: StepName
    stage: int
    defeats_left: int
    members: list[MemberView]
    decision: DecisionView | None
    activity: Annotated[ActivityName, Meta(description="What the seat at the head of `queue` does (R-237).")]
    queue: list[int]
    used: Annotated[int, Meta(description="Rest: 1 a refresh ability used, 2 a Standoff item used.")]
    moves: int
    event_deck_size: int
    event_discard: list[str]
    event: str | None
    numbers_size: int
    numbers_seen: list[int]
    sneaking: bool
    loot: Annotated[list[CardKey], Meta(description="Items taken this sneak (lost if the sneaker is defeated).")]
    behemoth: int
    award: Annotated[list[CardKey], Meta(description="Items won by the group, waiting for an owner (R-251).")]
    duel: DuelName
    duel_part: int
    duel_creature: str
    duel_modifiers: list[str]
    duel_outcome: str
    fled: list[int]
    duels_won: int
    duels_before: Annotated[int, Meta(description="Duels won before this chapter began.")]
    result: str


class _Table(_View, tag_field="mode"):
    """What one observer (a seat, or null: a spectator) sees of a Grimslingers match; `mode` tells the shape."""

    game: Literal["grimslingers"]
    seat: Annotated[int | None, Meta(description="The observer's seat; null for a spectator.")]
    seats: Annotated[int, Meta(description="Seats at the table, the creature's included.")]
    options: OptionsView
    flags: FlagsView
    phase: PhaseName
    turn: int
    first_player: int
    current: Annotated[int, Meta(description="The seat whose Standoff (or archetype pick) it is; -1 when none.")]
    order: list[int]
    draft_round: int
    standoff_open: bool
    players: list[PlayerView]
    plays: list[PlayView]
    cur_play: Annotated[int, Meta(description="Index in `plays` of the play resolving now; -1 when none.")]
    stage: Annotated[int, Meta(description="How far the current play's resolution has got (0 start .. 4 apply).")]
    pending: Annotated[
        list[list[int]], Meta(description="Effects waiting on True Grit answers: [seat, resource, amount].")
    ]
    prompts: list[PromptView]
    picking: PickingView | None
    field: Annotated[list[CardKey | None], Meta(description="The scavenge field's slots (null: empty).")]
    item_deck_size: int
    item_discard: list[CardKey]
    defused: list[CardKey]
    scourge: ScourgeView | None
    box_size: Annotated[int, Meta(description="Cards returned to the box (out of the match).")]
    instant: Annotated[
        list[int], Meta(description="An Instant item being taken during True Grit: [seat, card, kept, slot].")
    ]
    low_hp: Annotated[int, Meta(description="Lowest total HP of the standing seats seen at a turn's end; -1: none.")]
    calm: Annotated[int, Meta(description="Turns in a row with no defeat and no new low (the stalemate rule).")]
    evert: bool
    out_steps: int
    outcome: OutcomeView | None
    hand: Annotated[list[CardKey] | UnsetType, Meta(description="The observer's hand (seats only).")] = UNSET
    deactivated: Annotated[list[CardKey] | UnsetType, Meta(description="Its deactivated pile (seats only).")] = UNSET
    offer: Annotated[list[CardKey] | UnsetType, Meta(description="Its draft offer (seats only).")] = UNSET
    draft_seen: Annotated[
        list[CardKey] | UnsetType, Meta(description="Signatures it saw in the draft (seats only).")
    ] = UNSET
    my_commit: Annotated[
        MyCommitView | UnsetType | None, Meta(description="Its Draw Step Two commitment (seats only).")
    ] = UNSET


class VersusView(_Table, kw_only=True):
    """A versus duel (1v1, free-for-all, teams, Advanced Duels): no creature, no tale."""

    creature: None


class CreatureDuelView(_Table, kw_only=True):
    """A creature duel (a creature, or the Witch King challenge): the creature is always shown."""

    creature: CreatureView


class TallTaleView(_Table, kw_only=True, tag="tall-tale"):
    """The Tall Tale campaign; `creature` is set while a campaign duel is on."""

    creature: CreatureView | None
    tale: Annotated[
        TaleView | UnsetType, Meta(description="The campaign; absent while the players pick their archetypes.")
    ] = UNSET


class Versus1v1View(VersusView, tag="versus-1v1"):
    """Versus 1v1."""


class VersusFfaView(VersusView, tag="versus-ffa"):
    """Versus free-for-all."""


class VersusTeamsView(VersusView, tag="versus-teams"):
    """Versus teams 2v2."""


class VersusTeams3v3View(VersusView, tag="versus-teams-3v3"):
    """Versus teams 3v3."""


class AdvancedDuelsView(VersusView, tag="advanced-duels"):
    """Advanced Duels."""


class CreatureDuelModeView(CreatureDuelView, tag="creature-duel"):
    """A creature duel."""


class WitchKingView(CreatureDuelView, tag="witch-king"):
    """The Witch King challenge."""


BY_MODE: dict[str, type[VersusView] | type[CreatureDuelView] | type[TallTaleView]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]
    for cls in (
        Versus1v1View,
        VersusFfaView,
        VersusTeamsView,
        VersusTeams3v3View,
        AdvancedDuelsView,
        CreatureDuelModeView,
        WitchKingView,
        TallTaleView,
    )
}
"""The view Struct of each mode id."""

GrimslingersView = Union[  # noqa: UP007 - a runtime union of Struct types (msgspec's tagged union)
    Versus1v1View,
    VersusFfaView,
    VersusTeamsView,
    VersusTeams3v3View,
    AdvancedDuelsView,
    CreatureDuelModeView,
    WitchKingView,
    TallTaleView,
]
"""Every Grimslingers view: the game's `view_type`."""
