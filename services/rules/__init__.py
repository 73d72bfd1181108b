"""The generic rules host: serves any registered game, chosen at start."""
