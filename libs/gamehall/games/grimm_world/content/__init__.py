"""Grimm World content pack: Martha, cards, items, enemies, terrain, conflicts (JSON) and its schema."""
