"""Campaign scenarios SC-W01..SC-W16 (alignment, checks in encounters, random and location encounters, travel,
region cards, quests, the notice board) from /work/shared/rules/grimm-world.md §3."""

from __future__ import annotations

from gamehall.games.grimm_world import alignment
from gamehall.games.grimm_world.atlas import PAGES, REGIONS, copies
from gamehall.games.grimm_world.catalog import ENCOUNTERS
from gamehall.games.grimm_world.content.schema import Op
from gamehall.games.grimm_world.market import available
from gamehall.games.grimm_world.trip import Trip

from .journeys import b_cards, card_with, do, entry, journey, kinds, labels, pick, picks, roll, stacked


def test_SC_W01_alignment_queries_fig33() -> None:
    s = journey(alignment=2)
    entry(s, "flower_girl")
    assert [g.kind for g in s.journey.goods] == ["essence"]  # +1 query passes: the flower is given
    s = journey(13, alignment=2)
    s.journey.previous = 11
    events = entry(s, "town_gate")
    assert not kinds(events, "resolve") and s.journey.location == 13  # -2 fails: the town may be entered
    for value, resolved in ((-2, True), (-3, True), (-1, False)):
        s = journey(13, alignment=value)
        s.journey.previous = 11
        events = entry(s, "town_gate")
        assert bool([e for e in kinds(events, "resolve") if e["card"] == "Y020"]) is resolved
        assert s.journey.location == (11 if resolved else 13)


def test_SC_W02_alignment_display_fig3() -> None:
    s = journey(alignment=-3)
    from gamehall.games.grimm_world import GAME

    assert GAME.view(s, 0)["sheet"]["alignment"] == -3  # the red card showing 3
    assert all(alignment.query(-3, k) for k in (-1, -2, -3))
    assert not alignment.query(-3, -4)
    assert not any(alignment.query(-3, k) for k in (1, 2, 3, 4))


def test_SC_W03_alignment_change_with_a_cap() -> None:
    s = journey(alignment=1)
    do(s, Op("align", n=-1))
    assert s.sheet.alignment == -1
    s = journey(alignment=-2)
    do(s, Op("align", n=-2, cap=-3))
    assert s.sheet.alignment == -3
    s = journey(alignment=3)
    do(s, Op("align", n=1, cap=2))
    assert s.sheet.alignment == 3
    s = journey(alignment=4)
    do(s, Op("align", n=1))
    assert s.sheet.alignment == 4


def _rockfall(with_star: bool) -> tuple[object, list[object], str]:
    deck = stacked(fates=(1,))
    fate_card = deck[0]
    s = journey(17, hand=("A03", "A01", "A02", "A04"), upgrades=("Y201", "Y202"), deck=deck)
    s.journey.previous = 12
    assert Trip(s).stats["action"] == 4 and Trip(s).stats["armor"] == 0
    events = entry(s, "rockfall")
    more: list[object] = []
    if with_star:
        s, more = pick(s, "Play Martha's Wits")
    s, more2 = roll(s)
    return s, events + more + more2, fate_card


def test_SC_W04_rockfall_check_with_the_star_card() -> None:
    s, events, fate_card = _rockfall(True)
    assert kinds(events, "check")[0]["result"] == 6
    j = s.journey
    assert j.location == 12 and j.left and j.skip_travel  # back, Landscape skipped, next Travel skipped
    assert s.sheet.damaged == ["A03"] and len(s.sheet.hand) == 3 and not kinds(events, "damage")
    assert s.decks.encounter[-1] == fate_card
    do(s, Op("travel"))
    assert not j.menu and not j.skip_travel  # the skipped Travel phase


def test_SC_W04_rockfall_without_the_star_card_loses_a_chapter() -> None:
    s, events, _ = _rockfall(False)
    assert kinds(events, "check")[0]["result"] == 5
    assert kinds(events, "damage")[0]["points"] == 4
    assert kinds(events, "chapter_lost") and s.chapter == 2  # the last card left the hand (W-TM-04)
    assert sorted(s.sheet.hand) == ["A01", "A02", "A03", "A04"] and not s.sheet.damaged
    assert s.journey.story["E"] == ["Y666"]


def test_SC_W05_fawn_hunt_fig43() -> None:
    deck = stacked(fates=(6,))
    s = journey(21, upgrades=("Y201",), equipped=("bow",), deck=deck)
    goods_cards = deck[1:3]
    entry(s, "fawn")
    s, _ = picks(s, "Yes", "roll")  # Attack 1 + 6 = 7
    assert [(g.card, g.kind) for g in s.journey.goods] == [(goods_cards[0], "provision"), (goods_cards[1], "essence")]
    s = journey(21, upgrades=("Y201",), equipped=("bow",), deck=stacked(fates=(1,)))
    entry(s, "fawn")
    s, _ = picks(s, "Yes", "roll")
    assert not s.journey.goods
    s = journey(21)
    entry(s, "fawn")
    assert labels(s) == ["No"]  # without a ranged weapon there is no hunt


def test_SC_W06_rustling_fig45() -> None:
    s = journey(21)
    entry(s, "rustling")
    s, events = pick(s, "Stand still")
    resolved = [e["card"] for e in kinds(events, "resolve")]
    assert len(resolved) == 1 and resolved[0] in copies("Y996")
    s = journey(21, deck=stacked(fates=(1,)))
    entry(s, "rustling")
    s, events = picks(s, "Hide", "roll")  # Dexterity 2 + 1 < 7
    assert next(e["card"] for e in kinds(events, "resolve")) in copies("Y996")


def test_SC_W07_alignment_gated_encounter_fig46() -> None:
    s = journey(17, alignment=1)
    events = entry(s, "quiet_pass")
    assert [e["card"] for e in kinds(events, "resolve")] == ["Y603"]
    s = journey(17, alignment=-1)
    assert not kinds(entry(s, "quiet_pass"), "resolve")


def _fig40_deck(value_fate: int) -> tuple[list[str], str, str, str, str]:
    value = next(k for k in b_cards() if ENCOUNTERS[k].fate == value_fate and ENCOUNTERS[k].landscape not in "GK")
    a, c = card_with("A"), card_with("C")
    g = next(k for k in b_cards() if ENCOUNTERS[k].landscape == "G" and ENCOUNTERS[k].ranges[1][2] == "miner")
    return stacked(top=(value, a, c, g)), value, a, c, g


def test_SC_W09_random_encounter_figs40_42() -> None:
    deck, value, a, c, g = _fig40_deck(5)
    s = journey(17, deck=deck)
    events = do(s, Op("random"))
    info = kinds(events, "random_encounter")[0]
    assert (info["value"], info["card"], info["entry"]) == (5, g, "miner")
    assert s.decks.encounter[-2:] == [a, c] and s.journey.held == [value, g]
    s.journey.menu = []  # decline the miner
    do(s, Op("release"))
    assert s.decks.encounter[-4:] == [a, c, value, g]
    deck, *_ = _fig40_deck(6)
    s = journey(17, deck=deck, chapter=13)  # chapter modifier 6
    assert kinds(do(s, Op("random")), "random_encounter")[0]["value"] == 12


def test_SC_W10_no_matching_landscape_card_swaps_a_good() -> None:
    h_cards = [k for k in b_cards() if ENCOUNTERS[k].landscape == "H"]
    s = journey(36, goods=[(h_cards[0], "wood"), *((k, "ore") for k in h_cards[1:])])
    do(s, Op("random"))
    s, events = pick(s, f"Swap your wood ({h_cards[0]}")  # she may swap (W-RE-04): here she does
    assert kinds(events, "swap_good") and s.journey.held[-1] == h_cards[0]  # the H-card is resolved
    wood = [g.card for g in s.journey.goods if g.kind == "wood"]
    assert len(wood) == 1 and ENCOUNTERS[wood[0]].landscape != "H"  # the old top card is the wood now


def test_W_RE_04_item_14_the_swap_of_a_good_is_the_players_choice() -> None:
    """Item 14, W-RE-04: when no card of the deck matches, the player "may" exchange a matching good for the top
    card: the engine asks which good (or none). Declining keeps the goods and there is no random encounter."""
    h_cards = [k for k in b_cards() if ENCOUNTERS[k].landscape == "H"]
    goods = [(h_cards[0], "wood"), *((k, "ore") for k in h_cards[1:])]
    s = journey(36, goods=goods)
    deck = list(s.decks.encounter)
    do(s, Op("random"))
    assert labels(s)[0] == "Keep your goods: no random encounter"
    assert len(labels(s)) == 1 + len(h_cards) and all(f"({k}, back H)" in " ".join(labels(s)) for k in h_cards)
    s, events = pick(s, "Keep your goods")
    assert kinds(events, "no_encounter") and not kinds(events, "swap_good") and not kinds(events, "random_encounter")
    assert [(g.card, g.kind) for g in s.journey.goods] == goods and s.journey.held == [deck[0]]  # only the Value card
    do(s, Op("release"))
    assert s.decks.encounter[-1] == deck[0] and not s.journey.held  # the Value card is back under the deck


def test_SC_W11_order_of_location_encounters_fig47() -> None:
    s = journey(13, bar=("Y113", "Y025", "Y433"))
    events = do(s, Op("location"))
    s, more = pick(s, "Pay 1 thaler")
    assert [e["card"] for e in kinds(events + more, "resolve")] == ["Y025", "Y113", "Y433"]
    s = journey(13, bar=("Y113", "Y025", "Y433", "Y110"))
    s.journey.previous = 11
    events = do(s, Op("location"), Op("landscape"))
    s, more = pick(s, "Refuse and leave")
    resolved = [e["card"] for e in kinds(events + more, "resolve")]
    assert resolved == ["Y025", "Y110"] and s.journey.location == 11 and s.journey.left  # Tronda's card instead


def test_SC_W12_card_placed_during_the_location_subphase() -> None:
    s = journey(13, bar=("Y113",))
    events = do(s, Op("location"))
    assert [e["card"] for e in kinds(events, "resolve")] == ["Y113"] and "Y120" in s.journey.bar
    events = do(s, Op("location"))  # next round, Martha stayed
    assert [e["card"] for e in kinds(events, "resolve")] == ["Y120"]


def test_SC_W13_travel_options_figs38_39() -> None:
    s = journey(12)
    s.journey.regions = {"1": "111"}
    do(s, Op("travel"))
    assert labels(s) == ["Stay at Vast Green [12]", "Go to Tronda [11]", "Go to Mountain Pass [17]",
                         "Go east to region 2 (reveal its Region Card)"]
    s, _ = pick(s, "Go east")
    assert s.journey.regions["2"] == "211" and s.journey.location == 21
    assert set(REGIONS["211"].y_cards) <= set(s.journey.bar)


def test_SC_W14_placing_a_region_card() -> None:
    from gamehall.games.grimm_world.effects import put_region

    s = journey(11)
    t = Trip(s)
    put_region(t, "111")
    assert s.journey.bar == [f"Y11{i}" for i in range(9)]


def test_SC_W15_quest_encounter_fig61() -> None:
    s = journey(36, goods=[(k, "wood") for k in stacked()[:4]])
    s.journey.quests = ["Y505"]
    events = do(s, Op("quests"))
    assert [e["card"] for e in kinds(events, "resolve")][:2] == ["Y505", "Y510"]
    s = journey(36, goods=[(k, "wood") for k in stacked()[:3]])
    s.journey.quests = ["Y505"]
    assert not kinds(do(s, Op("quests")), "resolve")


def test_SC_W16_notice_board() -> None:
    s = journey(13)
    s.journey.quests = ["Y520", "Y521"]
    assert not available(Trip(s), "notice")
    s = journey(13)
    s.journey.quests = ["Y520"]
    s.journey.quest_deck = ["Y521", "Y522", "Y523"]
    do(s, Op("notice"))
    s, _ = pick(s, f"Accept {PAGES['Y522'].name}")
    assert s.journey.quests == ["Y520", "Y522"] and s.journey.quest_deck == ["Y521", "Y523"]
    s = journey(13)
    s.journey.quest_deck = ["Y521", "Y522", "Y523"]
    do(s, Op("notice"))
    s, _ = pick(s, "Decline both")
    assert s.journey.quest_deck == ["Y521", "Y522", "Y523"] and not s.journey.quests
