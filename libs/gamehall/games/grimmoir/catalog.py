"""The character catalog: the content pack loaded once at import, indexed for the engine.

Cards are referred to by their index in `CARDS` inside states (compact) and by their string
id in actions and views (readable). Factions are indices into `FACTIONS`, which lists them in
Alliance Wheel order, so two factions are allied exactly when their indices are neighbours mod 5.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.engine.content import ContentError, load_pack
from gamehall.games.grimmoir.content.schema import Character, CharacterPack, Skill, check_pack

FACTIONS: tuple[str, ...] = ("humilitat", "animo", "avarum", "diligit", "ingenium")
"""The Alliance Wheel, in ring order (G-TF-02): each faction is allied with its two neighbours."""

DAMAGE_TYPES: tuple[str, ...] = ("melee", "ranged", "magic")
MELEE, RANGED, MAGIC = 0, 1, 2
TEAM_SIZE = 6
MIN_MAIN = 4
MAX_SUPPORT = 2


def allied(a: int, b: int) -> bool:
    """True when factions `a` and `b` are neighbours on the Alliance Wheel."""
    return (a - b) % len(FACTIONS) in (1, len(FACTIONS) - 1)


def allies_of(faction: int) -> tuple[int, int]:
    n = len(FACTIONS)
    return ((faction - 1) % n, (faction + 1) % n)


@dataclass(frozen=True, slots=True)
class Card:
    """A character as the engine uses it: numbers as ints and skills grouped by trigger."""

    index: int
    id: str
    name: str
    faction: int
    attack: int
    damage: int
    strength: int
    has_book: bool
    pens: int
    special: Skill | None
    on_attack: tuple[Skill, ...]
    on_attacked: tuple[Skill, ...]
    end_of_round: tuple[Skill, ...]
    on_death: tuple[Skill, ...]
    passive: tuple[Skill, ...]
    source: Character


def _card(index: int, ch: Character) -> Card:
    def by(trigger: str) -> tuple[Skill, ...]:
        return tuple(s for s in ch.skills if s.trigger == trigger)

    specials = by("special")
    return Card(
        index=index,
        id=ch.id,
        name=ch.name,
        faction=FACTIONS.index(ch.faction),
        attack=ch.attack,
        damage=DAMAGE_TYPES.index(ch.damage),
        strength=ch.strength,
        has_book=ch.icon == "book",
        pens=ch.pens,
        special=specials[0] if specials else None,
        on_attack=by("on_attack"),
        on_attacked=by("on_attacked"),
        end_of_round=by("end_of_round"),
        on_death=by("on_death"),
        passive=by("passive"),
        source=ch,
    )


def build_catalog(pack: CharacterPack) -> tuple[Card, ...]:
    """Validate a pack beyond its schema and index it; raises ContentError on any problem."""
    problems = check_pack(pack)
    if problems:
        raise ContentError("characters.json: " + "; ".join(problems))
    return tuple(_card(i, ch) for i, ch in enumerate(pack.characters))


PACK: CharacterPack = load_pack("gamehall.games.grimmoir.content", "characters.json", CharacterPack)
CARDS: tuple[Card, ...] = build_catalog(PACK)
CARD_INDEX: dict[str, int] = {card.id: card.index for card in CARDS}
BY_FACTION: tuple[tuple[int, ...], ...] = tuple(
    tuple(card.index for card in CARDS if card.faction == f) for f in range(len(FACTIONS))
)
HAS_PASSIVE: frozenset[int] = frozenset(card.index for card in CARDS if card.passive)
