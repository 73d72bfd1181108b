"""What Martha (and a spectator) sees, and the determinization bots search on: everything but the order of
the Encounter and Action decks and the generator (ARCHITECTURE rule 3)."""

from __future__ import annotations

import random

import msgspec

from gamehall.engine import JsonDict
from gamehall.games.grimm_world.catalog import ACTION_CARDS, ENCOUNTERS, ENEMIES, NEXT_CHAPTER, TIME_PASSES
from gamehall.games.grimm_world.field import battlefield
from gamehall.games.grimm_world.sheet import stats, weapons
from gamehall.games.grimm_world.state import State
from gamehall.games.grimm_world.view_types import (
    BoardView,
    CampaignView,
    DecksView,
    EncounterDeckView,
    EnemyView,
    LocationView,
    MarthaView,
    SkirmishView,
)

_DERIVED = ("seat", "board", "martha", "enemies")


def view(s: State, seat: int | None, to_act: list[int]) -> SkirmishView | CampaignView:
    """The typed view of `seat` (None: a spectator): the same for both, as only deck orders are secret."""
    d = s.decks
    decks = DecksView(
        encounter=len(d.encounter),
        aside=d.aside,
        action=len(d.action),
        surfaced=d.surfaced,
        chapter_due=d.chapter_due,
        cycles=d.cycles,
    )
    board, enemies, martha = _fight_parts(s) if s.fight is not None else (msgspec.UNSET, msgspec.UNSET, msgspec.UNSET)
    if s.journey is None:
        assert s.fight is not None and board is not msgspec.UNSET, "a skirmish is always in a fight"
        return SkirmishView(
            conflict=s.conflict,
            chapter=s.chapter,
            sheet=s.sheet,
            decks=decks,
            fight=s.fight,
            last_fate=s.last_fate,
            steps=s.steps,
            journey=None,
            seat=seat,  # type: ignore[arg-type]
            to_act=to_act,
            board=board,
            enemies=enemies,  # type: ignore[arg-type]
            martha=martha,  # type: ignore[arg-type]
            round_limit=s.round_limit,
        )
    return CampaignView(
        conflict=s.conflict,
        chapter=s.chapter,
        sheet=s.sheet,
        decks=decks,
        fight=s.fight,
        last_fate=s.last_fate,
        steps=s.steps,
        journey=s.journey,
        seat=seat,  # type: ignore[arg-type]
        to_act=to_act,
        deck=deck_view(s),
        here=_here(s),
        round_limit=s.round_limit,
        board=board,
        enemies=enemies,
        martha=martha,
    )


def to_json_builtins(typed: SkirmishView | CampaignView) -> JsonDict:
    """The view as the JSON its clients get, decoded: unlike `msgspec.to_builtins`, the content records'
    tuples (card-text lines, Enemy Card action lines) come out as lists, as JSON arrays do."""
    return _DECODER.decode(_ENCODER.encode(typed))  # type: ignore[no-any-return]


_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder()


def _fight_parts(s: State) -> tuple[BoardView, list[EnemyView], MarthaView]:
    """The battlefield, the enemy figures with their face-up cards and Martha's figure (all public)."""
    assert s.fight is not None
    board = battlefield(s.fight.conflict).board
    names = board.names
    board_view = BoardView(
        width=board.width,
        height=board.height,
        terrain=board.terrain,  # type: ignore[arg-type]
        lines=[(a, b, kind) for (a, b), kind in sorted(board.lines.items())],  # type: ignore[misc]
        spaces=[names.get(c, "") for c in range(board.width * board.height)],
    )
    enemies = []
    for i, foe in enumerate(s.fight.foes):
        x, y = board.xy(foe.cell)
        card = ENEMIES[foe.number]
        enemies.append(EnemyView(index=i, name=card.name, x=x, y=y, space=names.get(foe.cell, ""), card=card))
    x, y = board.xy(s.fight.cell)
    martha = MarthaView(
        x=x,
        y=y,
        space=names.get(s.fight.cell, ""),
        stats=stats(s.sheet),  # type: ignore[arg-type]
        weapons=[(w.key, w.range, w.damage, w.rate) for w in weapons(s.sheet)],
    )
    return board_view, enemies, martha


def deck_view(s: State) -> EncounterDeckView:
    """What the campaign player knows of the Encounter Deck: which cards are in it (she saw every card leave
    and return), how deep the special card lies (she counts the cards cycled), and the top card's back (W-ED-08)."""
    cards = s.decks.encounter
    special = next((i for i, c in enumerate(cards) if c in (TIME_PASSES, NEXT_CHAPTER)), -1)
    top = next((c for c in cards if c not in (TIME_PASSES, NEXT_CHAPTER)), "")
    return EncounterDeckView(
        cards=sorted(c for c in cards if c not in (TIME_PASSES, NEXT_CHAPTER)),
        special=(cards[special], special) if special >= 0 else None,
        top_back=ENCOUNTERS[top].landscape if top else "",
    )


def _here(s: State) -> LocationView:
    from gamehall.games.grimm_world.atlas import location

    assert s.journey is not None
    loc = location(s.journey.regions, s.journey.location)
    return LocationView(number=loc.number, name=loc.name, ids=list(loc.ids), symbols=list(loc.symbols))


def _campaign_deck(info: JsonDict | EncounterDeckView, rng: random.Random) -> list[str]:
    """An Encounter Deck order consistent with `deck_view` (typed, or as a view's JSON)."""
    if isinstance(info, EncounterDeckView):
        info = msgspec.structs.asdict(info)
    cards = list(info["cards"])
    rng.shuffle(cards)
    back = info["top_back"]
    first = next((i for i, c in enumerate(cards) if ENCOUNTERS[c].landscape == back), 0)
    if cards:
        cards.insert(0, cards.pop(first))
    if info["special"] is not None:
        card, at = info["special"]
        cards.insert(at, card)
    return cards


def determinize(data: JsonDict, rng: random.Random) -> State:
    """A full state consistent with a view: deck orders sampled, a fresh generator."""
    raw = {k: v for k, v in data.items() if k not in _DERIVED and k not in ("to_act", "deck", "here")}
    decks = dict(raw["decks"])
    if raw.get("journey") is not None:
        decks["encounter"] = _campaign_deck(data["deck"], rng)
    else:
        held = set(raw["sheet"]["goods"])
        in_deck = [k for k in sorted(ENCOUNTERS) if k.startswith("B") and k not in held]
        in_deck += [c for c in (TIME_PASSES, NEXT_CHAPTER) if c not in decks["aside"]]
        rng.shuffle(in_deck)
        decks["encounter"] = in_deck
    owned = set(raw["sheet"]["hand"]) | set(raw["sheet"]["damaged"])
    if raw.get("fight"):
        owned |= set(raw["fight"]["discard"])
    action = [k for k in sorted(ACTION_CARDS) if k not in owned]
    rng.shuffle(action)
    decks["action"] = action[: data["decks"]["action"]]
    raw["decks"] = decks
    raw["rng"] = rng.getrandbits(64)
    return msgspec.convert(raw, State)


def resample_hidden(s: State, copy: State, rng: random.Random) -> State:
    if copy.journey is not None:
        copy.decks.encounter = _campaign_deck(deck_view(s), rng)
    else:
        rng.shuffle(copy.decks.encounter)
    rng.shuffle(copy.decks.action)
    copy.rng = rng.getrandbits(64)
    return copy
