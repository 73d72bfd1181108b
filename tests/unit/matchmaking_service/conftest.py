"""The fixture game `high-card` in the registry for the service tests only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gamehall.engine import registry
from tests.fixtures.high_card import GAME


@pytest.fixture(autouse=True)
def _high_card() -> Iterator[None]:
    try:
        registry.get_game(GAME.id)
        added = False
    except Exception:
        registry.register(GAME)
        added = True
    yield
    if added:
        registry.unregister(GAME.id)
