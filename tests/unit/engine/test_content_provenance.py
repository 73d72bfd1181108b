"""Every content entry of every game says where it comes from, and never passes our values off as the book's."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from gamehall.engine.content import Provenance

CONTENT = sorted(Path(__file__).resolve().parents[3].joinpath("libs/gamehall/games").glob("*/content/*.json"))


def _entries(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if "provenance" in node:
            yield node
        for value in node.values():
            yield from _entries(value)
    elif isinstance(node, list):
        for value in node:
            yield from _entries(value)


def test_there_is_content() -> None:
    assert len(CONTENT) >= 6


@pytest.mark.parametrize("path", CONTENT, ids=[f"{p.parent.parent.name}/{p.name}" for p in CONTENT])
def test_provenance_is_honest(path: Path) -> None:
    entries = list(_entries(json.loads(path.read_text())))
    assert entries, f"{path} has no entry with a provenance"
    for entry in entries:
        prov = msgspec.convert(entry["provenance"], Provenance)
        name = entry.get("key") or entry.get("id") or entry.get("name")
        if prov.source != "designed" and re.search(r"\bdesign", prov.ref, re.IGNORECASE):
            assert prov.designed, f"{path.name} {name}: the ref mentions designed values; list them in `designed`"
        missing = [f for f in prov.designed if f not in entry]
        assert not missing, f"{path.name} {name}: `designed` names fields the entry lacks: {missing}"


def test_a_designed_entry_does_not_list_designed_fields() -> None:
    with pytest.raises(ValueError, match="all of it is ours"):
        Provenance("designed", "balanced by bots", ("rn",))
