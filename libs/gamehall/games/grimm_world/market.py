"""Landscape Encounters and trading: inn, farm, blacksmith (repair, buy, sell), notice board, training, tree
felling, mining, hunting, fishing, and the merchant's goods market at region prices (W-LA-*, W-TD-*)."""

from __future__ import annotations

from gamehall.games.grimm_world.atlas import LANDSCAPES, PAGES, PRICES, REGIONS, TRADED, entry_ops
from gamehall.games.grimm_world.catalog import ENCOUNTERS, ITEMS
from gamehall.games.grimm_world.content.schema import Choice, Op
from gamehall.games.grimm_world.effects import heal
from gamehall.games.grimm_world.holdings import (
    capacity,
    count,
    drop_item,
    gain_thalers,
    give_up_good,
    has_ranged,
    has_tool,
    receive_good,
    receive_item,
)
from gamehall.games.grimm_world.trip import Trip, handler

MEAL, MEAD = 2, 1
"""The Inn's meal costs 2 thalers (W-LA-02); the mead's price is not given (AMB-18): 1 thaler is ours."""
NOTICE_LIMIT = 2
FELLING = ("constitution", 9, 3, "wood", "axe")
MINING = ("constitution", 10, 2, "ore", "pickaxe")
ATTEMPTS = 6


def place_type(t: Trip) -> str:
    """village / town / castle of the current Encounter card's landscape, for the blacksmith (AMB-9)."""
    card = t.j.held[-1] if t.j.held else ""
    return LANDSCAPES[ENCOUNTERS[card].landscape].place if card else ""


def notice_quests(t: Trip) -> list[str]:
    return [q for q in t.j.quests if PAGES[q].level > 0]


def available(t: Trip, option: str) -> bool:
    """Whether a Landscape option can be chosen now (its needs: tools, weapons, quests, rumors)."""
    if option == "notice":
        return len(notice_quests(t)) < NOTICE_LIMIT and bool(t.j.quest_deck)
    if option == "felling":
        return has_tool(t, "axe")
    if option == "mining":
        return has_tool(t, "pickaxe")
    if option == "hunting":
        return has_ranged(t)
    if option == "training":
        return bool(t.j.training)
    return option in ("inn", "farm", "blacksmith", "fishing")


LABELS = {"inn": "Inn", "farm": "Farm", "blacksmith": "Blacksmith", "notice": "Notice Board", "training": "Training",
          "felling": "Fell trees", "mining": "Mine ore", "hunting": "Hunt", "fishing": "Fish"}


def landscape_menu(t: Trip, options: tuple[str, ...]) -> None:
    """At most one Landscape Encounter, optional (W-LA-01)."""
    choices = [Choice("No landscape encounter", ())]
    choices += [Choice(LABELS[o], (Op(o),)) for o in options if available(t, o)]
    if len(choices) > 1:
        t.ask("Landscape Encounter", choices)


# ----------------------------------------------------------------- inn and farm


@handler("inn")
def _inn(t: Trip, op: Op) -> None:
    """Meal (2 thalers, heal fully) and/or mead (a Rumor card from the Bar), in any order (W-LA-02)."""
    sheet = t.s.sheet
    choices = [Choice("Leave the inn", ())]
    if "meal" not in op.text and sheet.thalers >= MEAL:
        choices.append(Choice(f"Meal ({MEAL} thalers, heal fully)", (Op("meal"), Op("inn", text=op.text + "meal"))))
    rumors = sorted(c for c in t.j.bar if PAGES[c].kind == "rumor")
    if "mead" not in op.text and rumors and sheet.thalers >= MEAD:
        mead = (Op("thalers", n=-MEAD), Op("resolve", card=rumors[0]), Op("inn", text=op.text + "mead"))
        choices.append(Choice(f"Mead ({MEAD} thaler, hear a rumor)", mead))
    if len(choices) > 1:
        t.ask("Inn", choices)


@handler("meal")
def _meal(t: Trip, op: Op) -> None:
    gain_thalers(t, -MEAL)
    heal(t, None)


@handler("farm")
def _farm(t: Trip, op: Op) -> None:
    """The top 6 cards go to the bottom in order, then 3 thalers or 1 provision (W-LA-03, AMB-3 for specials)."""
    for _ in range(6):
        t.cycle()
    t.ask("Farm work pays", [Choice("3 thalers", (Op("thalers", n=3),)),
                             Choice("1 provision", (Op("goods", good="provision", n=1),))])


# ----------------------------------------------------------------- blacksmith


def repairable(t: Trip) -> list[str]:
    sheet = t.s.sheet
    return [k for k in sorted(set(sheet.broken)) if all(count(t, g) >= n for g, n in ITEMS[k].repair.items())]


@handler("blacksmith")
def _blacksmith(t: Trip, op: Op) -> None:
    """Repair, buy (a display of 3 matching cards) and sell, until Martha leaves (W-LA-04..06)."""
    again = Op("blacksmith", text="shown" if t.j.display or op.text == "shown" else "")
    choices = [Choice("Leave the blacksmith", (Op("close_display"),))]
    for key in repairable(t):
        cost = ", ".join(f"{n} {g}" for g, n in sorted(ITEMS[key].repair.items()))
        choices.append(Choice(f"Repair {ITEMS[key].name} ({cost})", (Op("repair", card=key), again)))
    if op.text != "shown":
        choices.append(Choice("Look at the wares", (Op("display"), Op("blacksmith", text="shown"))))
    for card in t.j.display:
        item = ITEMS[ENCOUNTERS[card].item]
        if for_sale(t, card) and t.s.sheet.thalers >= item.price:
            choices.append(Choice(f"Buy {item.name} ({item.price} thalers)", (Op("buy_item", card=card), again)))
    choices += sell_choices(t, again)
    t.ask("Blacksmith", choices)


def sell_choices(t: Trip, again: Op) -> list[Choice]:
    """Any item, equipped or stored, whole (black price) or broken (red price) (W-LA-06, W-TD-04)."""
    sheet = t.s.sheet
    out = []
    for key in sorted(set(sheet.equipped) | set(sheet.stored)):
        out.append(Choice(f"Sell {ITEMS[key].name} ({ITEMS[key].sell} thalers)", (Op("sell_item", card=key), again)))
    for key in sorted(set(sheet.broken)):
        out.append(Choice(f"Sell broken {ITEMS[key].name} ({ITEMS[key].sell_broken} thalers)",
                          (Op("sell_item", card=key, k=1), again)))
    return out


@handler("repair")
def _repair(t: Trip, op: Op) -> None:
    """The repair goods go under the deck; the item is whole in storage and may be equipped (W-LA-04)."""
    sheet = t.s.sheet
    for good, n in sorted(ITEMS[op.card].repair.items()):
        for _ in range(n):
            give_up_good(t, good)
    sheet.broken.remove(op.card)
    sheet.stored.append(op.card)
    t.emit("repair", item=op.card)
    t.push(Op("equip_menu"))


def for_sale(t: Trip, card: str) -> bool:
    """A displayed card can be bought unless it shows the cross or, at this place type, the event symbol."""
    definition = ENCOUNTERS[card]
    return "x" not in definition.places and place_type(t)[:1] not in definition.event_at


@handler("display")
def _display(t: Trip, op: Op) -> None:
    """Draw until 3 face-up cards show an item sold in this place type; the others go under the deck (W-LA-05).
    A card showing the event symbol for this place type counts as one of the 3, and its event is followed at once
    ("Immediately follow the corresponding instructions", step 3), after which the drawing goes on; its item
    cannot be bought (the symbol stands where the mark would)."""
    mark = place_type(t)[:1]
    for _ in range(len(t.s.decks.encounter) + 2):
        if len(t.j.display) >= 3 or not mark:
            break
        card = t.top()
        definition = ENCOUNTERS[card]
        if definition.item and not definition.broken and mark in definition.event_at and definition.event:
            t.j.display.append(t.take())
            t.emit("smith_event", card=card, entry=definition.event)
            t.push(*entry_ops(definition.event), Op("display"))
            return
        if definition.item and not definition.broken and mark in definition.places:
            t.j.display.append(t.take())
        else:
            t.cycle()
    t.emit("display", cards=list(t.j.display))


@handler("close_display")
def _close_display(t: Trip, op: Op) -> None:
    close_display(t)


def close_display(t: Trip) -> None:
    """When trading is over the display cards go under the deck (W-LA-06)."""
    for card in t.j.display:
        t.under(card)
    t.j.display = []


@handler("buy_item")
def _buy_item(t: Trip, op: Op) -> None:
    key = ENCOUNTERS[op.card].item
    t.j.display.remove(op.card)
    gain_thalers(t, -ITEMS[key].price)
    receive_item(t, key, op.card)


@handler("sell_item")
def _sell_item(t: Trip, op: Op) -> None:
    """Sold: an Encounter-card item goes under the deck, a Lost Pages one is banished (W-LA-06, SC-W58)."""
    item = ITEMS[op.card]
    gain_thalers(t, item.sell_broken if op.k else item.sell)
    drop_item(t, op.card)


# ----------------------------------------------------------------- notice board and training


@handler("notice")
def _notice(t: Trip, op: Op) -> None:
    """Draw the top 2 Quest cards and accept at most 1; the rest go back on top in order (W-LA-07)."""
    drawn = t.j.quest_deck[:2]
    choices = [Choice("Decline both" if len(drawn) > 1 else "Decline", ())]
    choices += [Choice(f"Accept {PAGES[q].name}", (Op("accept", card=q),)) for q in drawn]
    t.ask("Notice Board", choices)


@handler("accept")
def _accept(t: Trip, op: Op) -> None:
    t.j.quest_deck.remove(op.card)
    t.j.quests.append(op.card)
    t.emit("quest", card=op.card)


@handler("training")
def _training(t: Trip, op: Op) -> None:
    """Resolve any number of training cards, paying each fee (W-LA-08); a trained card is used up."""
    choices = [Choice("Leave the training hall", ())]
    for card in t.j.training:
        fee = PAGES[card].fee
        if t.s.sheet.thalers >= fee:
            choices.append(Choice(f"{PAGES[card].name} ({fee} thalers)",
                                  (Op("train", card=card), Op("training"))))
    if len(choices) > 1:
        t.ask("Training", choices)


@handler("train")
def _train(t: Trip, op: Op) -> None:
    t.j.training.remove(op.card)
    gain_thalers(t, -PAGES[op.card].fee)
    t.push(Op("resolve", card=op.card))


# ----------------------------------------------------------------- felling, mining, hunting, fishing


@handler("felling")
def _felling(t: Trip, op: Op) -> None:
    _gather(t, op, FELLING)


@handler("mining")
def _mining(t: Trip, op: Op) -> None:
    _gather(t, op, MINING)


def _gather(t: Trip, op: Op, spec: tuple[str, int, int, str, str]) -> None:
    """Up to 6 checks; each success one good, up to the cap; Martha may stop between checks (W-LA-09/10).
    op.n counts checks made, op.k successes."""
    stat, target, cap, good, _tool = spec
    if op.n >= ATTEMPTS or op.k >= cap:
        return
    after = Op(op.op, n=op.n + 1, k=op.k + 1)
    failed = Op(op.op, n=op.n + 1, k=op.k)
    check = Op("check", stat=stat, target=target, then=(Op("goods", good=good, n=1), after), orelse=(failed,))
    t.ask(f"{LABELS[op.op]}: {op.k} {good} so far, {ATTEMPTS - op.n} checks left",
          [Choice(f"Make a {stat} check ({target}+)", (check,)), Choice("Stop", ())])


@handler("hunting")
def _hunting(t: Trip, op: Op) -> None:
    """With a ranged weapon: an Attack check 7+ brings down a hare: 1 provision (W-LA-11; the yield is ours)."""
    t.push(Op("check", stat="attack", target=7, then=(Op("goods", good="provision", n=1),)))


@handler("fishing")
def _fishing(t: Trip, op: Op) -> None:
    """A Dexterity check, 7+ bare-handed or 5+ with a spear; one fish = 1 provision (W-LA-11, AMB-18)."""
    target = 5 if has_tool(t, "spear") else 7
    t.push(Op("check", stat="dexterity", target=target, then=(Op("goods", good="provision", n=1),)))


# ----------------------------------------------------------------- the merchant's market


def region_of(t: Trip) -> str:
    return str(t.j.location // 10)


def price(t: Trip, good: str) -> tuple[int, int]:
    """Buy and sell price of a good: the price card's symbol lined up with the region's goods (W-TD-02)."""
    region = region_of(t)
    card = t.j.prices[region]
    symbols = REGIONS[t.j.regions[region]].goods
    symbol = ENCOUNTERS[card].prices[symbols.index(good)]
    return PRICES[symbol].buy, PRICES[symbol].sell


@handler("market")
def _market(t: Trip, op: Op) -> None:
    """Buy and sell wood, ore and essence, and sell items, until Martha is done (W-TD-01..04)."""
    region = region_of(t)
    if region not in t.j.prices:
        t.j.prices[region] = t.take()
        t.emit("price_card", region=region, card=t.j.prices[region])
    again = Op("market")
    choices = [Choice("Done trading", ())]
    room = len(t.j.goods) < capacity(t)[0]
    for good in TRADED:
        buy, sell = price(t, good)
        if room and t.s.sheet.thalers >= buy:
            choices.append(Choice(f"Buy 1 {good} ({buy} thalers)", (Op("buy_good", good=good, n=buy), again)))
        if count(t, good):
            choices.append(Choice(f"Sell 1 {good} ({sell} thalers)", (Op("sell_good", good=good, n=sell), again)))
    choices += sell_choices(t, again)
    t.ask("Market", choices)


@handler("buy_good")
def _buy_good(t: Trip, op: Op) -> None:
    if receive_good(t, op.good):
        gain_thalers(t, -op.n)


@handler("sell_good")
def _sell_good(t: Trip, op: Op) -> None:
    if give_up_good(t, op.good):
        gain_thalers(t, op.n)
