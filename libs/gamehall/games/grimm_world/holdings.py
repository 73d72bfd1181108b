"""Martha's holdings outside combat: thalers, goods under the storage card, items (whole, broken, equipped) and
what receiving, removing and losing them means (W-IT-*, W-TX-07..10, W-ED-04)."""

from __future__ import annotations

from functools import cache

from gamehall.games.grimm_world.atlas import PAGES
from gamehall.games.grimm_world.catalog import ITEMS
from gamehall.games.grimm_world.content.schema import Choice, Op
from gamehall.games.grimm_world.journey import Good
from gamehall.games.grimm_world.sheet import EquipError, check_equipment
from gamehall.games.grimm_world.state import Sheet
from gamehall.games.grimm_world.trip import Trip, handler

MAX_THALERS = 150
"""The Money Cards run from 0 to 150 thalers (W-CO-08)."""


def capacity(t: Trip) -> tuple[int, int, int]:
    """Goods, items and thalers the storage card holds (W-IT-10)."""
    return PAGES[t.j.storage].capacity if t.j.storage else (0, 0, MAX_THALERS)


def count(t: Trip, kind: str) -> int:
    return sum(1 for g in t.j.goods if g.kind == kind)


def owned_items(t: Trip) -> list[str]:
    """'Own/have': equipped or stored, and not broken (W-IT-09)."""
    return [*t.s.sheet.equipped, *t.s.sheet.stored]


def has_tool(t: Trip, tool: str) -> bool:
    return any(ITEMS[k].tool == tool for k in owned_items(t))


def has_ranged(t: Trip) -> bool:
    return any(ITEMS[k].ranged for k in t.s.sheet.equipped)


def gain_thalers(t: Trip, n: int) -> None:
    """Receive (n > 0) or lose as much as she has (n < 0); anything beyond the storage's limit is discarded."""
    sheet = t.s.sheet
    limit = min(MAX_THALERS, capacity(t)[2])
    sheet.thalers = max(0, min(limit, sheet.thalers + n))
    t.emit("thalers", change=n, thalers=sheet.thalers)


def receive_good(t: Trip, kind: str, card: str = "") -> bool:
    """The top deck card (or `card`) goes under the storage as `kind`; with no room it is not taken (SC-W20)."""
    if len(t.j.goods) >= capacity(t)[0]:
        t.emit("goods_full", kind=kind)
        return False
    t.j.goods.append(Good(card or t.take(), kind))
    t.emit("good", kind=kind, change=1)
    return True


def give_up_good(t: Trip, kind: str) -> bool:
    """One good of `kind` leaves the storage; its card goes under the deck (W-ED-04)."""
    for i, good in enumerate(t.j.goods):
        if good.kind == kind:
            del t.j.goods[i]
            t.under(good.card)
            t.emit("good", kind=kind, change=-1)
            return True
    return False


def item_count(t: Trip) -> int:
    return len(t.s.sheet.stored) + len(t.s.sheet.broken)


def drop_item(t: Trip, key: str) -> None:
    """An item leaves Martha: an Encounter-card item goes under the deck, a Lost Pages one is banished (W-IT-08)."""
    sheet = t.s.sheet
    for where in (sheet.equipped, sheet.stored, sheet.broken):
        if key in where:
            where.remove(key)
            break
    cards = t.j.items.get(key, [])
    card = cards.pop() if cards else ""
    if not cards:
        t.j.items.pop(key, None)
    if card:
        t.under(card)
    else:
        t.j.banished.append(f"item:{key}")
    t.emit("item_lost", item=key)


def legal_equipment(t: Trip, equipped: list[str], stored: list[str]) -> bool:
    sheet = t.s.sheet
    return _legal(sheet.character, tuple(sheet.upgrades), tuple(equipped), tuple(stored), len(sheet.broken), sheet.bag)


@cache
def _legal(character: str, upgrades: tuple[str, ...], equipped: tuple[str, ...], stored: tuple[str, ...],
           broken: int, bag: int) -> bool:
    sheet = Sheet(character, list(upgrades), [], [], [], [], broken=["?"] * broken, bag=bag)
    try:
        check_equipment(sheet, list(equipped), list(stored))
    except EquipError:
        return False
    return True


def equip_options(t: Trip, moved: str = "") -> list[Choice]:
    """Re-equip choices (W-IT-08): wear a stored whole item, or put an equipped one into storage; an item already
    moved in this re-equip (`moved`, comma separated) stays where it went."""
    sheet = t.s.sheet
    done = set(moved.split(","))
    out = []
    for key in sorted(set(sheet.stored) - done):
        stored = list(sheet.stored)
        stored.remove(key)
        if legal_equipment(t, [*sheet.equipped, key], stored):
            out.append(Choice(f"Equip {ITEMS[key].name}", (Op("equip", card=key),)))
    for key in sorted(set(sheet.equipped) - done):
        equipped = list(sheet.equipped)
        equipped.remove(key)
        if legal_equipment(t, equipped, [*sheet.stored, key]):
            out.append(Choice(f"Put {ITEMS[key].name} into storage", (Op("unequip", card=key),)))
    return out


@handler("equip")
def _equip(t: Trip, op: Op) -> None:
    sheet = t.s.sheet
    sheet.stored.remove(op.card)
    sheet.equipped.append(op.card)
    t.emit("equip", item=op.card)


@handler("unequip")
def _unequip(t: Trip, op: Op) -> None:
    sheet = t.s.sheet
    sheet.equipped.remove(op.card)
    sheet.stored.append(op.card)
    t.emit("unequip", item=op.card)


@handler("equip_menu")
def _equip_menu(t: Trip, op: Op) -> None:
    """Re-equip whenever an item is received (W-IT-08): one change at a time until Martha is done."""
    options = equip_options(t, op.text)
    if options:
        t.ask("Re-equip?", [Choice("Done", ()), *(Choice(c.label, (*c.then, Op("equip_menu", text=_moved(op, c))))
                                                 for c in options)])


def _moved(op: Op, choice: Choice) -> str:
    """The items moved so far in this re-equip, with the one `choice` moves."""
    return ",".join(filter(None, [op.text, choice.then[0].card]))


def receive_item(t: Trip, key: str, card: str, broken: bool = False) -> None:
    """A new item: whole ones go to storage (then Martha may equip them), broken ones above it (W-IT-05). With no
    room she discards this item or another one (W-TX-08, SC-W20). The book sets no limit on copies: a second
    copy of an item she holds is kept like any other item (W-TX-08)."""
    sheet = t.s.sheet
    (sheet.broken if broken else sheet.stored).append(key)
    t.j.items.setdefault(key, []).append(card)
    t.emit("item", item=key, broken=broken)
    t.push(Op("equip_menu"), Op("bag_full"))


@handler("bag_full")
def _bag_full(t: Trip, op: Op) -> None:
    sheet = t.s.sheet
    if item_count(t) <= capacity(t)[1]:
        return
    options = [Choice(f"Discard {ITEMS[k].name}" + (" (broken)" if k in sheet.broken else ""),
                      (Op("drop_item", card=k), Op("bag_full")))
               for k in sorted(set(sheet.stored) | set(sheet.broken))]
    t.ask("The storage is full: discard an item", options)


@handler("drop_item")
def _drop_item(t: Trip, op: Op) -> None:
    drop_item(t, op.card)
