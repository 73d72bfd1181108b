"""Martha's stat aggregation from base values, Status Upgrades and equipped items (W-IT-04/06, SC-W21)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from gamehall.engine import IllegalAction
from gamehall.games.grimm_world.catalog import CHARACTERS, ITEMS, SKILLS, UPGRADES
from gamehall.games.grimm_world.state import Sheet

FISTS = "fists"
"""Bare fists: range 1, damage 1 (W-AK-04), no attack-rate limit (AMB-17)."""

BLACK = ("dexterity", "knowledge", "charisma", "action", "reaction", "regeneration", "attack", "dodge", "armor",
         "constitution")


class EquipError(IllegalAction):
    """An equipment change would break slots, weight or bag capacity (W-IT-03/04/08)."""


@dataclass(frozen=True)
class Weapon:
    """What an attack uses: white range and damage, attack rate (None: unlimited) and crit numbers."""

    key: str
    range: int
    damage: int
    rate: int | None
    crit: tuple[int, ...]


def stats(sheet: Sheet) -> dict[str, int]:
    """Black numbers add up (base + upgrades + items); red ones (negative mods) subtract; weight never lowers
    Constitution (W-CK-09, W-IT-04)."""
    return dict(_stats(sheet.character, tuple(sheet.upgrades), tuple(sheet.equipped)))


@cache
def _stats(character_key: str, upgrades: tuple[str, ...], equipped: tuple[str, ...]) -> dict[str, int]:
    sheet = Sheet(character_key, list(upgrades), [], list(equipped), [], [])
    character = CHARACTERS[sheet.character]
    total = {name: character.base.get(name, 0) for name in BLACK}
    for key in sheet.upgrades:
        for name, value in UPGRADES[key].mods.items():
            total[name] += value
    for key in sheet.equipped:
        for name, value in ITEMS[key].mods.items():
            total[name] += value
    return total


def weight(items: list[str] | tuple[str, ...]) -> int:
    return sum(ITEMS[key].weight for key in items)


def weapons(sheet: Sheet) -> list[Weapon]:
    """The attack options: bare fists plus every equipped weapon, copies of one weapon as one option (white numbers
    stand alone, W-IT-06)."""
    character = CHARACTERS[sheet.character]
    out = [Weapon(FISTS, character.base["range"], character.base["damage"], None, ())]
    copies = Counter(sheet.equipped)
    for key in dict.fromkeys(sheet.equipped):
        item = ITEMS[key]
        if item.weapon:  # two copies of a weapon in hand: each keeps its own attack rate (W-TX-08, W-AK-02)
            out.append(Weapon(key, item.range, item.damage, None if item.rate is None else item.rate * copies[key],
                              item.crit))
    return out


def weapon(sheet: Sheet, key: str) -> Weapon:
    for w in weapons(sheet):
        if w.key == key:
            return w
    raise IllegalAction(f"{key} is not an equipped weapon")


def crit_numbers(sheet: Sheet) -> set[int]:
    """Critical-hit numbers of the character and its skills (6 for everyone, W-ED-06)."""
    numbers = set(CHARACTERS[sheet.character].crit) | {6}
    for key in sheet.skills:
        numbers |= set(SKILLS[key].crit)
    return numbers


def check_equipment(sheet: Sheet, equipped: list[str], stored: list[str]) -> None:
    """Raise EquipError unless slots, total weight <= Constitution and the bag's item capacity all hold."""
    character = CHARACTERS[sheet.character]
    hands = sum(ITEMS[k].hands for k in equipped if ITEMS[k].slot == "hands")
    if hands > character.slots["hands"]:
        raise EquipError(f"{hands} hands needed, Martha has {character.slots['hands']}")
    for slot, limit in (("body", character.slots["body"]), ("accessory", character.slots["accessories"])):
        if sum(1 for k in equipped if ITEMS[k].slot == slot) > limit:
            raise EquipError(f"more {slot} items than slots")
    constitution = stats(Sheet(sheet.character, sheet.upgrades, sheet.skills, [], [], []))["constitution"]
    if weight(equipped) > constitution:
        raise EquipError(f"equipped weight {weight(equipped)} exceeds Constitution {constitution}")
    capacity = sheet.bag or character.bag_items
    if len(stored) + len(sheet.broken) > capacity:
        raise EquipError(f"the bag holds {capacity} items")


def equip(sheet: Sheet, key: str) -> None:
    """Move a stored whole item onto Martha (rejected if it breaks a limit)."""
    if key not in sheet.stored:
        raise EquipError(f"{key} is not in the bag")
    equipped = [*sheet.equipped, key]
    stored = list(sheet.stored)
    stored.remove(key)
    check_equipment(sheet, equipped, stored)
    sheet.equipped, sheet.stored = equipped, stored


SWAPPABLE = ("hands", "accessory")
"""The slots re-equipped in combat: "This only applies to items for the hand-slot and accessories" (W-RQ-01)."""


def combat_loadouts(sheet: Sheet) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every legal (hand items, accessories) to wear, from those equipped or in the bag, other than the current
    one (combat re-equip, W-RQ-01; the free re-equip of W-CB-05); armour stays. Copies of an item count apart
    (W-TX-08). Sorted for a stable order."""
    return list(_combat_loadouts(sheet.character, tuple(sheet.upgrades), tuple(sheet.equipped), tuple(sheet.stored),
                                 tuple(sheet.broken), sheet.bag))


def _sub_multisets(pool: list[str]) -> list[tuple[str, ...]]:
    return sorted({combo for n in range(len(pool) + 1) for combo in combinations(sorted(pool), n)})


def _worn(items: list[str] | tuple[str, ...], slot: str) -> list[str]:
    return sorted(k for k in items if ITEMS[k].slot == slot)


@cache
def _combat_loadouts(character: str, upgrades: tuple[str, ...], equipped: tuple[str, ...], stored: tuple[str, ...],
                     broken: tuple[str, ...], bag: int = 0) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    sheet = Sheet(character, list(upgrades), [], list(equipped), list(stored), [], broken=list(broken), bag=bag)
    current = (tuple(_worn(equipped, "hands")), tuple(_worn(equipped, "accessory")))
    out = []
    for hands in _sub_multisets(_worn(equipped + stored, "hands")):
        for accessories in _sub_multisets(_worn(equipped + stored, "accessory")):
            if (hands, accessories) == current:
                continue
            try:
                _arrange(sheet, hands, accessories)
            except EquipError:
                continue
            out.append((hands, accessories))
    return tuple(out)


def _arrange(sheet: Sheet, hands: tuple[str, ...], accessories: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(equipped, stored) once `hands` and `accessories` are worn; raises EquipError if that is not legal."""
    pool = Counter(k for k in sheet.equipped + sheet.stored if ITEMS[k].slot in SWAPPABLE)
    chosen = Counter(hands) + Counter(accessories)
    if chosen - pool:
        raise EquipError(f"{sorted((chosen - pool).elements())} are not Martha's to wear")
    fixed = [k for k in sheet.equipped if ITEMS[k].slot not in SWAPPABLE]
    stored = [k for k in sheet.stored if ITEMS[k].slot not in SWAPPABLE] + sorted((pool - chosen).elements())
    equipped = fixed + list(hands) + list(accessories)
    check_equipment(sheet, equipped, stored)
    return equipped, stored


def set_loadout(sheet: Sheet, hands: tuple[str, ...], accessories: tuple[str, ...]) -> None:
    """Wear a loadout chosen from `combat_loadouts`."""
    sheet.equipped, sheet.stored = _arrange(sheet, tuple(sorted(hands)), tuple(sorted(accessories)))
