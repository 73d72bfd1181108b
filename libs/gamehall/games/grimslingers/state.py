"""The match state: compact msgspec Structs of ints and lists (fast msgpack deep copy).

Cards are int ids from `catalog`; seats are numbered clockwise (to the left) from 0. The phase
machine (`machine.py`) moves the state between the phases below; prompts and pickings are the
points where a seat must answer before the machine can go on.
"""

from __future__ import annotations

import msgspec

# phases
ARCHETYPE, DRAFT, STANDOFF, AIM, FIRE, CHEAT, AFTERMATH, OVER = range(8)
PHASE_NAMES = ("archetype", "draft", "standoff", "aim", "fire", "cheat", "aftermath", "over")

# commitment kinds (Draw Step Two)
C_PLAY, C_PASS, C_DARK, C_FEAST = 1, 2, 3, 4
COMMIT_NAMES = {C_PLAY: "play", C_PASS: "pass", C_DARK: "into_darkness", C_FEAST: "blood_feast"}

# play status in the Aftermath
PENDING, RESOLVED, REMOVED = 0, 1, 2

# resolution stages of the current play
ST_START, ST_CHOOSE, ST_EFFECT, ST_GRIT, ST_APPLY = range(5)

# prompt kinds (answered with Choose)
P_REDIRECT, P_EQUILIBRIUM, P_TRANSMUTE, P_GRIT, P_RESURRECT, P_JUJU, P_REVENANT, P_SPECTER, P_CHEAT = range(9)
P_OPTION = 9
PROMPT_NAMES = (
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
)

# picking kinds (a Standoff action that selects cards one at a time)
K_RELOAD, K_PURGE, K_SURGE, K_REACTIVATE, K_RECALL = range(5)
PICK_NAMES = ("reload", "purge", "surge", "reactivate", "recall")

# atom resources (see effects.py)
R_HP, R_EP, R_SET_HP, R_DISCARD, R_DEACT = range(5)


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
    kind: int
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
    used: int = 0
    """Bitmask of Standoff action kinds used this turn (Advanced Duels repeat rule)."""
    anima: bool = False
    surged: bool = False
    flare: bool = False
    bl_bonus: int = 0
    bl_on: bool = False
    bl_tally: int = 0
    dark: bool = False
    barrier: int = 0
    exalt: bool = False
    transmute: int = -1
    transmute_phase: int = -1
    specter_turn: int = -1
    dealt: list[int] = []
    zeroed: bool = False
    out_step: int = -1


class Play(msgspec.Struct, array_like=True):
    owner: int
    card: int
    combine: int = -1
    target: int = -1
    rn: int = 0
    nv: int = 0
    bonus: int = 0
    as_card: int = -1
    status: int = PENDING
    consumed: bool = False
    choices: list[int] = []
    """Answers of targets to a skill's options (Engulf): seat, option, seat, option..."""


class Prompt(msgspec.Struct, array_like=True):
    seat: int
    kind: int
    options: list[int]
    ref: int = -1


class Picking(msgspec.Struct, array_like=True):
    seat: int
    kind: int
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
    phase: int = DRAFT
    turn: int = 1
    fp: int = 0
    cur: int = -1
    order: list[int] = []
    draft_round: int = 0
    standoff_open: bool = False
    plays: list[Play] = []
    cur_play: int = -1
    stage: int = ST_START
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
    scourge_n: int = 0
    scourge_card: int = -1
    """The physical card lying in the Scourged seat's space (Scourge, or a copy such as Equilibrium)."""
    instant: list[int] = []
    """An Instant item being taken while True Grit is asked: [seat, card, kept, field slot]."""
    creature: int = -1
    """Creature duels: the creature's index in `seats` (= the number of players); -1 in versus."""
    ckey: str = ""
    mods: list[int] = []
    """Creature modifiers drawn for this duel (indices into catalog.MODIFIERS)."""
    difficulty: str = ""
    config_creature: str = "random"
    config_modifiers: int = 0
    """The creature-duel options as configured (the drawn creature and modifiers are above)."""
    cdeck: list[int] = []
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

    @property
    def advanced(self) -> bool:
        """Advanced Duels rules: the versus duel, and the Witch King challenge (CD-AD)."""
        return self.mode in ("advanced-duels", "witch-king")

    @property
    def players(self) -> int:
        """Grimslinger seats (protocol seats); the creature, if any, sits after them."""
        return self.creature if self.creature >= 0 else self.n
