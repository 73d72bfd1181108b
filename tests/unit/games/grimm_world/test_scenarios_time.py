"""Campaign scenarios SC-W53..SC-W59 (Time Passes and Next Chapter, losing and spending chapters, checks that cost
the last card, selling, trading at Triha) from /work/shared/rules/grimm-world.md §3."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from gamehall.games.grimm_world.atlas import PAGES, PRICES
from gamehall.games.grimm_world.catalog import ENCOUNTERS, ITEMS, NEXT_CHAPTER, TIME_PASSES
from gamehall.games.grimm_world.content.schema import LostPageDef, Op
from gamehall.games.grimm_world.decks import draw_fate
from gamehall.games.grimm_world.rounds import ROUND
from gamehall.games.grimm_world.state import State

from .journeys import b_cards, do, journey, kinds, labels, pick, picks, stacked


def _page(monkeypatch: pytest.MonkeyPatch, key: str, **fields: object) -> str:
    data: dict[str, object] = {"key": key, "number": key, "name": f"Test {key}", "kind": "location", "text": "",
                               "ops": [{"op": "thalers", "n": 1}], "location": 19,
                               "provenance": {"source": "designed", "ref": "test fixture"}}
    data.update(fields)
    monkeypatch.setitem(PAGES, key, msgspec.convert(data, LostPageDef))
    return key


def test_SC_W53_time_passes_then_next_chapter(monkeypatch: pytest.MonkeyPatch) -> None:
    marked = _page(monkeypatch, "Y904", hourglass=True, resolve_on_expiry=True)
    expiring = _page(monkeypatch, "Y905", book=2, resolve_on_expiry=True)
    s = journey(11, bar=("Y118", expiring, marked), thalers=0)
    s.journey.prices = {"1": "X01", "2": "X02"}
    assert s.decks.encounter[-1] == TIME_PASSES and len(s.decks.encounter) == 31
    for _ in range(30):
        draw_fate(s.decks)
    assert s.decks.surfaced == [TIME_PASSES] and TIME_PASSES not in s.decks.encounter  # taken out at once
    do(s, Op("time"))
    assert s.decks.encounter[-1] != NEXT_CHAPTER  # a subphase end does not process Time Passes
    events = do(s, Op("time", n=1))  # the Encounter Phase is over
    assert kinds(events, "reshuffle") and s.decks.encounter[-1] == NEXT_CHAPTER and s.chapter == 1
    for _ in range(30):
        draw_fate(s.decks)
    assert s.decks.surfaced == [NEXT_CHAPTER]
    events = do(s, Op("time"))
    assert [e["card"] for e in kinds(events, "resolve")] == [marked, expiring]  # ascending number
    assert {"Y118", expiring, marked} <= set(s.journey.banished) and s.sheet.thalers == 2
    assert s.chapter == 2 and "Y131" in s.journey.bar  # the sub-chapter card of chapter 2
    assert {"X01", "X02"} <= set(s.decks.encounter) and not s.journey.prices
    assert s.decks.encounter[-1] == TIME_PASSES and NEXT_CHAPTER in s.decks.aside
    kinds_seen = [e.kind for e in events]
    assert kinds_seen.index("chapter") < kinds_seen.index("reshuffle")


def test_SC_W54_losing_a_chapter_during_exploration(monkeypatch: pytest.MonkeyPatch) -> None:
    hurt = _page(monkeypatch, "Y906", ops=[{"op": "damage", "n": 2}], location=11)
    s = journey(11, hand=("A01",), bar=(hurt, "Y118"))
    s.journey.prices = {"1": "X01"}
    s.sheet.damaged = ["A02", "A03"]
    deck = list(s.decks.encounter)
    events = do(s, Op("location"), Op("landscape"), Op("quests"), Op("trading"), Op("rest"), Op("end_round"))
    assert kinds(events, "damage")[0]["points"] == 1 and kinds(events, "chapter_lost")
    assert s.journey.round == 1 and not kinds(events, "reshuffle")  # Rest and end of round skipped, no reshuffle
    assert sorted(s.sheet.hand) == ["A01", "A02", "A03"] and not s.sheet.damaged
    assert s.journey.story["E"] == ["Y666"] and "Y118" in s.journey.banished
    assert s.chapter == 2 and "Y131" in s.journey.bar and not s.journey.prices
    assert s.decks.encounter == [*deck, "X01"]
    assert labels(s)[0].startswith("Stay")  # the next round begins with Travel


def test_SC_W55_losing_a_combat_that_costs_two_chapters() -> None:
    s = journey(11, bar=("Y118",))
    do(s, Op("fight", card="Y702", n=2, k=2))
    assert s.fight is not None and not s.fight.result
    s.fight.result = "defeat"
    s.sheet.damaged += s.sheet.hand + s.fight.discard
    s.sheet.hand, s.fight.discard = [], []
    events = do(s)
    assert len(s.sheet.hand) == 2 and s.fight is None
    assert s.journey.story["E"] == ["Y666", "Y666"] and s.chapter == 3
    assert {"Y118", "Y131"} <= set(s.journey.banished)  # the Bar expired at each of the two changes
    assert not kinds(events, "reshuffle")


def _lose(s: State) -> list[Any]:
    """Every card of the fight in progress goes under the Damage Card (W-CD-02), then the campaign resumes."""
    assert s.fight is not None and not s.fight.result
    s.fight.result = "defeat"
    s.sheet.damaged += s.sheet.hand + s.fight.discard
    s.sheet.hand, s.fight.discard = [], []
    return do(s)


def test_W_TM_05_item_11_a_lost_fight_heals_loses_chapters_then_the_round_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 11, W-TM-05 / 9.2.3-9.2.4: heal, lose the chapters, "then continue playing": the rest of the round
    (the next Location card, Landscape, Quest, Trading, Rest) still happens, and the next round is round 2.
    Only damage during exploration ends the round at once (9.2.1, SC-W54)."""
    ambush = _page(monkeypatch, "Y907", ops=[{"op": "fight", "card": "Y702", "n": 2, "k": 1}], location=13)
    after = _page(monkeypatch, "Y908", ops=[{"op": "thalers", "n": 3}], location=13)
    s = journey(13, bar=(ambush, after), thalers=0)
    do(s, *ROUND[ROUND.index(Op("location")):])  # the round from its Location subphase on
    events = _lose(s)
    assert s.fight is None and len(s.sheet.hand) == 2 and s.chapter == 2 and s.journey.story["E"] == ["Y666"]
    assert s.sheet.thalers == 3  # the next Location card of this round was resolved after the defeat
    assert labels(s) == ["No trading", "Trade"]  # the Trading subphase still comes
    s, more = pick(s, "No trading")
    events += more
    assert [e["round"] for e in kinds(events, "round")] == [2] and s.journey.round == 2
    assert labels(s)[0] == "Stay at Triha [13]"


def test_SC_W56_spending_a_chapter() -> None:
    s = journey(11, bar=("Y118",))
    deck = list(s.decks.encounter)
    events = do(s, Op("resolve", card="Y031"))
    assert s.chapter == 2 and "Y118" in s.journey.banished and "E" not in s.journey.story
    assert not kinds(events, "reshuffle") and s.decks.encounter == deck


def test_SC_W57_a_check_costs_cards() -> None:
    s = journey(11, hand=("A02",))
    do(s, Op("check", stat="knowledge", target=20, orelse=(Op("text", text="failed"),)))
    s, events = pick(s, "Play Advance and Strike")
    kinds_seen = [e.kind for e in events]
    assert kinds_seen.index("check") < kinds_seen.index("chapter_lost") and s.chapter == 2
    assert [e["text"] for e in kinds(events, "text")][:1] == ["failed"]  # the check resolved first


def test_SC_W58_selling() -> None:
    s = journey(13, broken=("spear",), stored=("dagger",), thalers=0, goods=[(b_cards()[0], "provision")])
    s.journey.items = {"spear": ["B05"], "dagger": [""]}
    do(s, Op("blacksmith"))
    s, _ = pick(s, "Sell broken Spear")
    assert s.sheet.thalers == ITEMS["spear"].sell_broken and s.decks.encounter[-1] == "B05"
    s, _ = pick(s, "Sell Dagger")
    assert s.sheet.thalers == ITEMS["spear"].sell_broken + ITEMS["dagger"].sell and "item:dagger" in s.journey.banished
    do(s, Op("market"))
    assert not any("provision" in text for text in labels(s))


def test_SC_W59_trading_at_triha_figs62_64() -> None:
    deck = stacked()
    price_card, wood_card = deck[0], deck[1]
    ore = b_cards()[-1]
    deck.remove(ore)
    s = journey(13, deck=deck, thalers=20, goods=[(ore, "ore")])
    s.journey.storage = "Y016"  # a handcart: room for 8 goods, 60 thalers
    do(s, Op("trading"))
    s, _ = pick(s, "Trade")
    assert s.journey.prices == {"1": price_card} and price_card not in s.decks.encounter
    buy_wood = PRICES[ENCOUNTERS[price_card].prices[0]].buy  # Region 1's goods: wood, ore, essence
    sell_ore = PRICES[ENCOUNTERS[price_card].prices[1]].sell
    s, _ = pick(s, "Buy 1 wood")
    assert s.sheet.thalers == 20 - buy_wood and (wood_card, "wood") in [(g.card, g.kind) for g in s.journey.goods]
    s, _ = pick(s, "Sell 1 ore")
    assert s.sheet.thalers == 20 - buy_wood + sell_ore and s.decks.encounter[-1] == ore
    assert not any("provision" in text for text in labels(s))
    s.journey.storage = "Y015"  # the linen bag: 5 goods
    s.sheet.thalers = 24
    s, _ = picks(s, "Buy 1 wood", "Buy 1 wood", "Buy 1 wood", "Buy 1 wood")
    assert len(s.journey.goods) == 5 and not any(text.startswith("Buy") for text in labels(s))  # capacity
    s, _ = pick(s, "Done trading")
    do(s, Op("chapter", text="next"))
    assert price_card in s.decks.encounter and not s.journey.prices
    s = journey(12)
    do(s, Op("trading"))
    assert not s.journey.menu  # no merchant symbol at Vast Green
