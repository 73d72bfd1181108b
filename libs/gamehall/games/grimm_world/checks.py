"""Checks and what they cost in cards, and damage outside combat (W-CK-*, W-DM-*, AMB-11, AMB-12)."""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.engine import IllegalAction
from gamehall.games.grimm_world.catalog import ACTION_CARDS, CHARACTERS
from gamehall.games.grimm_world.decks import draw_fate
from gamehall.games.grimm_world.sheet import stats
from gamehall.games.grimm_world.state import Decks, Sheet


@dataclass(frozen=True)
class CheckResult:
    """The check's total, whether it met its target (None without one), and whether the hand ran empty."""

    result: int
    fate: int
    success: bool | None
    chapter_lost: bool


def card_bonus(sheet: Sheet, card: str, stat: str, star_stat: str | None) -> int:
    """What `card` adds to a check of `stat`: its grey box, or the character's check skill for a star (W-CK-03/04)."""
    definition = ACTION_CARDS[card]
    if definition.check_star:
        skill = CHARACTERS[sheet.character].check_skill
        if star_stat is None or star_stat not in skill:
            raise IllegalAction(f"star card {card}: choose one of {list(skill)}")
        return 1 if star_stat == stat else 0
    if definition.check is None or definition.check.stat != stat:
        raise IllegalAction(f"{card} does not boost {stat}")
    return definition.check.bonus


def resolve_check(sheet: Sheet, decks: Decks, stat: str, cards: list[str] = (), star_stat: str | None = None,  # type: ignore[assignment]
                  target: int | None = None) -> CheckResult:
    """Attribute + card bonuses + Fate Number (W-CK-06). Played cards go under the Damage Card before the
    Fate card is drawn (W-CK-03/05); an emptied hand loses a chapter once the check resolves (AMB-11)."""
    for card in cards:
        if card not in sheet.hand:
            raise IllegalAction(f"{card} is not in the hand")
    bonus = sum(card_bonus(sheet, card, stat, star_stat) for card in cards)
    for card in cards:
        sheet.hand.remove(card)
        sheet.damaged.append(card)
    fate = draw_fate(decks)
    result = stats(sheet)[stat] + bonus + fate
    return CheckResult(result, fate, None if target is None else result >= target, bool(cards) and not sheet.hand)


def exploration_damage(sheet: Sheet, amount: int, chosen: list[str], *, direct: bool = False) -> bool:
    """Armor reduces normal damage; each point moves a chosen hand card under the Damage Card; damage beyond
    the last card is ignored (W-DM-01..03, AMB-12). Returns True when a chapter is lost."""
    points = amount if direct else max(0, amount - stats(sheet)["armor"])
    points = min(points, len(sheet.hand))
    if len(chosen) < points or any(card not in sheet.hand for card in chosen[:points]):
        raise IllegalAction(f"choose {points} cards from the hand")
    for card in chosen[:points]:
        sheet.hand.remove(card)
        sheet.damaged.append(card)
    return points > 0 and not sheet.hand
