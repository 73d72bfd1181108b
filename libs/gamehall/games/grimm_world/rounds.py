"""The exploration round: Travel, the five Encounter subphases (Random, Location, Landscape, Quest, Trading) and
Rest, with time checked between subphases; fights run on part 1's combat (W-EX-*, W-TR-*, W-RE-*, W-LO-*, W-QE-*,
W-RP-*)."""

from __future__ import annotations

from gamehall.games.grimm_world.atlas import CHAPTERS, LANDSCAPES, PAGES, entry_ops, location, region_cards
from gamehall.games.grimm_world.catalog import ENCOUNTERS
from gamehall.games.grimm_world.chapters import LOST, chapter_ops
from gamehall.games.grimm_world.content.schema import Choice, Op
from gamehall.games.grimm_world.effects import heal, put_region, requirement_met
from gamehall.games.grimm_world.holdings import count, equip_options, give_up_good
from gamehall.games.grimm_world.market import landscape_menu
from gamehall.games.grimm_world.trip import Trip, handler

ROUND = (
    Op("travel"), Op("time"), Op("random"), Op("time"), Op("location"), Op("time"), Op("landscape"),
    Op("release"), Op("time"), Op("quests"), Op("time"), Op("trading"), Op("time", n=1), Op("rest"),
    Op("end_round"),
)
"""One exploration round; `time` processes a surfaced 'Next Chapter' after each subphase and 'Time Passes' after
the Encounter Phase (AMB-3)."""


@handler("new_round")
def _new_round(t: Trip, op: Op) -> None:
    t.j.left = False
    t.emit("round", round=t.j.round, chapter=t.s.chapter, location=t.j.location)
    t.push(*ROUND)


@handler("end_round")
def _end_round(t: Trip, op: Op) -> None:
    t.j.round += 1
    t.push(Op("new_round"))


# ----------------------------------------------------------------- travel


def destinations(t: Trip) -> list[Choice]:
    """Stay, a location joined by a path, or an exit off the Region Card (W-TR-01/02)."""
    here = location(t.j.regions, t.j.location)
    out = [Choice(f"Stay at {here.name} [{here.number}]", (Op("go", n=here.number),))]
    for number in here.paths:
        out.append(Choice(f"Go to {location(t.j.regions, number).name} [{number}]", (Op("go", n=number),)))
    for direction, target in sorted(here.exits.items()):
        region = str(target // 10)
        placed = region in t.j.regions
        if not placed and not [k for k in region_cards(region) if k not in t.j.banished]:
            continue
        label = f"Go {direction} to region {region}" + ("" if placed else " (reveal its Region Card)")
        out.append(Choice(label, (Op("exit", n=target, text=direction),)))
    return out


@handler("travel")
def _travel(t: Trip, op: Op) -> None:
    if t.j.skip_travel:
        t.j.skip_travel = False
        t.emit("travel_skipped")
        return
    t.ask("Travel", destinations(t))


@handler("go")
def _go(t: Trip, op: Op) -> None:
    t.j.previous = t.j.location
    t.j.location = op.n
    t.emit("travel", location=op.n)


@handler("exit")
def _exit(t: Trip, op: Op) -> None:
    """Reveal the region's still-available card with the lowest Event Number, put its Y-cards into the Bar, and
    enter the connected location (W-TR-02)."""
    region = str(op.n // 10)
    if region not in t.j.regions:
        put_region(t, next(k for k in region_cards(region) if k not in t.j.banished))
    t.push(Op("go", n=op.n))


@handler("return_prev")
def _return_prev(t: Trip, op: Op) -> None:
    """'Return to your previous location': Landscape is skipped, the new location's cards resolve (W-TX-11)."""
    t.j.left = True
    if t.j.previous != t.j.location:
        t.j.location = t.j.previous
        t.emit("travel", location=t.j.location, forced=True)


@handler("move")
def _move(t: Trip, op: Op) -> None:
    """A card sends Martha to location op.n (as leaving: W-LO-03)."""
    t.j.left = True
    t.j.previous, t.j.location = t.j.location, op.n
    t.emit("travel", location=op.n, forced=True)


@handler("skip_travel")
def _skip_travel(t: Trip, op: Op) -> None:
    t.j.skip_travel = True


# ----------------------------------------------------------------- random encounter


@handler("random")
def _random(t: Trip, op: Op) -> None:
    """Value card on the Chapter Card; cycle to a card whose back matches the location; resolve the entry of the
    Encounter Value (W-RE-01..03). Both cards stay out until Landscape is done. When no card of the whole deck
    matches, Martha *may* swap a held good whose card matches for the top card (W-RE-04): she is asked which one,
    or none (then there is no random encounter this round)."""
    j, decks = t.j, t.s.decks
    ids = set(location(j.regions, j.location).ids)
    value_card = t.take()
    j.held.append(value_card)
    value = CHAPTERS[t.s.chapter].modifier + ENCOUNTERS[value_card].fate
    for _ in range(len(decks.encounter) + 2):
        if t.landscape(t.top()) in ids:
            break
        t.cycle()
    if t.landscape(t.top()) in ids:
        t.push(Op("encounter", n=value))
        return
    swaps = {g.card: g for g in j.goods if t.landscape(g.card) in ids}
    if not swaps:
        t.emit("no_encounter", value=value)
        return
    options = [Choice("Keep your goods: no random encounter", (Op("no_encounter", n=value),))]
    options += [Choice(f"Swap your {g.kind} ({card}, back {t.landscape(card)}) for the top card",
                       (Op("swap_good", card=card), Op("encounter", n=value))) for card, g in sorted(swaps.items())]
    t.ask("No card of the deck matches this place", options)


@handler("no_encounter")
def _no_encounter(t: Trip, op: Op) -> None:
    t.emit("no_encounter", value=op.n)


@handler("swap_good")
def _swap_good(t: Trip, op: Op) -> None:
    """W-RE-04: "you may exchange a good in your bag with the appropriate Landscape Identifier for the top card of
    the Encounter Deck": the top card becomes that good, and the good's card is the encounter."""
    j = t.j
    good = next(g for g in j.goods if g.card == op.card)
    j.goods.remove(good)
    top = t.take()
    j.goods.append(type(good)(top, good.kind))
    t.s.decks.encounter.insert(0, good.card)
    t.emit("swap_good", kind=good.kind)


@handler("encounter")
def _encounter(t: Trip, op: Op) -> None:
    """The top card, whose back matches the location, is turned over and the entry of Encounter Value op.n is
    resolved (W-RE-02)."""
    card = t.take()
    t.j.held.append(card)
    entry = next((e for lo, hi, e in ENCOUNTERS[card].ranges if lo <= op.n <= hi), "")
    t.emit("random_encounter", value=op.n, card=card, entry=entry)
    if entry:
        t.push(*entry_ops(entry))


# ----------------------------------------------------------------- location encounter


def matches(t: Trip, card: str, number: int) -> bool:
    definition = PAGES[card]
    here = location(t.j.regions, number)
    return (definition.location == number or (bool(definition.symbol) and definition.symbol in here.symbols)
            or (bool(definition.landscape) and definition.landscape in here.ids))


@handler("location")
def _location(t: Trip, op: Op) -> None:
    """Every Bar card matching the location's number, symbol or identifier, in ascending order; cards placed
    meanwhile wait for the next round (W-LO-01..04)."""
    here = t.j.location
    cards = sorted(c for c in t.j.bar if matches(t, c, here))
    t.push(*(Op("loc_card", card=c, n=here) for c in cards), Op("loc_end", n=here, k=op.k))


@handler("loc_card")
def _loc_card(t: Trip, op: Op) -> None:
    if t.j.location == op.n and op.card in t.j.bar:
        t.push(Op("resolve", card=op.card))


@handler("loc_end")
def _loc_end(t: Trip, op: Op) -> None:
    """Forced to leave: the new location's cards are resolved (at most 3 moves in a row)."""
    if t.j.location != op.n and op.k < 3:
        t.push(Op("location", k=op.k + 1))


# ----------------------------------------------------------------- landscape, release, quests, trading


@handler("landscape")
def _landscape(t: Trip, op: Op) -> None:
    """Only below a horizontal line, and not after leaving the location (W-LA-01, W-LO-03)."""
    if t.j.left or len(t.j.held) < 2:
        return
    card = ENCOUNTERS[t.j.held[-1]]
    if not card.line:
        return
    landscape_menu(t, card.options or LANDSCAPES[card.landscape].options)


@handler("release")
def _release(t: Trip, op: Op) -> None:
    """The Value card, then the Encounter card, go under the deck (W-RE-03, AMB-19)."""
    for card in t.j.held:
        t.under(card)
    t.j.held = []


def quest_ready(t: Trip, quest: str) -> bool:
    definition = PAGES[quest]
    if definition.location != t.j.location or quest in t.j.banished:
        return False
    return all(requirement_met(t, f"{k}:{v}" if not k.startswith("flag:") else k) for k, v in definition.needs.items())


@handler("quests")
def _quests(t: Trip, op: Op) -> None:
    """Every active quest whose location and requirements match resolves, mandatorily; Martha orders them
    (W-QE-01). `text` lists quests already done this round."""
    done = op.text.split(",") if op.text else []
    ready = [q for q in t.j.quests if q not in done and quest_ready(t, q)]
    if not ready:
        return
    if len(ready) == 1:
        t.push(Op("resolve", card=ready[0]), Op("quests", text=",".join([*done, ready[0]])))
        return
    t.ask("Quests to resolve first", [Choice(PAGES[q].name, (Op("resolve", card=q),
                                                              Op("quests", text=",".join([*done, q]))))
                                      for q in ready])


@handler("trading")
def _trading(t: Trip, op: Op) -> None:
    """Optional, only at a location with the merchant symbol (W-TD-01)."""
    if "merchant" in location(t.j.regions, t.j.location).symbols:
        t.ask("Trade with the merchant?", [Choice("No trading", ()), Choice("Trade", (Op("market"),))])


# ----------------------------------------------------------------- rest


@handler("rest")
def _rest(t: Trip, op: Op) -> None:
    """Each provision heals Regeneration cards; then re-equip (W-RP-01/02); op.text lists the items moved so far."""
    sheet = t.s.sheet
    choices = [Choice("End the round", ())]
    if sheet.damaged and count(t, "provision"):
        eat = (Op("eat"), Op("rest", text=op.text))
        choices.append(Choice(f"Eat a provision (heal {t.stats['regeneration']})", eat))
    choices += [Choice(c.label, (*c.then, Op("rest", text=",".join(filter(None, [op.text, c.then[0].card])))))
                for c in equip_options(t, op.text)]
    if len(choices) > 1:
        t.ask("Rest", choices)


@handler("eat")
def _eat(t: Trip, op: Op) -> None:
    """One provision goes under the deck and heals Regeneration cards of Martha's choosing (W-RP-01)."""
    give_up_good(t, "provision")
    t.push(Op("mend", n=t.stats["regeneration"]))


# ----------------------------------------------------------------- fights


@handler("fight")
def _fight(t: Trip, op: Op) -> None:
    """A Conflict Card (W-CB-01): the fight runs on part 1's combat; `then` follows a victory, a defeat heals n
    cards and loses k chapters (W-TM-05)."""
    from gamehall.engine import Rng
    from gamehall.games.grimm_world.setup import start_fight

    t.push(Op("after_fight", n=op.n, k=op.k, then=op.then, orelse=op.orelse))
    t.s.rng = t.rng.state  # one generator stream through the fight and back
    t.events += start_fight(t.s, op.card, CHAPTERS[t.s.chapter].tier)
    t.rng = Rng(t.s.rng)


@handler("after_fight")
def _after_fight(t: Trip, op: Op) -> None:
    """The fight's resolution entry (W-CB-07). A defeat heals n cards, loses k chapters (W-TM-06 each), "then
    continue playing" (9.2.3-9.2.4, W-TM-05): the round goes on where the fight began (the card's remaining lines,
    then the remaining subphases and Rest). Only damage in exploration ends the round at once (9.2.1)."""
    fight = t.s.fight
    t.s.fight = None
    won = fight is not None and fight.result == "victory"
    if won:
        t.j.won += 1
    else:
        t.j.beaten += 1
    t.emit("fight_over", result=fight.result if fight else "")
    if won:
        t.push(*op.then, Op("time"))
        return
    heal(t, op.n or 1)
    t.push(*op.orelse, *chapter_ops(LOST, op.k), Op("time"))
