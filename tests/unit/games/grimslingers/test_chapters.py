"""Item 4 of issue 40: a campaign of three chapters, so R-236 and R-259 run.

R-236: after a chapter ends the next one starts with its Narrative phase. R-259: the difficulty
may change at the start of each chapter (a group decision, DecisionKind.DIFFICULTY).
"""

from __future__ import annotations

from gamehall.games.grimslingers import GAME
from gamehall.games.grimslingers.actions import Accept, Propose
from gamehall.games.grimslingers.state import Phase, State
from gamehall.games.grimslingers.tale_content import DIFFICULTIES, TALE
from gamehall.games.grimslingers.tale_duel import WON, finish
from gamehall.games.grimslingers.tale_state import DecisionKind, DuelKind, Step

from .tale_builders import act, advance, place, t_of, tale


def _end_chapter_one(players: int, difficulty: str) -> tuple[State, list[object]]:
    """The chapter's last part is a story duel (the Specter of the Hollow): start it, win it."""
    s = tale(players, difficulty)
    last = len(TALE.chapters[0].parts) - 1
    place(s, "hollow", step=Step.NARRATIVE, part=last)
    assert s.phase == Phase.STANDOFF and t_of(s).duel == DuelKind.STORY
    finish(s, WON)
    return s, list(advance(s))


def test_content_has_three_chapters_tagged_designed() -> None:
    """Item 4: chapters 2 and 3 are content, tagged `designed`."""
    assert len(TALE.chapters) == 3
    for chapter in TALE.chapters[1:]:
        assert chapter.provenance.source == "designed" and chapter.parts[-1].ends_chapter
        assert sum(p.ends_chapter for p in chapter.parts) == 1


def test_R_236_the_next_chapter_starts_with_its_narrative_phase() -> None:
    """R-236 (item 4): a story duel ended chapter 1; chapter 2 starts on its start node, first
    the difficulty decision, then its Narrative phase (its first part is read), not the node."""
    s, events = _end_chapter_one(1, "normal")
    t = t_of(s)
    kinds = [e.kind for e in events]  # type: ignore[attr-defined]
    assert "chapter_end" in kinds and "chapter" in kinds
    assert t.chapter == 1 and t.part == 0 and t.step == Step.NARRATIVE
    assert t.node == t.turn_start and TALE.map.nodes[t.node].key == TALE.chapters[1].start
    assert t.decision is not None and t.decision.kind == DecisionKind.DIFFICULTY
    s, events2 = act(s, 0, Propose(DIFFICULTIES.index("normal")))
    for _ in range(20):  # the duel's level rewards: perks are chosen first
        if any(e.kind == "story" for e in events2) or t_of(s).step != Step.NARRATIVE:
            break
        seat = min(GAME.to_act(s))
        s, events2 = act(s, seat, GAME.default_action(s, seat))  # type: ignore[arg-type]
    story = [e for e in events2 if e.kind == "story"]
    assert story and story[0].data["part"] == TALE.chapters[1].parts[0].key
    assert t_of(s).part == 1 and t_of(s).chapter == 1 and TALE.map.nodes[t_of(s).node].key == TALE.chapters[1].start


def test_R_259_the_difficulty_may_change_at_a_chapter_start() -> None:
    """R-259 (item 4): the group agrees on a new difficulty; its hand limit, HP/EP adjustment and
    allowed defeats apply from then on."""
    s, _ = _end_chapter_one(2, "normal")
    t = t_of(s)
    d = t.decision
    assert d is not None and d.kind == DecisionKind.DIFFICULTY and d.options == [0, 1, 2, 3]
    before = [(x.max_hp, x.max_ep) for x in s.seats[: s.players]]
    s, _ = act(s, d.proposer, Propose(DIFFICULTIES.index("hard")))
    s, events = act(s, 1 - d.proposer, Accept())
    t = t_of(s)
    assert t.difficulty == "hard" and any(e.kind == "difficulty" for e in events)
    assert [(x.max_hp, x.max_ep) for x in s.seats[: s.players]] == [(h - 1, e - 1) for h, e in before]
    assert t.defeats_left == 1  # the chapter's allowed defeats are hard's
    assert GAME.view(s, 0)["tale"]["members"][0]["hand_limit"] == 6


def test_R_259_keeping_the_difficulty_changes_nothing() -> None:
    """R-259: keeping the difficulty is the default answer (the bots keep it)."""
    s, _ = _end_chapter_one(1, "easy")
    before = [(x.max_hp, x.max_ep, x.hp) for x in s.seats[: s.players]]
    action = GAME.default_action(s, 0)
    assert action == Propose(DIFFICULTIES.index("easy"))
    s, _ = act(s, 0, action)
    assert t_of(s).difficulty == "easy" and [(x.max_hp, x.max_ep, x.hp) for x in s.seats[: s.players]] == before


def test_the_last_chapter_ends_the_campaign_won() -> None:
    """R-246: the third chapter's end is the campaign's victory."""
    s = tale(1, "easy")
    t_of(s).chapter = 2
    last = len(TALE.chapters[2].parts) - 1
    place(s, "hollow", step=Step.NARRATIVE, part=last)
    assert s.phase == Phase.STANDOFF and t_of(s).duel == DuelKind.STORY
    finish(s, WON)
    advance(s)
    outcome = GAME.outcome(s)
    assert s.phase == Phase.OVER and outcome is not None and outcome.ranks == (1,)
    assert s.reason == "the tale is told"
