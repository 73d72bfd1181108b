"""The match state: flat lists of ints in a msgspec Struct (fast to copy, encode and compare)."""

from __future__ import annotations

import msgspec

from gamehall.games.tiny_epic_quest.tables import CASTLE, LAST_SPACE, OBELISK, PORTAL, REGIONS, TEMPLE

DAY, NIGHT, OVER = 0, 1, 2
ADVENTURING, RESTED, EXHAUSTED = 0, 1, 2
NO_GOBLIN, PASSIVE, AGGRESSIVE = 0, 1, 2
HEROES = 3
MAX_STAT = 10
ROUNDS = 5
DAY_TURNS = 4
KEPT = -1
"""`Equip(hero=KEPT)`: the item stays by the player card."""

# Pending decisions: [seat, kind, a, b].
P_GAIN, P_GROTTO, P_QUEST, P_EQUIP, P_LEARN, P_DEFEND, P_PROVOKE = range(7)
P_NAMES = ("gain", "grotto", "quest", "equip", "learn", "defend", "provoke")


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
    """Everything about a match. Hero `i` of seat `p` is index `3 * p + i` in the hero lists."""

    mode: str
    seats: int
    difficulty: str
    goal: int
    rules: Rules
    side: int
    rng: int
    cards: list[int]
    goblin: list[int]
    gdmg: list[int]
    gclaim: list[int]
    supply: int
    hslot: list[int]
    hreg: list[int]
    hprog: list[int]
    hitems: list[list[int]]
    health: list[int]
    power: list[int]
    spell: list[int]
    goblins: list[int]
    quests_done: list[list[int]]
    kept: list[list[int]]
    legend: list[list[int]]
    status: list[int]
    home: list[int]
    home_reg: list[int]
    quest_deck: list[int]
    row: list[int]
    discard: list[int]
    color: list[int]
    """Player card (colour) per seat: its castle and its Legendary temple pairs."""
    round: int = 1
    phase: int = DAY
    magic: int = 0
    first: int = 0
    token_q: bool = True
    used: list[bool] = msgspec.field(default_factory=lambda: [False] * 5)
    solo_deck: list[int] = msgspec.field(default_factory=list)
    options: list[int] = msgspec.field(default_factory=list)
    turn: int = 0
    card: int = -1
    actor: int = 0
    acted: int = 0
    moved: bool = False
    stage: int = 0
    in_roll: list[bool] = msgspec.field(default_factory=list)
    qturn: list[bool] = msgspec.field(default_factory=list)
    holder: int = 0
    roll: list[int] = msgspec.field(default_factory=list)
    dq: list[int] = msgspec.field(default_factory=list)
    dq_cur: int = -1
    dq_kind: int = -1
    dq_n: int = 0
    pool: list[list[int]] = msgspec.field(default_factory=list)
    using: list[bool] = msgspec.field(default_factory=list)
    pending: list[list[int]] = msgspec.field(default_factory=list)
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
    return item in s.hitems[base] or item in s.hitems[base + 1] or item in s.hitems[base + 2]


def hero_type(s: State, h: int) -> int:
    return REGIONS[s.side][s.cards[s.hslot[h]]][s.hreg[h]][0]


def in_temple(s: State, h: int) -> bool:
    return hero_type(s, h) == TEMPLE


def at_last_space(s: State, h: int) -> bool:
    return hero_type(s, h) == TEMPLE and s.hprog[h] == LAST_SPACE


def at_castle(s: State, h: int) -> bool:
    return hero_type(s, h) == CASTLE


def on_obelisk(s: State, h: int) -> bool:
    return hero_type(s, h) == OBELISK


def send_home(s: State, h: int) -> None:
    seat = h // 3
    s.hslot[h] = s.home[seat]
    s.hreg[h] = s.home_reg[seat]
    s.hprog[h] = 0


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
