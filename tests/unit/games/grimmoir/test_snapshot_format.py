"""Snapshots stored while phases were bare ints (0..5) still load, and re-encode to the same bytes.

Each snapshot is the first state of its phase in a seeded random match, encoded by the engine as it was when
the phase became `state.Phase`: stored matches keep the int, so the enum's values must never change.
"""

from __future__ import annotations

import base64

import pytest

from gamehall.games.grimmoir import GAME
from gamehall.games.grimmoir.state import Phase

STORED: dict[Phase, str] = {
    Phase.DRAFT: (
        "R0gAAdwAFZijYWxspW93bmVysWV2ZXJ5X2Rlc3RpbmF0aW9uw6Z0b3BfdXCkZHJhd6RvcGVuPM+eN3m5f0p8HAABAQCS//+S//+S"
        "kJCSkJCSkJCcwMDAwMDAwMDAwMDAkpCQkgAAAZLCwgD/wv+g"
    ),
    Phase.RECRUIT: (
        "R0gAAdwAFZijYWxspW93bmVysWV2ZXJ5X2Rlc3RpbmF0aW9uw6Z0b3BfdXCkZHJhd6RvcGVuPM+eN3m5f0p8HAEBAQCSAQKS/wOS"
        "kJCSkJCSkJCcwMDAwMDAwMDAwMDAkpCQkgAAAZLCwgD/wv+g"
    ),
    Phase.DISPLAY: (
        "R0gAAdwAFZijYWxspW93bmVysWV2ZXJ5X2Rlc3RpbmF0aW9uw6Z0b3BfdXCkZHJhd6RvcGVuPM+eN3m5f0p8HAIBAQCSAQKS/wOS"
        "lgoLDRAJDpYTFSEaFBiSlgkKCw0OEJYTFBUYGiGSkJCcwMDAwMDAwMDAwMDAkpCQkgAAAZLCwgD/wv+g"
    ),
    Phase.ARRANGE: (
        "R0gAAdwAFZijYWxspW93bmVysWV2ZXJ5X2Rlc3RpbmF0aW9uw6Z0b3BfdXCkZHJhd6RvcGVuPM+eN3m5f0p8HAMBAQCSAQKS/wOS"
        "lgoLDRAJDpYTFSEaFBiSkwkLEJMYGiGSkJCclwoAAADCAACXDQAAAMIAAJcOAAAAwgAAwMDAlxUAAADCAACXFAAAAMIAAJcTAAAA"
        "wgAAwMDAkpCQkgAAAZLCwgD/wv+g"
    ),
    Phase.BATTLE: (
        "R0gAAdwAFZijYWxspW93bmVysWV2ZXJ5X2Rlc3RpbmF0aW9uw6Z0b3BfdXCkZHJhd6RvcGVuPM+eN3m5f0p8HAQBAQCSAQKS/wOS"
        "lgoLDRAJDpYTFSEaFBiSkJCSkJCclwoAAADCAACXDQAAAMIAAJcOAAAAwgEAlxAAAADCAACXCwAAAMIBAJcJAAAAwgAAlxUAAADC"
        "AACXFAAAAMIBAJcTAAAAwgAAlyEAAADCAAOXGgAAAMIAAZcYAAAAwgAAkpCQkgUFAZLCwgH/wv+g"
    ),
    Phase.OVER: (
        "R0gAAdwAFZijYWxspW93bmVysWV2ZXJ5X2Rlc3RpbmF0aW9uw6Z0b3BfdXCkZHJhd6RvcGVuPM+eN3m5f0p8HAUBAQCSAQKS/wOS"
        "lgoLDRAJDpYTFSEaFBiSkJCSkJCcwJcJBgAAwwAAlw0EAADDAADAwMDAwMDAwMCSlAsOChCWFRoYFCETkgMDAJLCwgz/wgDZIGFs"
        "bCBvcHBvc2luZyBjaGFyYWN0ZXJzIGRlZmVhdGVk"
    ),
}
"""Per phase, a snapshot (base64) written with the phases as bare ints."""


@pytest.mark.parametrize("phase", list(STORED), ids=lambda p: p.name.lower())
def test_a_stored_snapshot_loads_with_its_phase(phase: Phase) -> None:
    stored = base64.b64decode(STORED[phase])
    state = GAME.decode(stored)
    assert state.phase is phase
    assert GAME.encode(state) == stored
    assert GAME.view(state, None)["phase"] == phase.name.lower()


def test_the_phase_values_are_the_stored_ints() -> None:
    assert [(p.name, p.value) for p in Phase] == [
        ("DRAFT", 0), ("RECRUIT", 1), ("DISPLAY", 2), ("ARRANGE", 3), ("BATTLE", 4), ("OVER", 5)
    ]
