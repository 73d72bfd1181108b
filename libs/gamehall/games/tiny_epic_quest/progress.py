"""Rewards shared by Day and Night: the quest row, items and equipping, temple completion, legendary tracks."""

from __future__ import annotations

from gamehall.engine import Rng
from gamehall.games.tiny_epic_quest.state import HEROES, Decision, DecisionKind, State, send_home
from gamehall.games.tiny_epic_quest.tables import (
    LEGEND,
    LEGENDARY_ITEMS,
    QUEST_IS_TREASURE,
    QUEST_ITEM,
    QUEST_TEMPLE,
    QUESTS,
)

ROW_SIZE = 3
LEGEND_DONE = 2
LEGEND_SECOND_EARLY = 3
"""Track value when the second temple was completed first (only with legendary_strict_order off, AMB-9)."""


# ----------------------------------------------------------------------------- quest row
def _draw(s: State, rng: Rng) -> int:
    """Top card of the quest deck, reshuffling the discard pile when the deck is empty; -1 if none."""
    if not s.quest_deck:
        if not s.discard:
            return -1
        s.quest_deck = rng.shuffled(s.discard)
        s.discard = []
    return s.quest_deck.pop()


def _row_ok(s: State) -> bool:
    kinds = {QUEST_IS_TREASURE[q] for q in s.row}
    return len(kinds) == 2


def _missing_exists(s: State) -> bool:
    """Whether the deck or discard pile still holds a quest of a type the row lacks."""
    have = {QUEST_IS_TREASURE[q] for q in s.row}
    return any(QUEST_IS_TREASURE[q] not in have for q in s.quest_deck) or any(
        QUEST_IS_TREASURE[q] not in have for q in s.discard
    )


def refill_row(s: State, enforce: bool) -> None:
    """Deal new quests on the left up to 3; with `enforce`, redraw the last dealt card until the row holds
    at least one Movement and one Treasure quest (Setup step 8, AMB-3), relaxing when no such card remains."""
    rng = Rng(s.rng)
    while len(s.row) < ROW_SIZE:
        q = _draw(s, rng)
        if q < 0:
            break
        s.row.insert(0, q)
    if enforce and len(s.row) == ROW_SIZE:
        guard = 0
        while not _row_ok(s) and _missing_exists(s) and guard < 200:
            guard += 1
            s.discard.append(s.row.pop(0))
            q = _draw(s, rng)
            if q < 0:
                break
            s.row.insert(0, q)
    s.rng = rng.state


def take_quest(s: State, seat: int, q: int, day: bool) -> None:
    """Move quest `q` from the row to the seat's completed quests, pay its reward and refill the row."""
    s.row.remove(q)
    s.quests_done[seat].append(q)
    if day:
        s.no_quest_by_day = False
        s.quested_this_turn[seat] = True
    refill_row(s, s.rules.quest_rule_every_refill)
    card = QUESTS[q]
    if QUEST_IS_TREASURE[q]:
        give_item(s, seat, QUEST_ITEM[q])
    else:
        if card.health:
            s.health[seat] = min(min(10, 6 + s.goblins[seat]), s.health[seat] + card.health)
        if card.power:
            s.power[seat] = min(min(10, 3 + s.spell[seat]), s.power[seat] + card.power)


def discard_rightmost(s: State) -> None:
    """Resolution: discard the rightmost quest, slide the rest right and deal a new one on the left."""
    if s.row:
        s.discard.append(s.row.pop())
    refill_row(s, s.rules.quest_rule_every_refill)


# ----------------------------------------------------------------------------- items
def free_hands(s: State, seat: int) -> list[int]:
    """Heroes (0-2) of `seat` with an open hand."""
    base = HEROES * seat
    return [i for i in range(HEROES) if len(s.hero_items[base + i]) < 2]


def give_item(s: State, seat: int, item: int) -> None:
    """A gained item is equipped at once: automatically when one hero has a free hand, by choice when several
    have, and kept by the player card when none has (T-IT-01/02)."""
    hands = free_hands(s, seat)
    if not hands:
        s.kept[seat].append(item)
    elif len(hands) == 1:
        s.hero_items[HEROES * seat + hands[0]].append(item)
    else:
        s.pending.append(Decision(seat, DecisionKind.EQUIP, value=item))


def item_count(s: State, seat: int) -> int:
    base = HEROES * seat
    return len(s.kept[seat]) + sum(len(s.hero_items[base + i]) for i in range(HEROES))


# ----------------------------------------------------------------------------- temples
def complete_temples(s: State, seat: int, temples: list[int], day: bool) -> int:
    """Complete `temples` together: advance legendary tracks (once per track per batch, T-LG-02) and take a
    matching Treasure Quest from the row for each. Returns how many Treasure Quests were taken."""
    color = s.color[seat]
    for k in range(3):
        first, second = LEGEND[color][k]
        pos = s.legend[seat][k]
        if pos == 0 and first in temples:
            s.legend[seat][k] = 1
        elif pos == 0 and second in temples and not s.rules.legendary_strict_order:
            s.legend[seat][k] = LEGEND_SECOND_EARLY
        elif (pos == 1 and second in temples) or (pos == LEGEND_SECOND_EARLY and first in temples):
            s.legend[seat][k] = LEGEND_DONE
            give_item(s, seat, LEGENDARY_ITEMS[k])
    taken = 0
    for t in temples:
        if day and s.quested_this_turn[seat]:
            break
        if not day and s.rules.night_quest_limit and taken:
            break
        match = [q for q in reversed(s.row) if QUEST_TEMPLE[q] == t]
        if match:
            take_quest(s, seat, match[0], day)
            taken += 1
    return taken


def complete_by_day(s: State, h: int, temple: int) -> None:
    """A hero reached a temple's last space by Day (a Grotto): it completes at once (T-TP-05)."""
    seat = h // HEROES
    send_home(s, h)
    s.pending.append(Decision(seat, DecisionKind.GAIN, value=1))
    complete_temples(s, seat, [temple], day=True)


def legendary_count(s: State, seat: int) -> int:
    return sum(1 for v in s.legend[seat] if v == LEGEND_DONE)
