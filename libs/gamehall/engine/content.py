"""Content packs: game data (cards, characters, maps...) in JSON files validated by a schema.

Every entry carries its provenance (ARCHITECTURE.md, rule 5) so a designed value is never
presented as the publisher's. A pack's schema is a msgspec Struct type; loading validates
the file against it and fails with the file name and the path of the bad field.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Literal, TypeVar

import msgspec

T = TypeVar("T")

Source = Literal["rulebook", "inferred", "designed"]


class Provenance(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Where a value comes from.

    - ``rulebook``: printed in the rulebook; `ref` names the section (e.g. "C p.12 Items").
    - ``inferred``: deduced from a worked example; `ref` names it (e.g. "S-14 Bloodlust example").
    - ``designed``: the rulebook is silent; our own value, balanced by bot play; `ref` says how.
    """

    source: Source
    ref: str
    designed: tuple[str, ...] = ()
    """Fields of the entry whose values are our own design although the entry itself comes from
    the rulebook or an example (e.g. a stated spell whose EP cost the book never prints)."""

    def __post_init__(self) -> None:
        if not self.ref.strip():
            raise ValueError("provenance needs a ref: the rulebook section, the example, or the design note")
        if self.source == "designed" and self.designed:
            raise ValueError("a designed entry needs no list of designed fields: all of it is ours")


class ContentError(ValueError):
    """A content pack file is missing or does not match its schema."""


def load_pack(package: str, filename: str, schema: type[T]) -> T:
    """Load and validate `filename` shipped inside `package` (e.g. 'gamehall.games.grimmoir.content')."""
    try:
        data = resources.files(package).joinpath(filename).read_bytes()
    except FileNotFoundError as exc:
        raise ContentError(f"content file {package}/{filename} is missing") from exc
    return decode_pack(data, schema, f"{package}/{filename}")


def load_pack_file(path: Path, schema: type[T]) -> T:
    """Load a replacement pack from disk (owners of the physical game may swap packs)."""
    return decode_pack(path.read_bytes(), schema, str(path))


def decode_pack(data: bytes, schema: type[T], where: str) -> T:
    try:
        return msgspec.json.decode(data, type=schema)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ContentError(f"{where}: {exc}") from exc
