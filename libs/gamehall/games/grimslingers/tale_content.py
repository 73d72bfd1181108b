"""The Tall Tale content pack (tall_tale.json) as lookup tables: nodes, events and parts by index."""

from __future__ import annotations

from gamehall.engine.content import load_pack
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.content.tale_schema import EventCard, Landmark, Node, TalePack

TALE: TalePack = load_pack("gamehall.games.grimslingers.content", "tall_tale.json", TalePack)

NODES: list[Node] = list(TALE.map.nodes)
NODE_ID: dict[str, int] = {n.key: i for i, n in enumerate(NODES)}
LINKS: list[list[int]] = [sorted(NODE_ID[k] for k in n.links) for n in NODES]
EVENTS: list[EventCard] = list(TALE.events)
LANDMARKS: dict[str, Landmark] = {lm.key: lm for lm in TALE.landmarks}
REWARDS = {r.creature: r for r in TALE.rewards}
PERKS = {p.level: p for p in TALE.perks}
LEVEL_CAP = 11
"""The tracker runs to level 11 (R-256); perks come from the schedule only."""


def copies_of(key: str) -> list[int]:
    """Card ids of every copy of an item key ("treasure_map_piece" -> its three copies)."""
    return [i for i in cat.TALE_ITEMS if cat.CARDS[i].key == key]


CRAFTED: list[str] = list(TALE.crafted)
SUPPLIES: list[str] = list(TALE.supplies)
TRADE_INS: dict[str, str] = dict(TALE.trade_ins)
DIFFICULTIES: list[str] = list(TALE.difficulties)
"""Difficulty keys, easiest first (the DIFFICULTY decision's options index them)."""


def _check() -> None:
    """Content sanity at import: paths are two-way, landmarks and creatures exist."""
    for i, n in enumerate(NODES):
        for j in LINKS[i]:
            if i not in LINKS[j]:
                raise ValueError(f"path {n.key} -> {NODES[j].key} is one-way")
        if n.type == "landmark" and n.landmark not in LANDMARKS:
            raise ValueError(f"node {n.key} names an unknown landmark")
    for key in TALE.map.attack_roll.values():
        if key not in cat.CREATURE_ID:
            raise ValueError(f"attack roll names an unknown creature {key}")
    for key in [*CRAFTED, *SUPPLIES, *TRADE_INS]:
        if not copies_of(key):
            raise ValueError(f"unknown item {key}")


_check()
