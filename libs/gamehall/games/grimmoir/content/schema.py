"""Schema of the GrimmoiR character pack and the small effect language its skills are written in.

The rulebook prints no character cards, so every character is `designed` content. A skill is
data: a trigger, an optional condition, an optional pen cost and a list of effects, each an
operation applied to the units a selector picks. The engine interprets it (`effects.py`).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from gamehall.engine.content import Provenance

Faction = Literal["humilitat", "animo", "avarum", "diligit", "ingenium"]
DamageType = Literal["melee", "ranged", "magic"]
Icon = Literal["book", "pen", "none"]
Row = Literal["front", "back"]

Trigger = Literal["on_attack", "on_attacked", "special", "end_of_round", "on_death", "passive"]
"""When a skill fires: when its character attacks, is attacked, takes the Special action, at the
end of each round, when it is defeated, or always (passive modifiers)."""

Op = Literal[
    "damage",  # change the wound count of the attack being resolved (on_attack / on_attacked)
    "wound",  # place wound counters outside an attack
    "heal",  # remove wound counters
    "strengthen",  # place strengthening counters
    "weaken",  # place weakening counters
    "cleanse",  # remove every weakening counter
    "gain_coins",  # the owner takes coins from the pool
    "drain_coins",  # the opponent pays coins to the pool (as many as they have)
    "prepare",  # turn upright
    "exhaust",  # turn sideways
    "add_pen",  # place (or with a negative amount remove) pen counters, up to `cap` when cap > 0
    "open_book",  # turn a closed book counter back to open
    "swap_rows",  # swap a unit with the unit in the other row of its column
    "attack_bonus",  # passive: attack value modifier
    "armor",  # passive: fewer wounds from attacks (optionally only from damage types in `vs`)
]

Selector = Literal[
    "self",
    "target",  # the attacked character (on_attack), or the one chosen for a Special
    "attacker",  # on_attacked: the character attacking
    "killer",  # on_death: the character whose attack or effect defeated this one
    "allies",  # every own character, this one included
    "other_allies",
    "enemies",
    "column_allies",  # other own characters in this character's column
    "column_enemies",  # opponent characters in this character's column
    "row_allies",  # other own characters in this character's row
    "adjacent_allies",  # own characters orthogonally next to this one
    "front_enemy",  # the opponent's front-row character in this column
    "weakest_enemy",  # the opponent character with the least strength left (first in board order on ties)
    "most_wounded_ally",  # the own character with the most wounds (first in board order on ties)
    "behind",  # the own character in the back row of this column
]

Choice = Literal["none", "enemy", "ally", "other_ally"]
"""What a Special action picks: nothing, any opponent character, any own character, or another own one."""

SKILL_OPS: dict[str, frozenset[str]] = {
    "passive": frozenset({"attack_bonus", "armor"}),
    "on_attack": frozenset(set(Op.__args__) - {"attack_bonus", "armor"}),  # type: ignore[attr-defined]
    "on_attacked": frozenset(set(Op.__args__) - {"attack_bonus", "armor"}),  # type: ignore[attr-defined]
}
"""Which operations each trigger may use; triggers not listed take every op but damage/attack_bonus/armor."""

CONTEXT_SELECTORS: dict[str, frozenset[str]] = {
    "target": frozenset({"on_attack", "special"}),
    "attacker": frozenset({"on_attacked"}),
    "killer": frozenset({"on_death"}),
}
"""Context selectors and the triggers that provide their unit."""


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One operation applied to the units `to` selects (amount is its size, cap bounds add_pen)."""

    op: Op
    amount: int = 1
    to: Selector = "self"
    vs: tuple[DamageType, ...] = ()
    cap: int = 0


class Condition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Every given field must hold for the skill to fire; "other" is the target (or the attacker
    when this character is attacked)."""

    other_exhausted: bool | None = None
    other_wounded: bool | None = None
    other_type: DamageType | None = None
    other_row: Row | None = None
    self_row: Row | None = None
    self_wounded: bool | None = None
    outnumbered: bool | None = None
    killed: bool | None = None
    """on_attack only: whether the attack defeated its target (checked after the wounds)."""


class Skill(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    trigger: Trigger
    text: str
    effects: tuple[Effect, ...]
    when: Condition = Condition()
    pen_cost: int = 0
    choose: Choice = "none"


class Character(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One character card: the card fields of the rulebook (A-G) plus its skills in effect language."""

    id: str
    name: str
    faction: Faction
    attack: int
    damage: DamageType
    strength: int
    icon: Icon
    skills: tuple[Skill, ...]
    theme: str
    provenance: Provenance
    pens: int = 0
    """The number printed next to a pen icon: pen counters placed at the end of the display."""


class CharacterPack(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    version: int
    characters: tuple[Character, ...]


def check_character(card: Character) -> list[str]:
    """Rule-level problems with one card that the type schema cannot express (empty when sound)."""
    problems: list[str] = []
    where = card.id
    if card.attack < 0 or card.strength < 1:
        problems.append(f"{where}: attack must be >= 0 and strength >= 1")
    if (card.icon == "pen") != (card.pens > 0):
        problems.append(f"{where}: a pen number is printed exactly when the icon is a pen")
    specials = [s for s in card.skills if s.trigger == "special"]
    if card.icon == "book" and not specials:
        problems.append(f"{where}: a book character needs a special skill")
    if specials and card.icon != "book":
        problems.append(f"{where}: only book characters take the Special action (AMB-4)")
    if len(specials) > 1:
        problems.append(f"{where}: at most one special skill")
    uses_pens = any(s.pen_cost > 0 or any(e.op == "add_pen" for e in s.effects) for s in card.skills)
    if card.icon == "pen" and not uses_pens:
        problems.append(f"{where}: a pen character's skill must use its pen counters")
    if card.icon != "pen" and any(s.pen_cost > 0 for s in card.skills):
        problems.append(f"{where}: only pen characters pay pen costs")
    for skill in card.skills:
        allowed_ops = SKILL_OPS.get(skill.trigger, frozenset(set(Op.__args__) - {"damage", "attack_bonus", "armor"}))  # type: ignore[attr-defined]
        for effect in skill.effects:
            if effect.op not in allowed_ops:
                problems.append(f"{where}: op {effect.op} cannot be used by a {skill.trigger} skill")
            triggers = CONTEXT_SELECTORS.get(effect.to)
            if triggers is not None and skill.trigger not in triggers:
                problems.append(f"{where}: selector {effect.to} only exists for {sorted(triggers)} skills")
            if effect.to == "target" and skill.trigger == "special" and skill.choose == "none":
                problems.append(f"{where}: a special that affects its target must choose one")
            if effect.vs and effect.op != "armor":
                problems.append(f"{where}: only armor takes a damage-type filter")
        if skill.choose != "none" and skill.trigger != "special":
            problems.append(f"{where}: only special skills choose a target")
        if skill.when.killed is not None and skill.trigger != "on_attack":
            problems.append(f"{where}: the killed condition only applies to on_attack skills")
        if skill.when.killed is not None and any(e.op == "damage" for e in skill.effects):
            problems.append(f"{where}: a skill conditioned on the kill cannot change the attack's damage")
        if not skill.effects:
            problems.append(f"{where}: a skill needs at least one effect")
    return problems


def check_pack(pack: CharacterPack) -> list[str]:
    """Every problem in the pack: per-card rules and unique ids."""
    problems: list[str] = []
    seen: set[str] = set()
    for card in pack.characters:
        if card.id in seen:
            problems.append(f"duplicate character id {card.id}")
        seen.add(card.id)
        problems.extend(check_character(card))
    return problems
