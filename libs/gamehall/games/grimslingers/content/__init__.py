"""Grimslingers content pack: element, signature, item and archetype data (JSON) and its schema."""
