"""What Martha (and a spectator) sees, and the determinization bots search on: everything but the order of
the Encounter and Action decks and the generator (ARCHITECTURE rule 3)."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from gamehall.engine import JsonDict
from gamehall.games.grimm_world.catalog import ACTION_CARDS, ENCOUNTERS, ENEMIES, NEXT_CHAPTER, TIME_PASSES
from gamehall.games.grimm_world.field import battlefield
from gamehall.games.grimm_world.sheet import stats, weapons
from gamehall.games.grimm_world.state import State

_DERIVED = ("seat", "board", "martha", "enemies")


def view(s: State, seat: int | None, to_act: list[int]) -> JsonDict:
    data: dict[str, Any] = _lists(msgspec.to_builtins(s))
    del data["rng"]
    data["decks"]["encounter"] = len(s.decks.encounter)
    data["decks"]["action"] = len(s.decks.action)
    data["seat"] = seat
    data["to_act"] = to_act
    if s.journey is not None:
        data["deck"] = deck_view(s)
        data["here"] = _here(s)
    if s.fight is not None:
        board = battlefield(s.fight.conflict).board
        data["board"] = {
            "width": board.width,
            "height": board.height,
            "terrain": list(board.terrain),
            "lines": [[a, b, kind] for (a, b), kind in sorted(board.lines.items())],
            "spaces": [board.names.get(c, "") for c in range(board.width * board.height)],
        }
        data["enemies"] = [
            {
                "index": i,
                "name": ENEMIES[foe.number].name,
                "x": board.xy(foe.cell)[0],
                "y": board.xy(foe.cell)[1],
                "space": board.names.get(foe.cell, ""),
                "card": _card(foe.number),
            }
            for i, foe in enumerate(s.fight.foes)
        ]
        x, y = board.xy(s.fight.cell)
        data["martha"] = {
            "x": x,
            "y": y,
            "space": board.names.get(s.fight.cell, ""),
            "stats": stats(s.sheet),
            "weapons": [[w.key, w.range, w.damage, w.rate] for w in weapons(s.sheet)],
        }
    return data


def _lists(value: Any) -> Any:
    """JSON arrays as lists: `to_builtins` keeps the state's tuples (a menu's card-text lines), which are not
    arrays to a JSON schema validator or to a client comparing views."""
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_lists(v) for v in value]
    return value


def _card(number: str) -> JsonDict:
    """The Enemy Card as plain JSON (lists, not tuples): it lies face up, so all of it is public."""
    return msgspec.json.decode(msgspec.json.encode(ENEMIES[number]))  # type: ignore[no-any-return]


def deck_view(s: State) -> JsonDict:
    """What the campaign player knows of the Encounter Deck: which cards are in it (she saw every card leave
    and return), how deep the special card lies (she counts the cards cycled), and the top card's back (W-ED-08)."""
    cards = s.decks.encounter
    special = next((i for i, c in enumerate(cards) if c in (TIME_PASSES, NEXT_CHAPTER)), -1)
    top = next((c for c in cards if c not in (TIME_PASSES, NEXT_CHAPTER)), "")
    return {
        "cards": sorted(c for c in cards if c not in (TIME_PASSES, NEXT_CHAPTER)),
        "special": [cards[special], special] if special >= 0 else None,
        "top_back": ENCOUNTERS[top].landscape if top else "",
    }


def _here(s: State) -> JsonDict:
    from gamehall.games.grimm_world.atlas import location

    assert s.journey is not None
    loc = location(s.journey.regions, s.journey.location)
    return {"number": loc.number, "name": loc.name, "ids": list(loc.ids), "symbols": list(loc.symbols)}


def _campaign_deck(info: JsonDict, rng: random.Random) -> list[str]:
    """An Encounter Deck order consistent with `deck_view`."""
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
