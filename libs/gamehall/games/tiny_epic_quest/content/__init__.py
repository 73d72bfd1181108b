"""The Tiny Epic Quest content pack, loaded and validated once at import (no I/O at apply time)."""

from __future__ import annotations

from gamehall.engine.content import load_pack
from gamehall.games.tiny_epic_quest.content.schema import (
    Grotto,
    Item,
    Layout,
    MapCard,
    Pack,
    PlayerCard,
    Quest,
    Table,
    Temple,
)

PACKAGE = "gamehall.games.tiny_epic_quest.content"


def load_default_pack() -> Pack:
    """Read every JSON file of the shipped pack and validate it against the schema."""
    return Pack(
        layout=load_pack(PACKAGE, "layout.json", Layout),
        cards=load_pack(PACKAGE, "cards.json", list[MapCard]),
        temples=load_pack(PACKAGE, "temples.json", list[Temple]),
        grottos=load_pack(PACKAGE, "grottos.json", list[Grotto]),
        items=load_pack(PACKAGE, "items.json", list[Item]),
        quests=load_pack(PACKAGE, "quests.json", list[Quest]),
        players=load_pack(PACKAGE, "players.json", list[PlayerCard]),
        table=load_pack(PACKAGE, "table.json", Table),
    )


PACK = load_default_pack()
