"""The match state: flat lists of ints in a msgspec Struct (fast to copy, encode and compare)."""

from __future__ import annotations

from enum import IntEnum

import msgspec

from gamehall.games.tiny_epic_quest.tables import CASTLE, LAST_SPACE, OBELISK, PORTAL, REGIONS, TEMPLE


class Phase(IntEnum):
    """The half of the round being played, or the end of the match (snapshots and views carry the int)."""

    DAY = 0
    NIGHT = 1
    OVER = 2


class NightStage(IntEnum):
    """Where the Night is (snapshots and views carry the int)."""

    CHOOSE = 0
    """Each seat in turn chooses to Adventure or Rest."""
    DISTRIBUTE = 1
    """The roll's Take Damage, Gain Power and Conjure symbols are handed out one at a time."""
    USE = 2
    """The adventuring seats use the roll's Torches, Scrolls and Attacks."""
    PROVOKING = 3
    """Solo: passive goblins are made aggressive."""


ADVENTURING, RESTED, EXHAUSTED = 0, 1, 2
NO_GOBLIN, PASSIVE, AGGRESSIVE = 0, 1, 2
HEROES = 3
MAX_STAT = 10
ROUNDS = 5
DAY_TURNS = 4
KEPT = -1
"""`Equip(hero=KEPT)`: the item stays by the player card."""



class DecisionKind(IntEnum):
    """What a pending decision asks of its seat."""

    GAIN = 0
    GROTTO = 1
    QUEST = 2
    EQUIP = 3
    LEARN = 4
    DEFEND = 5
    PROVOKE = 6


class Decision(msgspec.Struct, frozen=True, array_like=True):
    """A decision waiting for a seat's answer. Encoded as the array [seat, kind, value, extra], as snapshots and
    views have always carried it; `value` and `extra` mean what the kind says (0 where unused)."""

    seat: int
    kind: DecisionKind
    value: int = 0
    """GAIN: the '1 Health OR 1 Power' gains to split; GROTTO: the grotto; EQUIP: the item; DEFEND: the damage;
    PROVOKE: the passive goblins still to provoke."""
    extra: int = 0
    """GAIN: fixed gains granted first, packed as Power + 16 * Health; GROTTO: the hero."""


class RollSymbols(msgspec.Struct, frozen=True, array_like=True):
    """A seat's Torches, Scrolls and Attacks of the Adventure roll still to use (encoded [torches, scrolls,
    attacks], as snapshots and views have always carried them)."""

    torches: int = 0
    scrolls: int = 0
    attacks: int = 0



class Rules(msgspec.Struct):
    """Rule flags: the readings of ambiguous rules (defaults are the specification's readings)."""

    foot_diagonal: bool = True
    quest_rule_every_refill: bool = True
    night_quest_limit: bool = False
    conjure_damage_last_space: bool = True
    exhausted_skipped: bool = True
    defend_any_damage: bool = True
    legendary_strict_order: bool = True
    single_learn_per_rest: bool = False
    gloom_setup_aggressive: bool = True
    treasure_return_bonus: bool = True
    end_card_flips_goblin: bool = False


FLAG_DOCS: dict[str, str] = {
    "foot_diagonal": "AMB-2: By Foot reaches diagonal neighbours too (off: orthogonal only)",
    "quest_rule_every_refill": "AMB-3: the row keeps >= 1 Movement and >= 1 Treasure quest after every refill",
    "night_quest_limit": "AMB-4: at most one quest per Rest at Night too (off: several)",
    "conjure_damage_last_space": "AMB-5: Conjure deals damage only once the token is on the last space "
    "(off: anywhere in the Level-3 range)",
    "exhausted_skipped": "AMB-6: symbols still to hand out skip Exhausted players (off: their share is lost)",
    "defend_any_damage": "AMB-7: Level-3 Conjure damage may be defended like Take Damage",
    "legendary_strict_order": "AMB-9: completing a Legendary item's second temple first does not count",
    "single_learn_per_rest": "AMB-10: learn at most one spell per Rest (off: one per obelisk hero, in chosen order)",
    "gloom_setup_aggressive": "AMB-12: GloomFall's setup goblins are aggressive too",
    "treasure_return_bonus": "AMB-14: a hero returning with a Treasure Quest at Rest earns 1 Health or Power",
    "end_card_flips_goblin": "T-GB-02: ending on the other region of a card flips its aggressive goblin (off: only "
    "ending on the portal)",
}
"""What each rule flag (a field of `Rules`) means: the catalog's flag descriptions and the view schema's."""

class State(msgspec.Struct):
    """Everything about a match. Hero `i` of seat `p` is index `3 * p + i` in the hero lists.

    Fields renamed to full words keep their old short name (`msgspec.field(name=...)`) as the key in snapshots,
    so stored matches load, and `determinize` still reads a view's keys.
    """

    mode: str
    seats: int
    difficulty: str
    goal: int
    rules: Rules
    side: int
    rng: int
    cards: list[int]
    goblin: list[int]
    goblin_damage: list[int] = msgspec.field(name="gdmg")
    """Hits dealt this Night to each slot's goblin."""
    goblin_claim: list[int] = msgspec.field(name="gclaim")
    """The seat fighting each slot's goblin this Night, or -1."""
    supply: int
    hero_slot: list[int] = msgspec.field(name="hslot")
    hero_region: list[int] = msgspec.field(name="hreg")
    hero_progress: list[int] = msgspec.field(name="hprog")
    hero_items: list[list[int]] = msgspec.field(name="hitems")
    health: list[int]
    power: list[int]
    spell: list[int]
    goblins: list[int]
    quests_done: list[list[int]]
    kept: list[list[int]]
    legend: list[list[int]]
    status: list[int]
    home: list[int]
    home_region: list[int] = msgspec.field(name="home_reg")
    quest_deck: list[int]
    row: list[int]
    discard: list[int]
    color: list[int]
    """Player card (colour) per seat: its castle and its Legendary temple pairs."""
    round: int = 1
    phase: Phase = Phase.DAY
    magic: int = 0
    first: int = 0
    no_quest_by_day: bool = msgspec.field(default=True, name="token_q")
    """No quest was completed by Day this round (the rightmost row quest is then discarded)."""
    used: list[bool] = msgspec.field(default_factory=lambda: [False] * 5)
    solo_deck: list[int] = msgspec.field(default_factory=list)
    options: list[int] = msgspec.field(default_factory=list)
    turn: int = 0
    card: int = -1
    actor: int = 0
    acted: int = 0
    moved: bool = False
    stage: NightStage = NightStage.CHOOSE
    in_roll: list[bool] = msgspec.field(default_factory=list)
    quested_this_turn: list[bool] = msgspec.field(default_factory=list, name="qturn")
    holder: int = 0
    roll: list[int] = msgspec.field(default_factory=list)
    handout: list[int] = msgspec.field(default_factory=list, name="dq")
    """Damage, power and magic symbols of the roll still to hand out (face codes)."""
    handout_seat: int = msgspec.field(default=-1, name="dq_cur")
    """The seat next in line for the symbols being handed out, or -1."""
    handout_kind: int = msgspec.field(default=-1, name="dq_kind")
    """The face code being handed out, or -1."""
    handout_count: int = msgspec.field(default=0, name="dq_n")
    """Symbols of that kind handed out so far."""
    pool: list[RollSymbols] = msgspec.field(default_factory=list)
    using: list[bool] = msgspec.field(default_factory=list)
    pending: list[Decision] = msgspec.field(default_factory=list)
    """Decisions waiting, first first."""
    choices: list[int] = msgspec.field(default_factory=list)


def region_of(s: State, slot: int, reg: int) -> tuple[int, int]:
    """(region type, arg) of region `reg` of the card at `slot`."""
    return REGIONS[s.side][s.cards[slot]][reg]


def portal_region(s: State, slot: int) -> int:
    """The region index of the portal on the card at `slot`, or -1."""
    regs = REGIONS[s.side][s.cards[slot]]
    if regs[0][0] == PORTAL:
        return 0
    if regs[1][0] == PORTAL:
        return 1
    return -1


def max_health(s: State, seat: int) -> int:
    return min(MAX_STAT, 6 + s.goblins[seat])


def max_power(s: State, seat: int) -> int:
    return min(MAX_STAT, 3 + s.spell[seat])


def gain_health(s: State, seat: int, n: int) -> None:
    s.health[seat] = min(max_health(s, seat), s.health[seat] + n)


def gain_power(s: State, seat: int, n: int) -> None:
    s.power[seat] = min(max_power(s, seat), s.power[seat] + n)


def has_item(s: State, seat: int, item: int) -> bool:
    """Whether one of the seat's heroes carries `item` (kept items give no benefit)."""
    base = 3 * seat
    return item in s.hero_items[base] or item in s.hero_items[base + 1] or item in s.hero_items[base + 2]


def hero_type(s: State, h: int) -> int:
    return REGIONS[s.side][s.cards[s.hero_slot[h]]][s.hero_region[h]][0]


def in_temple(s: State, h: int) -> bool:
    return hero_type(s, h) == TEMPLE


def at_last_space(s: State, h: int) -> bool:
    return hero_type(s, h) == TEMPLE and s.hero_progress[h] == LAST_SPACE


def at_castle(s: State, h: int) -> bool:
    return hero_type(s, h) == CASTLE


def on_obelisk(s: State, h: int) -> bool:
    return hero_type(s, h) == OBELISK


def send_home(s: State, h: int) -> None:
    seat = h // 3
    s.hero_slot[h] = s.home[seat]
    s.hero_region[h] = s.home_region[seat]
    s.hero_progress[h] = 0


def next_seat(s: State, seat: int) -> int:
    return (seat + 1) % s.seats


def next_adventurer(s: State, seat: int, include_self: bool) -> int:
    """The first Adventuring seat clockwise from `seat` (itself first when `include_self`), or -1."""
    n = s.seats
    start = 0 if include_self else 1
    for k in range(start, n + start):
        p = (seat + k) % n
        if s.status[p] == ADVENTURING:
            return p
    return -1
