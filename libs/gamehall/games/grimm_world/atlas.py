"""The campaign content as lookup tables: Storybook, Region Cards, Lost Pages, encounter entries, landscapes and
goods prices (read once at import; engines do no I/O at apply time)."""

from __future__ import annotations

from gamehall.engine.content import load_pack
from gamehall.games.grimm_world.catalog import ENCOUNTERS
from gamehall.games.grimm_world.content.schema import (
    CampaignPack,
    ChapterDef,
    EncounterEntryDef,
    EncounterPagesPack,
    LandscapeDef,
    LocationDef,
    LostPageDef,
    LostPagesPack,
    Op,
    PriceDef,
    RegionCardDef,
)

_PKG = "gamehall.games.grimm_world.content"

CAMPAIGN: CampaignPack = load_pack(_PKG, "campaign.json", CampaignPack)
PAGES_PACK: LostPagesPack = load_pack(_PKG, "lost_pages.json", LostPagesPack)
ENTRY_PACK: EncounterPagesPack = load_pack(_PKG, "encounters.json", EncounterPagesPack)

CHAPTERS: dict[int, ChapterDef] = {c.number: c for c in CAMPAIGN.chapters}
COVER, EPILOGUE = 0, 99
LAST_CHAPTER = max(n for n in CHAPTERS if n not in (COVER, EPILOGUE))
REGIONS: dict[str, RegionCardDef] = {r.key: r for r in CAMPAIGN.regions}
LANDSCAPES: dict[str, LandscapeDef] = {x.letter: x for x in CAMPAIGN.landscapes}
PRICES: dict[int, PriceDef] = {p.symbol: p for p in CAMPAIGN.prices}
PAGES: dict[str, LostPageDef] = {c.key: c for c in PAGES_PACK.cards}
ENTRIES: dict[str, EncounterEntryDef] = {e.key: e for e in ENTRY_PACK.entries}
ENCOUNTERS.update({c.key: c for c in CAMPAIGN.x_cards})

GOODS = ("provision", "wood", "ore", "essence")
TRADED = ("wood", "ore", "essence")
"""Provisions cannot be traded with merchants (W-TD-03)."""


def location(regions: dict[str, str], number: int) -> LocationDef:
    """The location `number` on the Region Card of its region now in play."""
    card = REGIONS[regions[str(number // 10)]]
    for loc in card.locations:
        if loc.number == number:
            return loc
    raise KeyError(f"location {number} is not on Region Card {card.key}")


def region_cards(region: str) -> list[str]:
    """The Region Cards of one region in Event Number order."""
    return sorted(k for k in REGIONS if k[0] == region)


def entry_ops(key: str) -> tuple[Op, ...]:
    """An encounter entry's lines, its name and text shown first."""
    entry = ENTRIES[key]
    return (Op("text", text=f"{entry.name}: {entry.text}"), *entry.ops)


def copies(number: str) -> list[str]:
    """Every Lost Pages card printed with this number (some numbers exist more than once, W-TX-12)."""
    return sorted(k for k, c in PAGES.items() if c.number == number)
