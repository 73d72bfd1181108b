"""Campaign scenarios SC-W17..SC-W28 (inn, farm, blacksmith, storage, weight, felling and mining, fishing, rest,
region banishing, future chapters, receiving / removing / losing) from /work/shared/rules/grimm-world.md §3."""

from __future__ import annotations

import msgspec
import pytest

from gamehall.games.grimm_world.atlas import PAGES, REGIONS
from gamehall.games.grimm_world.catalog import ACTION_CARDS, ENCOUNTERS, ITEMS
from gamehall.games.grimm_world.content.schema import ItemDef, LostPageDef, Op
from gamehall.games.grimm_world.market import available
from gamehall.games.grimm_world.sheet import weapons
from gamehall.games.grimm_world.trip import Trip

from .journeys import b_cards, card_with, do, journey, kinds, labels, pick, picks, roll, stacked


def test_SC_W17_inn() -> None:
    s = journey(11, hand=("A01",), thalers=5)
    s.sheet.damaged = ["A02", "A03", "A04"]
    do(s, Op("inn"))
    assert not any(text.startswith("Mead") for text in labels(s))  # no Rumor card in the Bar
    s, _ = pick(s, "Meal")
    assert s.sheet.thalers == 3 and not s.sheet.damaged and len(s.sheet.hand) == 4
    s = journey(11, thalers=5, bar=("Y114",))
    do(s, Op("inn"))
    s, events = pick(s, "Mead")
    assert [e["card"] for e in kinds(events, "resolve")] == ["Y114"] and s.sheet.thalers == 4


def test_SC_W18_farm() -> None:
    deck = stacked()
    s = journey(11, deck=deck, thalers=0)
    do(s, Op("farm"))
    assert s.decks.encounter == deck[6:] + deck[:6]
    s, _ = pick(s, "3 thalers")
    assert s.sheet.thalers == 3
    s = journey(11, deck=deck)
    do(s, Op("farm"))
    s, _ = pick(s, "1 provision")
    assert [(g.card, g.kind) for g in s.journey.goods] == [(deck[6], "provision")]


def test_SC_W19_blacksmith_repair_fig51() -> None:
    goods = [(b_cards()[0], "wood"), (b_cards()[1], "wood"), (b_cards()[2], "ore")]
    s = journey(11, broken=("spear",), goods=goods)
    do(s, Op("blacksmith"))
    s, _ = pick(s, "Repair Spear")
    assert sorted(s.decks.encounter[-3:]) == b_cards()[:3] and not s.journey.goods
    assert s.sheet.stored == ["spear"] and not s.sheet.broken
    assert "Equip Spear" in labels(s)  # she may equip it at once
    s = journey(11, broken=("spear",), goods=goods[:2])
    do(s, Op("blacksmith"))
    assert not any(text.startswith("Repair") for text in labels(s))


def test_SC_W20_storage_capacity_fig16() -> None:
    goods = [(b_cards()[0], "provision"), (b_cards()[1], "wood"), (b_cards()[2], "wood"), (b_cards()[3], "ore")]
    s = journey(11, stored=("bow",), broken=("shield",), goods=goods, thalers=24)
    do(s, Op("storage", card="Y015"))
    assert PAGES["Y015"].capacity == (5, 2, 24)
    top = s.decks.encounter[:2]
    do(s, Op("goods", good="wood", n=2))
    assert len(s.journey.goods) == 5 and s.journey.goods[-1].card == top[0] and s.decks.encounter[0] == top[1]
    do(s, Op("thalers", n=5))
    assert s.sheet.thalers == 24
    do(s, Op("item", card="dagger"))
    s, _ = pick(s, "Done")
    assert labels(s) == ["Discard Bow", "Discard Dagger", "Discard Shield (broken)"]
    s, _ = pick(s, "Discard Dagger")
    assert s.sheet.stored == ["bow"] and s.sheet.broken == ["shield"] and not s.journey.menu


def test_SC_W22_weight_versus_free_slot_fig68() -> None:
    s = journey(11, equipped=("leather_armour", "pickaxe"), stored=("shield", "bow"))
    t = Trip(s)
    assert t.stats["constitution"] == 4 and ITEMS["leather_armour"].weight + ITEMS["pickaxe"].weight == 4
    do(s, Op("rest"))
    assert not s.journey.menu  # nothing to choose: no shield (weight 6 > 4), no stowing (the bag is full)
    assert len(s.sheet.hand) == 4


def _felling(fates: tuple[int, ...]) -> tuple[object, list[object]]:
    s = journey(21, stored=("axe",), deck=stacked(fates=fates))
    events = do(s, Op("felling"))
    while s.journey.menu:
        s, more = pick(s, "Make a constitution check")
        events += more
        if s.journey.menu and labels(s)[0].startswith("Draw"):
            s, more = pick(s, "Draw the Fate card")
            events += more
    return s, events


def test_SC_W23_tree_felling_and_mining() -> None:
    s, events = _felling((6, 1, 2, 5, 1, 5, 1))  # each wood is the next top card
    checks = kinds(events, "check")
    assert [c["result"] for c in checks] == [10, 6, 9, 9] and [g.kind for g in s.journey.goods] == ["wood"] * 3
    s, events = _felling((1, 1, 2, 2, 3, 3))
    assert len(kinds(events, "check")) == 6 and not s.journey.goods
    s = journey(21)
    assert not available(Trip(s), "felling")
    s = journey(17, stored=("pickaxe",), deck=stacked(fates=(6, 1, 6, 1, 6)))
    do(s, Op("mining"))
    s, _ = picks(s, "Make", "roll", "Make", "roll")
    assert [g.kind for g in s.journey.goods] == ["ore", "ore"] and not s.journey.menu  # capped at 2
    s = journey(21, hand=("A09", "A01", "A02", "A03"), stored=("axe",), deck=stacked(fates=(4,)))
    do(s, Op("felling"))
    s, events = picks(s, "Make", "Play Brace", "roll")
    assert kinds(events, "check")[0]["result"] == 4 + 1 + 4 and s.sheet.damaged == ["A09"]


def test_SC_W24_fishing() -> None:
    s = journey(36, deck=stacked(fates=(4,)))
    do(s, Op("fishing"))
    s, _ = roll(s)
    assert not s.journey.goods  # 2 + 4 = 6 < 7 bare-handed
    s = journey(36, deck=stacked(fates=(5,)))
    do(s, Op("fishing"))
    s, _ = roll(s)
    assert [g.kind for g in s.journey.goods] == ["provision"]  # 7, exactly one fish
    s = journey(36, stored=("spear",), deck=stacked(fates=(3,)))
    do(s, Op("fishing"))
    s, _ = roll(s)
    assert [g.kind for g in s.journey.goods] == ["provision"]  # 5 with a spear


def test_SC_W25_rest() -> None:
    cards = ["A01", "A02", "A03", "A04", "A05", "A06", "A07"]
    provisions = [(b_cards()[0], "provision"), (b_cards()[1], "provision")]
    s = journey(11, hand=(), upgrades=("Y201", "Y202"), goods=provisions)
    s.sheet.damaged = list(cards)
    assert Trip(s).stats["regeneration"] == 5
    do(s, Op("rest"))
    chosen = ("A07", "A05", "A03", "A06", "A01")
    s, _ = picks(s, "Eat a provision", *(f"Take back {ACTION_CARDS[c].name} ({c})" for c in chosen))
    assert len(s.sheet.hand) == 5 and len(s.sheet.damaged) == 2
    s, _ = pick(s, "Eat a provision")  # 5 healing for the last 2 cards: no choice left
    assert len(s.sheet.hand) == 7 and not s.sheet.damaged and not s.journey.goods
    assert s.decks.encounter[-2:] == [b_cards()[0], b_cards()[1]]


def test_W_RP_01_item_10_rest_heals_the_cards_the_player_chooses() -> None:
    """Item 10, W-RP-01: "For each damage healed, take one discarded Action Card ... back to your hand. You may
    freely choose the Action Cards" (7.1.3): the newest cards can come back before the oldest."""
    s = journey(11, hand=("A01",), goods=[(b_cards()[0], "provision")])
    s.sheet.damaged = ["A02", "A03", "A04", "A05", "A06"]
    assert Trip(s).stats["regeneration"] == 3
    do(s, Op("rest"))
    s, _ = pick(s, "Eat a provision")
    assert labels(s) == [f"Take back {ACTION_CARDS[c].name} ({c})" for c in ("A02", "A03", "A04", "A05", "A06")]
    s, _ = picks(s, *(f"Take back {ACTION_CARDS[c].name} ({c})" for c in ("A06", "A04", "A02")))
    assert sorted(s.sheet.hand) == ["A01", "A02", "A04", "A06"] and s.sheet.damaged == ["A03", "A05"]
    assert not s.journey.menu and not s.journey.goods  # no provision left: the Rest has nothing more to offer


def test_SC_W26_banishing_a_region_card_range() -> None:
    s = journey(21)
    s.journey.bar = []
    do(s, Op("banish_region", card="2", text="x3x"))
    assert {"211", "231"} <= set(s.journey.banished) and "241" not in s.journey.banished
    assert s.journey.regions["2"] == "241" and set(REGIONS["241"].y_cards) <= set(s.journey.bar)


def _page(monkeypatch: pytest.MonkeyPatch, key: str, **fields: object) -> str:
    data: dict[str, object] = {"key": key, "number": key, "name": f"Test {key}", "kind": "location", "text": "",
                               "ops": [{"op": "thalers", "n": 1}], "location": 11,
                               "provenance": {"source": "designed", "ref": "test fixture"}}
    data.update(fields)
    monkeypatch.setitem(PAGES, key, msgspec.convert(data, LostPageDef))
    return key


def test_SC_W27_placing_cards_into_future_chapters(monkeypatch: pytest.MonkeyPatch) -> None:
    card = _page(monkeypatch, "Y901")
    s = journey(11, chapter=3, bar=(card,))
    s.journey.resolving = [card]
    do(s, Op("future", n=3), Op("future", card="Y520", n=4))
    assert s.journey.story["6"][-1] == card and s.journey.story["7"][-1:] == ["Y520"] and card not in s.journey.bar
    booked = _page(monkeypatch, "Y902", book=3)
    s = journey(11, chapter=3)
    do(s, Op("place", card=booked))
    assert booked in s.journey.banished and booked not in s.journey.bar
    arrow = _page(monkeypatch, "Y903", book=3, arrow=True)
    s = journey(11, chapter=3, thalers=0)
    events = do(s, Op("place", card=arrow))
    assert [e["card"] for e in kinds(events, "resolve")] == [arrow] and s.sheet.thalers == 1
    assert arrow in s.journey.banished


def test_SC_W28_receiving_items_remove_and_lose(monkeypatch: pytest.MonkeyPatch) -> None:
    relic = {"key": "test_relic", "name": "Relic", "rarity": "unique", "slot": "accessory", "weight": 0,
             "provenance": {"source": "designed", "ref": "test"}}
    monkeypatch.setitem(ITEMS, "test_relic", msgspec.convert(relic, ItemDef))
    base = ENCOUNTERS["B01"]
    for key, item in (("T91", "chain_armour"), ("T92", "test_relic"), ("T93", "club")):
        monkeypatch.setitem(ENCOUNTERS, key, msgspec.structs.replace(base, key=key, item=item, broken=False))
    s = journey(11, deck=["T91", "T92", "T93", *stacked()])
    do(s, Op("item", text="common"))
    assert s.sheet.stored == ["club"] and s.journey.items["club"] == ["T93"]
    assert s.decks.encounter[-2:] == ["T91", "T92"]
    s = journey(11, thalers=2)
    do(s, Op("pay", n=3, then=(Op("goods", good="wood", n=1),)))
    assert s.sheet.thalers == 2 and not s.journey.goods  # 'Remove' needs all of it
    do(s, Op("thalers", n=-3))
    assert s.sheet.thalers == 0  # 'Lose' takes what there is


def test_W_TX_08_item_13_a_second_copy_of_an_item_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 13, W-TX-08: the book sets no limit on copies of an item: a second dagger is received like any item
    (it used to go back under the deck), each copy keeps its own card, and two daggers in hand keep their own
    attack rates (W-AK-02)."""
    base = ENCOUNTERS["B01"]
    for key in ("T81", "T82"):
        monkeypatch.setitem(ENCOUNTERS, key, msgspec.structs.replace(base, key=key, item="dagger", broken=False))
    s = journey(13, deck=["T81", "T82", *stacked()], thalers=0)
    events = do(s, Op("item", text="common"))
    s, _ = pick(s, "Done")
    events += do(s, Op("item", text="common"))
    assert not kinds(events, "item_duplicate") and [e["item"] for e in kinds(events, "item")] == ["dagger", "dagger"]
    assert s.sheet.stored == ["dagger", "dagger"] and s.journey.items == {"dagger": ["T81", "T82"]}
    assert not {"T81", "T82"} & set(s.decks.encounter)
    s.journey.menu = []
    s.sheet.equipped, s.sheet.stored = ["dagger", "dagger"], []
    assert [(w.key, w.rate) for w in weapons(s.sheet)] == [("fists", None), ("dagger", 2 * ITEMS["dagger"].rate)]
    do(s, Op("blacksmith"))
    s, _ = pick(s, "Sell Dagger")
    assert s.sheet.equipped == ["dagger"] and s.sheet.thalers == ITEMS["dagger"].sell
    assert s.decks.encounter[-1] == "T82" and s.journey.items == {"dagger": ["T81"]}


def test_W_LA_05_item_17_the_blacksmith_event_symbol_triggers_its_event() -> None:
    """Item 17, W-LA-05 step 3: "if a [event] symbol is shown, an event occurs. Immediately follow the corresponding
    instructions on the Encounter Card." B13 shows the event symbol at towns (designed): drawn for a town's
    display it counts as one of the 3 cards, its event (sparks, Dexterity 6+ or 1 damage) happens before the next
    card is drawn, and its item cannot be bought there."""
    assert ENCOUNTERS["B13"].event_at == "t" and ENCOUNTERS["B13"].event == "forge_sparks"
    town = card_with("B")
    wares = [k for k in b_cards() if ENCOUNTERS[k].item and not ENCOUNTERS[k].broken and "t" in ENCOUNTERS[k].places]
    deck = stacked(top=["B13", *wares[:3]])
    deck.remove(town)
    s = journey(13, deck=deck, thalers=50)
    s.journey.held = [town]  # the Encounter card of the round: a Village/Town card
    events = do(s, Op("blacksmith"))
    s, more = picks(s, "Look at the wares", "roll")
    events += more
    assert kinds(events, "smith_event") == [{"card": "B13", "entry": "forge_sparks"}]
    assert [e["stat"] for e in kinds(events, "check")] == ["dexterity"]  # the event, before the display goes on
    assert s.journey.display == ["B13", *wares[1:3]]  # wares[0] was the check's Fate card
    bought = [text for text in labels(s) if text.startswith("Buy")]
    assert len(bought) == 2 and not any(ITEMS[ENCOUNTERS["B13"].item].name in text for text in bought)
