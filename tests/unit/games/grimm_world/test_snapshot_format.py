"""Snapshots stored while a fight's phase was a bare string still load, and re-encode to the same bytes.

Each snapshot is the first state of its fight phase in a seeded random skirmish, encoded by the engine as it was
before `state.FightPhase`: stored matches keep the string, so the enum's values must never change.
"""

from __future__ import annotations

import base64

import pytest

from gamehall.games.grimm_world import GAME
from gamehall.games.grimm_world.state import FightPhase

STORED: dict[FightPhase, str] = {
    FightPhase.ENEMY: (
        "R0gAAYukbW9kZahza2lybWlzaKhjb25mbGljdKRZNzAxp2NoYXB0ZXIBo3JuZ89ohNuMUH55gKVzaGVldI2pY2hhcmFjdGVypm1h"
        "cnRoYah1cGdyYWRlc5Cmc2tpbGxzkKhlcXVpcHBlZJKlc3BlYXKmc2hpZWxkpnN0b3JlZJGjYm93pGhhbmSUo0EwMaNBMDKjQTAz"
        "o0EwNKdkYW1hZ2VkkKZicm9rZW6QpWdvb2RzkKlhbGlnbm1lbnQBp3RoYWxlcnMAo2JhZwCkYWxseaClZGVja3OGqWVuY291bnRl"
        "ctwAH6NCMjOjQjExo0IzM6NCNTOjQjAzo0IwNaNCMzGjQjQ3o0IxN6NCMjejQjQ1o0IxOaNCMjGjQjU3o0IzNaNCNDmjQjA3o0Iw"
        "MaNCNTmjQjUxo0I0M6NCMzmjQjU1o0IxNaNCMzejQjI5o0IxM6NCNDGjQjA5o0IyNaJUUKVhc2lkZZGiTkOmYWN0aW9u3AAUo0Ew"
        "NqNBMjGjQTE5o0ExOKNBMTejQTE1o0EwNaNBMjSjQTA5o0EwN6NBMTSjQTEyo0ExNqNBMjOjQTA4o0EyMKNBMjKjQTEzo0ExMaNB"
        "MTCoc3VyZmFjZWSQq2NoYXB0ZXJfZHVlAKZjeWNsZXMApWZpZ2h03gAbqGNvbmZsaWN0pFk3MDGkY2VsbBykZm9lc5KZojAxpnll"
        "bGxvdxECwgAAAACZojA3qXR1cnF1b2lzZQgCwgEAAAClcGhhc2WlZW5lbXmlcm91bmQBp2Rpc2NhcmSQpnBsYXllZACjY3VykKdt"
        "b3ZlX21wAKpzcGVjaWFsX21wAKZhY3RpdmWgpGxlZnQApmF0dGFja8KqYXR0YWNrX21vZAClY3JpdHOQpnB1c2hlcwCkdXNlc4Cp"
        "cmVhY3Rpb25zAKdyZWFjdGVkwqltYXJ0aGFfZnMApXRhc2tzlJencmVmcmVzaAAAAACgkJeoYWN0aXZhdGUAAAAAoJCXrmVuZF9h"
        "Y3RpdmF0aW9uAQAAAKCQl6tjaG9vc2VfbGluZQEAAACgkKZwcm9tcHSncmV0cmVhdKJwYQGicGIAonBjAKZyZXN1bHSgpGFsbHnA"
        "qWxhc3RfZmF0ZQClc3RlcHMAp2pvdXJuZXnAq3JvdW5kX2xpbWl0AA=="
    ),
    FightPhase.CHARACTER: (
        "R0gAAYukbW9kZahza2lybWlzaKhjb25mbGljdKRZNzAxp2NoYXB0ZXIBo3JuZ89ohNuMUH55gKVzaGVldI2pY2hhcmFjdGVypm1h"
        "cnRoYah1cGdyYWRlc5Cmc2tpbGxzkKhlcXVpcHBlZJKlc3BlYXKmc2hpZWxkpnN0b3JlZJGjYm93pGhhbmSUo0EwMaNBMDKjQTAz"
        "o0EwNKdkYW1hZ2VkkKZicm9rZW6QpWdvb2RzkKlhbGlnbm1lbnQBp3RoYWxlcnMAo2JhZwCkYWxseaClZGVja3OGqWVuY291bnRl"
        "ctwAH6NCMjOjQjExo0IzM6NCNTOjQjAzo0IwNaNCMzGjQjQ3o0IxN6NCMjejQjQ1o0IxOaNCMjGjQjU3o0IzNaNCNDmjQjA3o0Iw"
        "MaNCNTmjQjUxo0I0M6NCMzmjQjU1o0IxNaNCMzejQjI5o0IxM6NCNDGjQjA5o0IyNaJUUKVhc2lkZZGiTkOmYWN0aW9u3AAUo0Ew"
        "NqNBMjGjQTE5o0ExOKNBMTejQTE1o0EwNaNBMjSjQTA5o0EwN6NBMTSjQTEyo0ExNqNBMjOjQTA4o0EyMKNBMjKjQTEzo0ExMaNB"
        "MTCoc3VyZmFjZWSQq2NoYXB0ZXJfZHVlAKZjeWNsZXMApWZpZ2h03gAbqGNvbmZsaWN0pFk3MDGkY2VsbBykZm9lc5KZojAxpnll"
        "bGxvdxcCwgAAAACZojA3qXR1cnF1b2lzZRgCwgEAAAClcGhhc2WpY2hhcmFjdGVypXJvdW5kAqdkaXNjYXJkkKZwbGF5ZWQAo2N1"
        "cpCnbW92ZV9tcACqc3BlY2lhbF9tcACmYWN0aXZloKRsZWZ0AKZhdHRhY2vCqmF0dGFja19tb2QApWNyaXRzkKZwdXNoZXMApHVz"
        "ZXOAqXJlYWN0aW9ucwGncmVhY3RlZMKpbWFydGhhX2ZzAKV0YXNrc5CmcHJvbXB0oKJwYQCicGIAonBjAKZyZXN1bHSgpGFsbHnA"
        "qWxhc3RfZmF0ZQClc3RlcHMDp2pvdXJuZXnAq3JvdW5kX2xpbWl0AA=="
    ),
    FightPhase.OVER: (
        "R0gAAYukbW9kZahza2lybWlzaKhjb25mbGljdKRZNzAxp2NoYXB0ZXIBo3JuZ88GvFVFz8j1laVzaGVldI2pY2hhcmFjdGVypm1h"
        "cnRoYah1cGdyYWRlc5Cmc2tpbGxzkKhlcXVpcHBlZJGlc3BlYXKmc3RvcmVkkqNib3emc2hpZWxkpGhhbmSQp2RhbWFnZWSUo0Ew"
        "MaNBMDOjQTAyo0EwNKZicm9rZW6QpWdvb2RzkKlhbGlnbm1lbnQBp3RoYWxlcnMAo2JhZwCkYWxseaClZGVja3OGqWVuY291bnRl"
        "ctwAH6NCMDWjQjMxo0I0N6NCMTejQjI3o0I0NaNCMTmjQjIxo0I1N6NCMzWjQjQ5o0IwN6NCMDGjQjU5o0I1MaNCNDOjQjM5o0I1"
        "NaNCMTWjQjM3o0IyOaNCMTOjQjQxo0IwOaNCMjWiVFCjQjIzo0IxMaNCMzOjQjUzo0IwM6Vhc2lkZZGiTkOmYWN0aW9u3AAUo0Ew"
        "NqNBMjGjQTE5o0ExOKNBMTejQTE1o0EwNaNBMjSjQTA5o0EwN6NBMTSjQTEyo0ExNqNBMjOjQTA4o0EyMKNBMjKjQTEzo0ExMaNB"
        "MTCoc3VyZmFjZWSQq2NoYXB0ZXJfZHVlAKZjeWNsZXMApWZpZ2h03gAbqGNvbmZsaWN0pFk3MDGkY2VsbBykZm9lc5KZojAxpnll"
        "bGxvdx0CwgAAAACZojA3qXR1cnF1b2lzZRMCwgEAAAClcGhhc2Wkb3ZlcqVyb3VuZAWnZGlzY2FyZJCmcGxheWVkAaNjdXKQp21v"
        "dmVfbXAAqnNwZWNpYWxfbXAApmFjdGl2ZaCkbGVmdACmYXR0YWNrwqphdHRhY2tfbW9kAKVjcml0c5CmcHVzaGVzAKR1c2VzgKly"
        "ZWFjdGlvbnMAp3JlYWN0ZWTCqW1hcnRoYV9mcwCldGFza3OQpnByb21wdKCicGEAonBiAKJwYwCmcmVzdWx0pmRlZmVhdKRhbGx5"
        "wKlsYXN0X2ZhdGUGpXN0ZXBzEqdqb3VybmV5wKtyb3VuZF9saW1pdAA="
    ),
}
"""Per fight phase, a snapshot (base64) written with the phases as bare strings."""


@pytest.mark.parametrize("phase", list(STORED), ids=str)
def test_a_stored_snapshot_loads_with_its_phase(phase: FightPhase) -> None:
    stored = base64.b64decode(STORED[phase])
    state = GAME.decode(stored)
    assert state.fight is not None and state.fight.phase == phase
    assert GAME.encode(state) == stored
    assert GAME.view(state, None)["fight"]["phase"] == phase.value


def test_the_phase_values_are_the_stored_strings() -> None:
    assert {p.name: p.value for p in FightPhase} == {"CHARACTER": "character", "ENEMY": "enemy", "OVER": "over"}
