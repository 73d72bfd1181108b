"""The story booklet (A16.3): parts read in order when their PREREQUISITE is met (R-236, S-56),
their ACTIONS resolved, chapter end (R-246) and the campaign's end."""

from __future__ import annotations

from gamehall.engine.protocol import Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers.content.tale_schema import Chapter, Part
from gamehall.games.grimslingers.state import State
from gamehall.games.grimslingers.tale_content import DIFFICULTIES, NODE_ID, NODES, TALE
from gamehall.games.grimslingers.tale_effects import apply, end_campaign, tale_of


def chapter(s: State) -> Chapter:
    return TALE.chapters[tale_of(s).chapter]


def progress(s: State) -> float:
    """How much of the campaign is done, in [0, 1]: story parts completed over all chapters."""
    t = tale_of(s)
    total = sum(len(c.parts) for c in TALE.chapters)
    done = sum(len(c.parts) for c in TALE.chapters[: t.chapter]) + min(t.part, len(chapter(s).parts))
    return done / total if total else 0.0


def next_part(s: State) -> Part | None:
    parts = chapter(s).parts
    t = tale_of(s)
    return parts[t.part] if t.part < len(parts) else None


def met(s: State, part: Part) -> bool:
    """Every condition of the PREREQUISITE holds (node, node type, duels won)."""
    t = tale_of(s)
    if part.at_node is not None and t.node != NODE_ID[part.at_node]:
        return False
    if part.at_type and NODES[t.node].type not in part.at_type:
        return False
    return t.duels_won - t.duels_before >= part.duels_won


def narrative(s: State, events: list[Event], rng: Rng) -> str | None:
    """Read the next part if its prerequisite is met and resolve its actions. Returns the creature
    key of a story duel the part starts (the part completes only when that duel is won)."""
    part = next_part(s)
    if part is None or not met(s, part):
        return None
    t = tale_of(s)
    events.append(Event("story", {"part": part.key, "text": part.text, "objective": part.objective}))
    duel = next((e for e in part.actions if e.op == "duel"), None)
    apply(s, [e for e in part.actions if e.op != "duel"], list(range(s.players)), events, rng)
    if duel is not None:
        t.duel_part = t.part
        return duel.name or ""
    complete_part(s, t.part, events)
    return None


def complete_part(s: State, index: int, events: list[Event]) -> None:
    t = tale_of(s)
    part = chapter(s).parts[index]
    t.part = index + 1
    if part.ends_chapter:
        end_chapter(s, events)


def end_chapter(s: State, events: list[Event]) -> None:
    """R-246: every discarded and deactivated card returns to hand; then the next chapter, or the
    campaign is won."""
    t = tale_of(s)
    for i in range(s.players):
        x = s.seats[i]
        x.hand += x.discard + x.deact
        x.discard, x.deact = [], []
    events.append(Event("chapter_end", {"chapter": chapter(s).key}))
    if t.chapter + 1 >= len(TALE.chapters):
        end_campaign(s, True, "the tale is told")
        return
    start_chapter(s, t.chapter + 1, events)


def start_chapter(s: State, index: int, events: list[Event]) -> None:
    """R-236: the group starts the next chapter: its setup (the piece on its start node), the
    difficulty kept or changed (R-259: a group decision, DecisionKind.DIFFICULTY), then a new
    Narrative phase (the adventure resumes at Step.NARRATIVE, wherever the chapter ended: in
    the Narrative phase itself or in a story duel).

    Reading: the allowed defeats are counted per chapter (they are the difficulty's, and the
    difficulty is chosen per chapter; R-235 plays "until the chapter is complete or the allowed
    defeats run out"; R-066 lets a group start at any chapter), so they are restored here."""
    from gamehall.games.grimslingers.tale_nodes import open_decision
    from gamehall.games.grimslingers.tale_state import DecisionKind, Step

    t = tale_of(s)
    t.chapter = index
    t.part = 0
    t.node = t.turn_start = NODE_ID[chapter(s).start]
    t.last_start = -1
    t.turn = 1
    t.duels_before = t.duels_won
    t.defeats_left = TALE.difficulties[t.difficulty].defeats
    t.step, t.stage = Step.NARRATIVE, 0
    events.append(Event("chapter", {"chapter": chapter(s).key, "name": chapter(s).name}))
    open_decision(s, DecisionKind.DIFFICULTY, list(range(len(DIFFICULTIES))))


def change_difficulty(s: State, key: str, events: list[Event]) -> None:
    """R-259: a new difficulty from this chapter on: its hand limit, modifiers and revival at
    once; max HP/EP move by the difference of the HP/EP adjustments (HP/EP with them, at least 1);
    the chapter's allowed defeats are the new difficulty's (see `start_chapter`)."""
    t = tale_of(s)
    old, new = TALE.difficulties[t.difficulty], TALE.difficulties[key]
    if key == t.difficulty:
        return
    delta = new.hp_ep_adjust - old.hp_ep_adjust
    for i in range(s.players):
        x = s.seats[i]
        x.max_hp, x.max_ep = max(1, x.max_hp + delta), max(1, x.max_ep + delta)
        x.hp = max(1, min(x.max_hp, x.hp + delta)) if x.hp > 0 else x.hp
        x.ep = max(0, min(x.max_ep, x.ep + delta))
    t.defeats_left = new.defeats
    events.append(Event("difficulty", {"from": t.difficulty, "to": key}))
    t.difficulty = key


def objective(s: State) -> str:
    t = tale_of(s)
    parts = chapter(s).parts
    return parts[t.part - 1].objective if 0 < t.part <= len(parts) else ""


def target_node(s: State) -> int:
    """Where the next part wants the group (bots head there): its node, else a node of its type."""
    part = next_part(s)
    if part is None:
        return -1
    if part.at_node is not None:
        return NODE_ID[part.at_node]
    if part.at_type:
        return next(i for i, n in enumerate(NODES) if n.type in part.at_type and i != tale_of(s).node)
    return -1
