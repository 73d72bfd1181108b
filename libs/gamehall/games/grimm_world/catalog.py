"""The loaded Grimm World content pack as lookup tables, read once at import (engines do no I/O at apply time)."""

from __future__ import annotations

from gamehall.engine.content import load_pack
from gamehall.games.grimm_world.content.schema import (
    ActionCardDef,
    ActionCardPack,
    AllyDef,
    CharacterDef,
    CharacterPack,
    ConflictDef,
    ConflictPack,
    EncounterCardDef,
    EncounterPack,
    EnemyDef,
    EnemyPack,
    ItemDef,
    ItemPack,
    LoadoutDef,
    SkillDef,
    TerrainCardDef,
    TerrainPack,
    UpgradeDef,
)

_PKG = "gamehall.games.grimm_world.content"

CHARACTER_PACK: CharacterPack = load_pack(_PKG, "characters.json", CharacterPack)
ACTION_PACK: ActionCardPack = load_pack(_PKG, "action_cards.json", ActionCardPack)
ITEM_PACK: ItemPack = load_pack(_PKG, "items.json", ItemPack)
ENEMY_PACK: EnemyPack = load_pack(_PKG, "enemies.json", EnemyPack)
TERRAIN_PACK: TerrainPack = load_pack(_PKG, "terrain.json", TerrainPack)
CONFLICT_PACK: ConflictPack = load_pack(_PKG, "conflicts.json", ConflictPack)
ENCOUNTER_PACK: EncounterPack = load_pack(_PKG, "encounter_cards.json", EncounterPack)

CHARACTERS: dict[str, CharacterDef] = {c.key: c for c in CHARACTER_PACK.characters}
UPGRADES: dict[str, UpgradeDef] = {u.key: u for u in CHARACTER_PACK.upgrades}
SKILLS: dict[str, SkillDef] = {s.key: s for s in CHARACTER_PACK.skills}
LOADOUTS: tuple[LoadoutDef, ...] = CHARACTER_PACK.loadouts
ALLIES: dict[str, AllyDef] = {a.key: a for a in CHARACTER_PACK.allies}
ACTION_CARDS: dict[str, ActionCardDef] = {c.key: c for c in ACTION_PACK.cards}
ITEMS: dict[str, ItemDef] = {i.key: i for i in ITEM_PACK.items}
ENEMIES: dict[str, EnemyDef] = {e.number: e for e in ENEMY_PACK.enemies}
TERRAIN: dict[str, TerrainCardDef] = {t.number: t for t in TERRAIN_PACK.cards}
CONFLICTS: dict[str, ConflictDef] = {c.key: c for c in CONFLICT_PACK.conflicts}
ENCOUNTERS: dict[str, EncounterCardDef] = {c.key: c for c in ENCOUNTER_PACK.cards}

TIME_PASSES = "TP"
NEXT_CHAPTER = "NC"
"""The two special Encounter Cards (W-ED-07): taken out as soon as they reach the top."""


def fate_of(card: str) -> int:
    """The Fate Number printed on an Encounter Card."""
    return ENCOUNTERS[card].fate


def loadout_for(chapter: int) -> LoadoutDef:
    """Martha's skirmish loadout for a chapter."""
    for loadout in LOADOUTS:
        if loadout.chapters[0] <= chapter <= loadout.chapters[1]:
            return loadout
    raise KeyError(f"no loadout covers chapter {chapter}")
