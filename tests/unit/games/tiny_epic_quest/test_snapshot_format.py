"""Snapshots stored before the state's full-word names and records still load, re-encode to the same bytes,
and give the same views.

Each snapshot was encoded by the engine as it was before the change: phases and Night stages as bare ints, the
short field names (gdmg, hslot, dq_cur, token_q, ...) and pending decisions / roll symbols as positional
arrays. The renamed fields keep those names as their keys, `Decision` and `RollSymbols` encode as the same
arrays, and the enums keep the ints.
"""

from __future__ import annotations

import base64
import random

import pytest

from gamehall.games.tiny_epic_quest import GAME
from gamehall.games.tiny_epic_quest.state import Decision, DecisionKind, NightStage, Phase, RollSymbols

STORED: dict[str, str] = {
    "day_with_pending": (
        "R0gAAd4AOKRtb2RlqHN0YW5kYXJkpXNlYXRzAqpkaWZmaWN1bHR5oKRnb2FsAKVydWxlc4utZm9vdF9kaWFnb25hbMO3cXVlc3Rf"
        "cnVsZV9ldmVyeV9yZWZpbGzDsW5pZ2h0X3F1ZXN0X2xpbWl0wrljb25qdXJlX2RhbWFnZV9sYXN0X3NwYWNlw7FleGhhdXN0ZWRf"
        "c2tpcHBlZMOxZGVmZW5kX2FueV9kYW1hZ2XDtmxlZ2VuZGFyeV9zdHJpY3Rfb3JkZXLDtXNpbmdsZV9sZWFybl9wZXJfcmVzdMK2"
        "Z2xvb21fc2V0dXBfYWdncmVzc2l2ZcO1dHJlYXN1cmVfcmV0dXJuX2JvbnVzw7VlbmRfY2FyZF9mbGlwc19nb2JsaW7CpHNpZGUA"
        "o3JuZ8+zOAEzVL+RAqVjYXJkc9wAEQYPDgoLAgEAAwwIBBAJBQ0HpmdvYmxpbtwAEQIAAAIAAAAAAAABAQABAgABpGdkbWfcABEA"
        "AAAAAAAAAAAAAAAAAAAAAKZnY2xhaW3cABH//////////////////////6ZzdXBwbHkJpWhzbG90lgANDAsEDKRocmVnlgEAAQEB"
        "AKVocHJvZ5YAAAABAACmaGl0ZW1zlpCQkJCQkKZoZWFsdGiSBgalcG93ZXKSAAClc3BlbGySAACnZ29ibGluc5IAAKtxdWVzdHNf"
        "ZG9uZZKQkQWka2VwdJKQkKZsZWdlbmSSkwAAAJMAAACmc3RhdHVzkgEBpGhvbWWSBQeoaG9tZV9yZWeSAACqcXVlc3RfZGVja58C"
        "EQoAAQgXEg0VEAQDDwujcm93kxYUBqdkaXNjYXJklQwOEwcJpWNvbG9ykgIApXJvdW5kBKVwaGFzZQClbWFnaWMApWZpcnN0Aad0"
        "b2tlbl9xw6R1c2VklcLCwsLDqXNvbG9fZGVja5Cnb3B0aW9uc5CkdHVybgGkY2FyZAOlYWN0b3IBpWFjdGVkAaVtb3ZlZMOlc3Rh"
        "Z2UAp2luX3JvbGySwsOlcXR1cm6SwsKmaG9sZGVy/6Ryb2xslQMCBAIAomRxkKZkcV9jdXIBp2RxX2tpbmQCpGRxX24ApHBvb2yS"
        "kwAAAJMAAACldXNpbmeSwsKncGVuZGluZ5GUAQEEBadjaG9pY2VzkA=="
    ),
    "night_handing_out": (
        "R0gAAd4AOKRtb2RlqHN0YW5kYXJkpXNlYXRzAqpkaWZmaWN1bHR5oKRnb2FsAKVydWxlc4utZm9vdF9kaWFnb25hbMO3cXVlc3Rf"
        "cnVsZV9ldmVyeV9yZWZpbGzDsW5pZ2h0X3F1ZXN0X2xpbWl0wrljb25qdXJlX2RhbWFnZV9sYXN0X3NwYWNlw7FleGhhdXN0ZWRf"
        "c2tpcHBlZMOxZGVmZW5kX2FueV9kYW1hZ2XDtmxlZ2VuZGFyeV9zdHJpY3Rfb3JkZXLDtXNpbmdsZV9sZWFybl9wZXJfcmVzdMK2"
        "Z2xvb21fc2V0dXBfYWdncmVzc2l2ZcO1dHJlYXN1cmVfcmV0dXJuX2JvbnVzw7VlbmRfY2FyZF9mbGlwc19nb2JsaW7CpHNpZGUA"
        "o3JuZ8+FDT/0W9a4MKVjYXJkc9wAEQYPDgoLAgEAAwwIBBAJBQ0HpmdvYmxpbtwAEQIAAAIAAAAAAAABAQABAQABpGdkbWfcABEA"
        "AAAAAAAAAAAAAAAAAAAAAKZnY2xhaW3cABH//////////////////////6ZzdXBwbHkJpWhzbG90lgEJDgsEAKRocmVnlgABAAAA"
        "AaVocHJvZ5YAAAAAAACmaGl0ZW1zlpCQkJCQkKZoZWFsdGiSBgalcG93ZXKSAAOlc3BlbGySAACnZ29ibGluc5IAAKtxdWVzdHNf"
        "ZG9uZZKQkKRrZXB0kpCQpmxlZ2VuZJKTAAAAkwAAAKZzdGF0dXOSAACkaG9tZZIFB6hob21lX3JlZ5IAAKpxdWVzdF9kZWNr3AAT"
        "AhEKAAEIFxINFRAEAw8LFhQJB6Nyb3eTBQYTp2Rpc2NhcmSSDA6lY29sb3KSAgClcm91bmQCpXBoYXNlAaVtYWdpYwClZmlyc3QB"
        "p3Rva2VuX3HDpHVzZWSVw8LDw8Opc29sb19kZWNrkKdvcHRpb25zkKR0dXJuBKRjYXJk/6VhY3RvcgGlYWN0ZWQApW1vdmVkwqVz"
        "dGFnZQGnaW5fcm9sbJLDw6VxdHVybpLCwqZob2xkZXIBpHJvbGyVAAIFAgCiZHGTAAICpmRxX2N1cgCnZHFfa2luZACkZHFfbgGk"
        "cG9vbJKTAAABkwAAAaV1c2luZ5LCwqdwZW5kaW5nkZQBBQEAp2Nob2ljZXOQ"
    ),
    "night_using_roll": (
        "R0gAAd4AOKRtb2RlqHN0YW5kYXJkpXNlYXRzAqpkaWZmaWN1bHR5oKRnb2FsAKVydWxlc4utZm9vdF9kaWFnb25hbMO3cXVlc3Rf"
        "cnVsZV9ldmVyeV9yZWZpbGzDsW5pZ2h0X3F1ZXN0X2xpbWl0wrljb25qdXJlX2RhbWFnZV9sYXN0X3NwYWNlw7FleGhhdXN0ZWRf"
        "c2tpcHBlZMOxZGVmZW5kX2FueV9kYW1hZ2XDtmxlZ2VuZGFyeV9zdHJpY3Rfb3JkZXLDtXNpbmdsZV9sZWFybl9wZXJfcmVzdMK2"
        "Z2xvb21fc2V0dXBfYWdncmVzc2l2ZcO1dHJlYXN1cmVfcmV0dXJuX2JvbnVzw7VlbmRfY2FyZF9mbGlwc19nb2JsaW7CpHNpZGUA"
        "o3JuZ89t999U32JLx6VjYXJkc9wAEQYPDgoLAgEAAwwIBBAJBQ0HpmdvYmxpbtwAEQEAAAEAAAAAAAABAQABAQABpGdkbWfcABEA"
        "AAAAAAAAAAAAAAAAAAAAAKZnY2xhaW3cABH//////////////////////6ZzdXBwbHkJpWhzbG90lgEFDhADAKRocmVnlgAAAQEB"
        "AaVocHJvZ5YAAAAAAACmaGl0ZW1zlpCQkJCQkKZoZWFsdGiSBgalcG93ZXKSAwOlc3BlbGySAACnZ29ibGluc5IAAKtxdWVzdHNf"
        "ZG9uZZKQkKRrZXB0kpCQpmxlZ2VuZJKTAAAAkwAAAKZzdGF0dXOSAQCkaG9tZZIFB6hob21lX3JlZ5IAAKpxdWVzdF9kZWNr3AAU"
        "AhEKAAEIFxINFRAEAw8LFhQJBwWjcm93kwYTDqdkaXNjYXJkkQylY29sb3KSAgClcm91bmQBpXBoYXNlAaVtYWdpYwGlZmlyc3QA"
        "p3Rva2VuX3HDpHVzZWSVwsPDw8Opc29sb19kZWNrkKdvcHRpb25zkKR0dXJuBKRjYXJk/6VhY3RvcgClYWN0ZWQApW1vdmVkwqVz"
        "dGFnZQKnaW5fcm9sbJLCw6VxdHVybpLCwqZob2xkZXIBpHJvbGyVAwECAQSiZHGQpmRxX2N1cgGnZHFfa2luZAKkZHFfbgCkcG9v"
        "bJKTAAAAkwEBAKV1c2luZ5LCw6dwZW5kaW5nkKdjaG9pY2VzkA=="
    ),
    "over": (
        "R0gAAd4AOKRtb2RlqHN0YW5kYXJkpXNlYXRzAqpkaWZmaWN1bHR5oKRnb2FsAKVydWxlc4utZm9vdF9kaWFnb25hbMO3cXVlc3Rf"
        "cnVsZV9ldmVyeV9yZWZpbGzDsW5pZ2h0X3F1ZXN0X2xpbWl0wrljb25qdXJlX2RhbWFnZV9sYXN0X3NwYWNlw7FleGhhdXN0ZWRf"
        "c2tpcHBlZMOxZGVmZW5kX2FueV9kYW1hZ2XDtmxlZ2VuZGFyeV9zdHJpY3Rfb3JkZXLDtXNpbmdsZV9sZWFybl9wZXJfcmVzdMK2"
        "Z2xvb21fc2V0dXBfYWdncmVzc2l2ZcO1dHJlYXN1cmVfcmV0dXJuX2JvbnVzw7VlbmRfY2FyZF9mbGlwc19nb2JsaW7CpHNpZGUA"
        "o3JuZ89UzaWPu+6H4aVjYXJkc9wAEQYPDgoLAgEAAwwIBBAJBQ0HpmdvYmxpbtwAEQEAAAIAAAAAAAABAQABAgABpGdkbWfcABEA"
        "AAAAAAAAAAAAAAAAAAAAAKZnY2xhaW3cABH//////////////////////6ZzdXBwbHkJpWhzbG90lgsFCQcMB6RocmVnlgEAAAAA"
        "AKVocHJvZ5YAAAAAAACmaGl0ZW1zlpCQkJCQkKZoZWFsdGiSBgOlcG93ZXKSAQKlc3BlbGySAACnZ29ibGluc5IAAKtxdWVzdHNf"
        "ZG9uZZKQkQWka2VwdJKQkKZsZWdlbmSSkwAAAJMAAACmc3RhdHVzkgEBpGhvbWWSBQeoaG9tZV9yZWeSAACqcXVlc3RfZGVja54C"
        "EQoAAQgXEg0VEAQDD6Nyb3eTCxYUp2Rpc2NhcmSWDA4TBwkGpWNvbG9ykgIApXJvdW5kBaVwaGFzZQKlbWFnaWMBpWZpcnN0AKd0"
        "b2tlbl9xw6R1c2VklcPCw8PDqXNvbG9fZGVja5Cnb3B0aW9uc5CkdHVybgSkY2FyZP+lYWN0b3IApWFjdGVkAKVtb3ZlZMKlc3Rh"
        "Z2UAp2luX3JvbGySwsOlcXR1cm6SwsKmaG9sZGVy/6Ryb2xslQAAAwQComRxkKZkcV9jdXIBp2RxX2tpbmQCpGRxX24ApHBvb2yS"
        "kwAAAJMAAACldXNpbmeSwsKncGVuZGluZ5CnY2hvaWNlc5A="
    ),
}
"""Snapshots (base64) of a seeded 2-seat standard match, written in the old encoding."""


@pytest.mark.parametrize("name", list(STORED))
def test_a_stored_snapshot_loads_and_re_encodes_to_the_same_bytes(name: str) -> None:
    stored = base64.b64decode(STORED[name])
    state = GAME.decode(stored)
    assert GAME.encode(state) == stored
    view = GAME.view(state, None)
    assert view["phase"] == state.phase and view["stage"] == state.stage
    assert view["gdmg"] == state.goblin_damage and view["hslot"] == state.hero_slot
    assert view["dq_cur"] == state.handout_seat and view["token_q"] == state.no_quest_by_day
    assert view["pending"] == [[d.seat, d.kind, d.value, d.extra] for d in state.pending]
    assert view["pool"] == [[p.torches, p.scrolls, p.attacks] for p in state.pool]
    again = GAME.determinize(view, 0, random.Random(1))  # a view's keys still name the state's fields
    assert GAME.view(again, None) == view


def test_the_stored_snapshots_decode_to_the_named_records() -> None:
    day = GAME.decode(base64.b64decode(STORED["day_with_pending"]))
    assert day.phase is Phase.DAY
    assert day.pending == [Decision(seat=1, kind=DecisionKind.GROTTO, value=4, extra=5)]
    handing_out = GAME.decode(base64.b64decode(STORED["night_handing_out"]))
    assert handing_out.phase is Phase.NIGHT and handing_out.stage is NightStage.DISTRIBUTE
    assert handing_out.handout == [0, 2, 2] and handing_out.handout_seat == 0
    assert handing_out.pending == [Decision(seat=1, kind=DecisionKind.DEFEND, value=1)]
    assert handing_out.pool == [RollSymbols(attacks=1), RollSymbols(attacks=1)]
    using = GAME.decode(base64.b64decode(STORED["night_using_roll"]))
    assert using.stage is NightStage.USE and using.pool[1] == RollSymbols(torches=1, scrolls=1)
    assert GAME.decode(base64.b64decode(STORED["over"])).phase is Phase.OVER


def test_the_enum_values_are_the_stored_ints() -> None:
    assert [p.value for p in Phase] == [0, 1, 2]
    assert [s.value for s in NightStage] == [0, 1, 2, 3]
    assert [(k.name, k.value) for k in DecisionKind] == [
        ("GAIN", 0), ("GROTTO", 1), ("QUEST", 2), ("EQUIP", 3), ("LEARN", 4), ("DEFEND", 5), ("PROVOKE", 6)
    ]
