"""Time: 'Time Passes' and 'Next Chapter', the next-chapter sequence, and losing or spending chapters
(W-TM-01..09, AMB-2, AMB-3)."""

from __future__ import annotations

from gamehall.games.grimm_world.atlas import CHAPTERS, EPILOGUE, LAST_CHAPTER, PAGES
from gamehall.games.grimm_world.catalog import NEXT_CHAPTER, TIME_PASSES
from gamehall.games.grimm_world.content.schema import Op
from gamehall.games.grimm_world.effects import heal, place
from gamehall.games.grimm_world.market import close_display
from gamehall.games.grimm_world.trip import Trip, handler

NEXT, LOST, SPENT, DUE = "next", "lost", "spent", "due"
"""How a chapter ends: time passed, lost (Y030), spent (Y031); DUE is a 'Next Chapter' whose reshuffle a combat
round already made."""


def chapter_ops(kind: str, times: int) -> list[Op]:
    """The steps of one chapter change per chapter (W-TM-03 / W-TM-06 / W-TM-08)."""
    ops: list[Op] = []
    for _ in range(times):
        if kind == LOST:
            ops.append(Op("y666"))
        ops += [Op("expire"), Op("turn_chapter", text=kind), Op("sub_chapter"), Op("prices_back")]
    if kind == NEXT:
        ops.append(Op("reshuffle", card=TIME_PASSES))
    return ops


@handler("chapter")
def _chapter(t: Trip, op: Op) -> None:
    t.push(*chapter_ops(op.text, max(1, op.n)))


@handler("lose_chapter")
def _lose_chapter(t: Trip, op: Op) -> None:
    """A card says chapters are lost: W-TM-06 once per chapter (W-TM-07, AMB-2)."""
    t.push(*chapter_ops(LOST, max(1, op.n)))


@handler("spend_chapter")
def _spend_chapter(t: Trip, op: Op) -> None:
    """Spending chapters (Y031): no Y666, no reshuffle (W-TM-08)."""
    t.push(*chapter_ops(SPENT, max(1, op.n)))


@handler("y666")
def _y666(t: Trip, op: Op) -> None:
    t.j.story.setdefault("E", []).append("Y666")
    t.emit("y666", count=t.j.story["E"].count("Y666"))


@handler("expire")
def _expire(t: Trip, op: Op) -> None:
    """Bar cards that expire with the coming chapter or carry an hourglass: those with the resolve mark are
    resolved in ascending order, then all are banished (W-TM-03 step 2, W-EB-05)."""
    coming = t.s.chapter + 1
    due = sorted(c for c in t.j.bar if PAGES[c].hourglass or (PAGES[c].book and PAGES[c].book <= coming))
    ops = [Op("resolve", card=c) for c in due if PAGES[c].resolve_on_expiry]
    t.push(*ops, *(Op("banish", card=c) for c in due))


@handler("turn_chapter")
def _turn_chapter(t: Trip, op: Op) -> None:
    """Turn over the next Chapter Card and resolve it; after the last one comes the Epilogue (W-SU-08)."""
    j = t.j
    if op.text == NEXT or op.text == DUE:
        j.completed += 1
    elif op.text == LOST:
        j.lost += 1
    else:
        j.spent += 1
    t.s.chapter += 1
    t.emit("chapter", chapter=t.s.chapter, how=op.text)
    if t.s.chapter > LAST_CHAPTER:
        j.stack = []
        epilogue = CHAPTERS[EPILOGUE]
        t.emit("text", text=epilogue.text)
        t.push(*epilogue.ops, Op("lose", text="The story has ended."))
        return
    chapter = CHAPTERS[t.s.chapter]
    t.emit("text", text=chapter.text)
    t.push(*chapter.ops)


@handler("sub_chapter")
def _sub_chapter(t: Trip, op: Op) -> None:
    """The cards under the new Chapter Card move into the Bar; '!' cards are resolved at once (W-TM-03 step 4)."""
    cards = sorted(t.j.story.pop(str(t.s.chapter), []))
    for card in cards:
        place(t, card)
    t.push(*(Op("resolve", card=c) for c in cards if PAGES[c].bang and c in t.j.bar))


@handler("prices_back")
def _prices_back(t: Trip, op: Op) -> None:
    """The price cards under the Region Cards return under the deck (W-TD-05)."""
    for region in sorted(t.j.prices):
        t.under(t.j.prices.pop(region))


@handler("reshuffle")
def _reshuffle(t: Trip, op: Op) -> None:
    """Shuffle the deck and put the other special card under it (W-TM-02 steps 3-4, W-TM-03 step 6)."""
    decks = t.s.decks
    t.rng.shuffle(decks.encounter)
    if op.card in decks.aside:
        decks.aside.remove(op.card)
    decks.encounter.append(op.card)
    t.emit("reshuffle", under=op.card)


@handler("time")
def _time(t: Trip, op: Op) -> None:
    """A subphase (or the Encounter Phase, op.n = 1) has finished: process a surfaced special card (AMB-3).
    'Next Chapter' waits only for the current subphase; 'Time Passes' for the whole Encounter Phase."""
    decks = t.s.decks
    if decks.chapter_due:
        due, decks.chapter_due = decks.chapter_due, 0
        t.push(*chapter_ops(DUE, due))
        return
    if NEXT_CHAPTER in decks.surfaced:
        decks.surfaced.remove(NEXT_CHAPTER)
        t.push(*chapter_ops(NEXT, 1))
    elif op.n and TIME_PASSES in decks.surfaced:
        decks.surfaced.remove(TIME_PASSES)
        t.push(Op("reshuffle", card=NEXT_CHAPTER))


def end_round_now(t: Trip) -> None:
    """The round ends at once: the pending steps are dropped and the held cards go back under the deck."""
    j = t.j
    j.stack = []
    j.menu = []
    for card in j.held:
        t.under(card)
    j.held = []
    close_display(t)


def chapter_lost_in_round(t: Trip) -> None:
    """The last hand card went under the Damage Card: the round ends, every card returns to the hand, and a chapter
    is lost (W-TM-04, W-DM-03)."""
    end_round_now(t)
    heal(t, None)
    t.emit("chapter_lost")
    t.push(*chapter_ops(LOST, 1), Op("new_round"))
