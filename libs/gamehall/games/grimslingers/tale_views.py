"""The Tall Tale part of a view, and its reverse for determinization.

Public: the map position, story progress, group decision, activity queue, allowed defeats,
levels and perks, every stash (kept face up in the character space, our reading), the event and
number discards, the items waiting for an owner. Hidden: the order of the event, number and item
decks (sizes only), which `rebuild_tale` samples.
"""

from __future__ import annotations

import random
from typing import Any

from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers import view_types as vt
from gamehall.games.grimslingers.state import State
from gamehall.games.grimslingers.tale_content import EVENTS, LINKS, NODE_ID, NODES, TALE
from gamehall.games.grimslingers.tale_effects import hand_limit, tale_of
from gamehall.games.grimslingers.tale_state import Activity, Decision, DecisionKind, DuelKind, Member, Step, Tale
from gamehall.games.grimslingers.tale_story import objective

_EVENT_ID = {e.key: i for i, e in enumerate(EVENTS)}
_MODIFIER_ID = {m.key: i for i, m in enumerate(cat.MODIFIERS)}


def _node(i: int) -> str | None:
    return NODES[i].key if i >= 0 else None


def _keys(cards: list[int]) -> list[str]:
    return [cat.KEYS[c] for c in cards]


def tale_view(s: State) -> vt.TaleView:
    """The tale part of the view of a Tall Tale match (`s.tale` is set)."""
    t = tale_of(s)
    d = t.decision
    return vt.TaleView(
        difficulty=t.difficulty,
        chapter=TALE.chapters[t.chapter].key,
        chapter_index=t.chapter,
        part=t.part,
        objective=objective(s),
        node=NODES[t.node].key,
        node_type=NODES[t.node].type,
        links=[NODES[j].key for j in LINKS[t.node]],
        turn_start=_node(t.turn_start),
        last_start=_node(t.last_start),
        turn=t.turn,
        step=t.step.name.lower(),  # type: ignore[arg-type]
        stage=t.stage,
        defeats_left=t.defeats_left,
        members=[
            vt.MemberView(
                stash=_keys(m.stash),
                level=m.level,
                hand_bonus=m.hand_bonus,
                hand_limit=hand_limit(s, i),
                perks_due=list(m.perks_due),
                down=m.down,
                counted=m.counted,
            )
            for i, m in enumerate(t.members)
        ],
        decision=None
        if d is None
        else vt.DecisionView(
            kind=d.kind.name.lower(),  # type: ignore[arg-type]
            options=list(d.options),
            proposer=d.proposer,
            proposal=d.proposal,
            accepted=list(d.accepted),
            decider=d.decider,
            ref=d.ref,
        ),
        activity=t.activity.name.lower(),  # type: ignore[arg-type]
        queue=list(t.queue),
        used=t.used,
        moves=t.moves,
        event_deck_size=len(t.event_deck),
        event_discard=[EVENTS[e].key for e in t.event_discard],
        event=EVENTS[t.event].key if t.event >= 0 else None,
        numbers_size=len(t.numbers),
        numbers_seen=list(t.numbers_seen),
        sneaking=t.sneaking,
        loot=_keys(t.loot),
        behemoth=t.behemoth,
        award=_keys(t.award),
        duel=t.duel.name.lower(),  # type: ignore[arg-type]
        duel_part=t.duel_part,
        duel_creature=t.duel_creature,
        duel_modifiers=[cat.MODIFIERS[m].key for m in t.duel_mods],
        duel_outcome=t.duel_outcome,
        fled=list(t.fled),
        duels_won=t.duels_won,
        duels_before=t.duels_before,
        result=t.result,
    )


def _ids(keys: list[str]) -> list[int]:
    return [cat.ID[k] for k in keys]


def rebuild_tale(v: dict[str, Any], rng: random.Random) -> Tale:
    """A Tale matching the view, the event and number decks in a sampled order."""
    d = v["decision"]
    discard = [_EVENT_ID[k] for k in v["event_discard"]]
    current = _EVENT_ID[v["event"]] if v["event"] else -1
    deck = [i for i in range(len(EVENTS)) if i not in discard and i != current]
    rng.shuffle(deck)
    numbers = [n for n in range(1, TALE.numbers + 1) if n not in v["numbers_seen"]]
    rng.shuffle(numbers)
    return Tale(
        difficulty=v["difficulty"],
        chapter=v["chapter_index"],
        part=v["part"],
        node=NODE_ID[v["node"]],
        members=[
            Member(_ids(m["stash"]), m["level"], m["hand_bonus"], list(m["perks_due"]), m["down"], m["counted"])
            for m in v["members"]
        ],
        defeats_left=v["defeats_left"],
        step=Step[v["step"].upper()],
        turn=v["turn"],
        turn_start=NODE_ID[v["turn_start"]] if v["turn_start"] else -1,
        last_start=NODE_ID[v["last_start"]] if v["last_start"] else -1,
        decision=None
        if d is None
        else Decision(
            DecisionKind[d["kind"].upper()],
            list(d["options"]),
            d["proposer"],
            d["proposal"],
            list(d["accepted"]),
            d["decider"],
            d["ref"],
        ),
        activity=Activity[v["activity"].upper()],
        queue=list(v["queue"]),
        used=v["used"],
        event_deck=deck[: v["event_deck_size"]],
        event_discard=discard,
        event=current,
        numbers=numbers[: v["numbers_size"]],
        numbers_seen=list(v["numbers_seen"]),
        sneaking=v["sneaking"],
        loot=_ids(v["loot"]),
        behemoth=v["behemoth"],
        award=_ids(v["award"]),
        stage=v["stage"],
        moves=v["moves"],
        duel=DuelKind[v["duel"].upper()],
        duel_part=v["duel_part"],
        duel_creature=v["duel_creature"],
        duel_mods=[_MODIFIER_ID[k] for k in v["duel_modifiers"]],
        duel_outcome=v["duel_outcome"],
        fled=list(v["fled"]),
        duels_won=v["duels_won"],
        duels_before=v["duels_before"],
        result=v["result"],
    )


def stashed(s: State) -> set[int]:
    """Every card in a stash or waiting for an owner (public zones of the Tall Tale)."""
    if s.tale is None:
        return set()
    out = set(s.tale.award)
    for m in s.tale.members:
        out.update(m.stash)
    return out
