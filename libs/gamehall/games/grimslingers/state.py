"""The match state: compact msgspec Structs of ints and lists (fast msgpack deep copy).

Cards are int ids from `catalog`; seats are numbered clockwise (to the left) from 0. The phase
machine (`machine.py`) moves the state between the phases below; prompts and pickings are the
points where a seat must answer before the machine can go on.
"""

from __future__ import annotations

from enum import IntEnum, IntFlag

import msgspec

from gamehall.games.grimslingers.tale_state import Tale


class Phase(IntEnum):
    """Where the turn is (the phase machine in `machine.py` moves the state between them)."""

    ARCHETYPE = 0
    DRAFT = 1
    STANDOFF = 2
    AIM = 3
    FIRE = 4
    CHEAT = 5
    AFTERMATH = 6
    OVER = 7
    ADVENTURE = 8
    """Tall Tale: between duels (see `tale_state.Step`)."""


class Commitment(IntEnum):
    """What a seat committed to in Draw Step Two."""

    PLAY = 1
    PASS = 2
    INTO_DARKNESS = 3
    BLOOD_FEAST = 4


class PlayStatus(IntEnum):
    """A played card's status in the Aftermath."""

    PENDING = 0
    RESOLVED = 1
    REMOVED = 2


class Stage(IntEnum):
    """How far the resolution of the current play has got (it may stop to ask a seat)."""

    START = 0
    CHOOSE = 1
    EFFECT = 2
    TRUE_GRIT = 3
    APPLY = 4


class PromptKind(IntEnum):
    """Questions a seat answers with Choose; the lower-case name is the view's `kind`."""

    REDIRECT = 0
    EQUILIBRIUM = 1
    TRANSMUTE = 2
    TRUE_GRIT = 3
    RESURRECT = 4
    REVIVE_JUJU = 5
    REVENANT = 6
    SPECTER = 7
    DIRTY_CHEAT = 8
    SKILL_OPTION = 9


class PickKind(IntEnum):
    """Standoff actions that select cards one at a time (a Picking)."""

    RELOAD = 0
    PURGE = 1
    SURGE = 2
    REACTIVATE = 3
    RECALL = 4
    ORGANIZE = 5
    """Tall Tale Standoff: move cards between hand and stash (Stash / Unstash)."""
    TRADE = 6
    """Tall Tale Standoff: give item cards to teammates (Give)."""


class Resource(IntEnum):
    """Resource atoms of an effect: [seat, resource, amount] (statuses are in effects.StatusAtom)."""

    HP = 0
    EP = 1
    SET_HP = 2
    DISCARD = 3
    DEACTIVATE = 4


class StandoffUse(IntFlag):
    """Standoff action kinds a seat used this turn (Advanced Duels: each at most once)."""

    NONE = 0
    SACRIFICE = 1
    RELOAD = 2
    PURGE = 4
    SURGE = 8
    REACTIVATE = 16
    SCAVENGE = 32
    CARD = 64
    FLARE = 128
    FLEE = 256
    ORGANIZE = 512
    TRADE = 1024
    ANIMA_FLIP = RELOAD | PURGE | SURGE
    """The actions that flip the Anima (one of them per turn)."""


PHASE_NAMES = tuple(p.name.lower() for p in Phase)
COMMIT_NAMES = {c: c.name.lower() for c in Commitment}
PROMPT_NAMES = tuple(k.name.lower() for k in PromptKind)
PICK_NAMES = tuple(k.name.lower() for k in PickKind)


class Flags(msgspec.Struct, frozen=True, array_like=True):
    """Rule flags (readings of ambiguous rules); defaults are the specification's readings."""

    element_cycle: str = "A"
    wind_water_damage: str = "1/2"
    amnesia_pile: str = "deactivate"
    blood_feast_pass_bonus: bool = True
    sacrifice_to_zero: bool = False
    reactivate_up_to: bool = True
    revenant_immediate: bool = True
    fx_netting: bool = True
    equilibrium_copy_cost: bool = True
    cheat_after_pass: bool = True
    cheat_pays_spell_cost: bool = True
    ad_repeat_actions: bool = True
    item_reshuffle: bool = True
    draw_in_turn_order: bool = True
    stalemate_turns: int = 30


class Commit(msgspec.Struct, array_like=True):
    kind: Commitment
    cards: list[int] = []


class Seat(msgspec.Struct, array_like=True):
    hp: int
    ep: int
    max_hp: int
    max_ep: int
    archetype: int = -1
    alive: bool = True
    hand: list[int] = []
    discard: list[int] = []
    deact: list[int] = []
    sigs_seen: list[int] = []
    """Signatures of this seat that have been revealed in public (they may be back in hand)."""
    offer: list[int] = []
    draft_seen: list[int] = []
    aim: int = -1
    commit: Commit | None = None
    acted: int = 0
    standoff_used: StandoffUse = StandoffUse.NONE
    """Standoff action kinds used this turn (Advanced Duels repeat rule)."""
    anima: bool = False
    surged: bool = False
    flare: bool = False
    bloodlust_bonus: int = 0
    """Bloodlust: DMG added to the seat's next damaging spell."""
    bloodlust_active: bool = False
    """Bloodlust is counting this turn's DMG taken (into `bloodlust_tally`)."""
    bloodlust_tally: int = 0
    dark: bool = False
    barrier: int = 0
    exalt: bool = False
    transmute: int = -1
    transmute_phase: int = -1
    specter_turn: int = -1
    dealt: list[int] = []
    zeroed: bool = False
    out_step: int = -1
    shown: list[int] = []
    """Cards everyone saw go into this seat's hand (Hush, Reload, a 'keep' card): public knowledge
    that views carry (item 6 of issue 40). Pruned after each action to the cards still in the hand
    (or its face-down commitment); forgotten when the deactivated pile grows, since a card may have
    gone there unseen."""


class Play(msgspec.Struct, array_like=True):
    owner: int
    card: int
    combine: int = -1
    target: int = -1
    resolution_number: int = 0
    nv_boost: int = 0
    """+N NV added to the card's FX (R-010)."""
    bonus: int = 0
    as_card: int = -1
    status: PlayStatus = PlayStatus.PENDING
    consumed: bool = False
    choices: list[int] = []
    """Answers of targets to a skill's options (Engulf): seat, option, seat, option..."""


class Prompt(msgspec.Struct, array_like=True):
    seat: int
    kind: PromptKind
    options: list[int]
    ref: int = -1


class Picking(msgspec.Struct, array_like=True):
    seat: int
    kind: PickKind
    left: int
    minimum: int
    taken: int = 0
    card: int = -1
    """The Standoff card being resolved (Recall), set aside until the picking ends."""


class State(msgspec.Struct):
    mode: str
    n: int
    items: bool
    archetypes: bool
    draft: str
    light_dark: bool
    flags: Flags
    rng: int
    seats: list[Seat]
    phase: Phase = Phase.DRAFT
    turn: int = 1
    first_player: int = msgspec.field(default=0, name="fp")
    current: int = msgspec.field(default=-1, name="cur")
    """The seat whose Standoff (or archetype pick) it is; -1: none."""
    order: list[int] = []
    draft_round: int = 0
    standoff_open: bool = False
    plays: list[Play] = []
    current_play: int = msgspec.field(default=-1, name="cur_play")
    stage: Stage = Stage.START
    pending: list[list[int]] = []
    """Atoms of the current play waiting on True Grit answers: [seat, resource, amount]."""
    prompts: list[Prompt] = []
    picking: Picking | None = None
    sig_deck: list[int] = []
    item_deck: list[int] = []
    field: list[int] = []
    item_discard: list[int] = []
    defused: list[int] = []
    scourge_on: int = -1
    scourge_owner: int = -1
    scourge_loss: int = msgspec.field(default=0, name="scourge_n")
    scourge_card: int = -1
    """The physical card lying in the Scourged seat's space (Scourge, or a copy such as Equilibrium)."""
    instant: list[int] = []
    """An Instant item being taken while True Grit is asked: [seat, card, kept, field slot]."""
    creature: int = -1
    """Creature duels: the creature's index in `seats` (= the number of players); -1 in versus."""
    creature_key: str = msgspec.field(default="", name="ckey")
    modifiers: list[int] = msgspec.field(default_factory=list, name="mods")
    """Creature modifiers drawn for this duel (indices into catalog.MODIFIERS)."""
    difficulty: str = ""
    config_creature: str = "random"
    config_modifiers: int = 0
    """The creature-duel options as configured (the drawn creature and modifiers are above)."""
    creature_deck: list[int] = msgspec.field(default_factory=list, name="cdeck")
    """Every skill card the creature duels with (its whole deck, whatever pile each card is in)."""
    low_hp: int = -1
    """Lowest total HP of the seats still standing seen at an end of turn (-1: none yet)."""
    calm: int = 0
    """Turns in a row that ended with no defeat and no new lowest total HP (stalemate rule)."""
    box: list[int] = []
    """Cards returned to the box (Advanced Duels draft leftovers): out of the match, still counted."""
    evert: bool = False
    out_steps: int = 0
    ranks: list[int] | None = None
    reason: str = ""
    tale: Tale | None = None
    """The Tall Tale campaign (None in every other mode)."""

    @property
    def advanced(self) -> bool:
        """Advanced Duels rules: the versus duel, and the Witch King challenge (CD-AD)."""
        return self.mode in ("advanced-duels", "witch-king")

    @property
    def players(self) -> int:
        """Grimslinger seats (protocol seats); the creature, if any, sits after them."""
        return self.creature if self.creature >= 0 else self.n
