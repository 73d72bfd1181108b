"""Creature duels inside the Tall Tale: set up with the existing creature-duel machinery (the
creature seat is added for the duel), Flee, co-op revival at the next duel turn (R-263), and the
end of the duel: clean-up, defeats and rewards (A16.8, C 'End of Turn').
"""

from __future__ import annotations

from gamehall.engine.protocol import Action, Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import Flee, Organize, Trade
from gamehall.games.grimslingers.creatures import add_creature, start_duel
from gamehall.games.grimslingers.effects import remove_scourge
from gamehall.games.grimslingers.state import Phase, StandoffUse, State
from gamehall.games.grimslingers.tale_content import REWARDS, TALE
from gamehall.games.grimslingers.tale_effects import (
    _receive,
    draw_random,
    end_campaign,
    gain_level,
    setting,
    settle_defeats,
    take_named,
    tale_of,
)
from gamehall.games.grimslingers.tale_state import DuelKind, Step

WON, FLED, LOST, STALEMATE = "creature defeated", "fled", "all players defeated", "stalemate"


def roll_creature(rng: Rng) -> str:
    """An Attack node's roll on the map legend (R-242)."""
    return TALE.map.attack_roll[str(rng.below(6) + 1)]


def draw_modifiers(s: State, rng: Rng) -> list[int]:
    """Attack-node modifiers for the difficulty, drawn at random (A16.6)."""
    return sorted(rng.shuffled(list(range(len(cat.MODIFIERS))))[: setting(s).modifiers])


def start(s: State, kind: DuelKind, key: str, modifiers: list[int], events: list[Event], rng: Rng) -> None:
    """Seat the creature and open the duel's first Standoff; the players keep their HP/EP, hands
    and piles from the adventure."""
    t = tale_of(s)
    t.step, t.duel, t.fled = Step.DUEL, kind, []
    t.duel_creature, t.duel_mods, t.duel_outcome = key, list(modifiers), ""
    s.modifiers = list(modifiers)
    for i in range(s.players):
        _reset_seat(s, i, s.players + 1)
    add_creature(s, key, s.players, rng)
    s.phase = Phase.STANDOFF
    s.standoff_open = False
    s.turn, s.low_hp, s.calm, s.out_steps = 1, -1, 0, 0
    s.plays, s.pending, s.current_play = [], [], -1
    events.append(
        Event("duel", {"creature": key, "modifiers": [cat.MODIFIERS[m].key for m in modifiers], "kind": kind.name})
    )
    start_duel(s, events)


def _reset_seat(s: State, i: int, width: int) -> None:
    x = s.seats[i]
    x.aim, x.commit, x.acted, x.standoff_used, x.anima = -1, None, 0, StandoffUse.NONE, False
    x.surged = x.flare = x.dark = x.exalt = x.zeroed = False
    x.barrier, x.transmute, x.transmute_phase, x.specter_turn = 0, -1, -1, -1
    x.bloodlust_bonus, x.bloodlust_active, x.bloodlust_tally = 0, False, 0
    x.dealt = [0] * width
    x.out_step = -1


def standoff_extras(s: State, seat: int) -> list[Action]:
    """Tall Tale Standoff actions: Flee (Attack-node duels only, S-54), Organize, Trade."""
    t = tale_of(s)
    x = s.seats[seat]
    out: list[Action] = []
    if t.duel == DuelKind.ATTACK and seat not in t.fled:
        out.append(Flee())
    if x.hand or t.members[seat].stash:
        out.append(Organize())
    if any(cat.IS_ITEM[c] for c in x.hand) and any(s.seats[i].alive for i in range(s.players) if i != seat):
        out.append(Trade())
    return out


def everyone_fled(s: State) -> bool:
    """Every standing player chose Flee this turn (otherwise every Flee fails, AMB-43)."""
    t = tale_of(s)
    standing = [i for i in range(s.players) if s.seats[i].alive]
    return t.duel == DuelKind.ATTACK and bool(standing) and all(i in t.fled for i in standing)


def revive_fallen(s: State, events: list[Event]) -> bool:
    """Start of a duel turn: co-op players who fell are counted and revive (R-263). False: lost."""
    t = tale_of(s)
    t.fled = []
    for i in range(s.players):
        if not s.seats[i].alive:
            t.members[i].down = True
    if not any(m.down for m in t.members):
        return True
    back = [i for i, m in enumerate(t.members) if m.down]
    if not settle_defeats(s, events):
        return False
    for i in back:
        _reset_seat(s, i, s.n)
    return True


def finish(s: State, reason: str) -> None:
    """The duel is over (creature down, everyone down, everyone fled, or the stalemate rule):
    clear the creature space at once; the adventure settles defeats and rewards next."""
    t = tale_of(s)
    c = s.creature
    if s.scourge_card >= 0 or s.scourge_on >= 0:
        remove_scourge(s)
    s.seats.pop(c)
    s.creature, s.n, s.first_player = -1, c, 0
    s.creature_key, s.creature_deck, s.modifiers = "", [], []
    s.plays, s.pending, s.prompts, s.picking = [], [], [], None
    s.current, s.current_play, s.instant = -1, -1, []
    for i in range(s.players):
        if not s.seats[i].alive:
            t.members[i].down = True
        _reset_seat(s, i, s.players)
    s.phase = Phase.ADVENTURE
    t.duel_outcome = reason


def after(s: State, events: list[Event], rng: Rng) -> None:
    """Defeats first (the campaign may end), then the rewards of a won duel: the portrait's items
    and the ritual item (even from the discard), modifiers' extra items, levels (R-255)."""
    t = tale_of(s)
    outcome, kind = t.duel_outcome, t.duel
    events.append(Event("duel_over", {"creature": t.duel_creature, "outcome": outcome}))
    if not settle_defeats(s, events):
        return
    chapter = t.chapter
    if outcome == WON:
        reward = REWARDS[t.duel_creature]
        creature = cat.CREATURES[cat.CREATURE_ID[t.duel_creature]]
        extra = sum(cat.MODIFIERS[m].items for m in t.duel_mods)
        count = reward.items + extra - (1 if creature.ritual_item else 0)
        if creature.ritual_item:
            ritual = take_named(s, creature.ritual_item.lower().replace(" ", "_"), rng)
            if ritual >= 0:
                _receive(s, -1, ritual, events)
        for _ in range(count):
            card = draw_random(s, rng)
            if card >= 0:
                _receive(s, -1, card, events)
        for i in range(s.players):
            gain_level(s, i, reward.levels, events)
        t.duels_won += 1
        if kind == DuelKind.STORY:
            _story_won(s, events)
            if s.phase == Phase.OVER:
                return
    t.duel, t.duel_creature, t.duel_mods, t.duel_outcome, t.fled = DuelKind.NONE, "", [], "", []
    t.duel_part = -1
    if t.chapter == chapter:  # a story duel that ended the chapter: the next one starts with its Narrative
        t.step = Step.NODE


def _story_won(s: State, events: list[Event]) -> None:
    from gamehall.games.grimslingers.tale_story import complete_part

    t = tale_of(s)
    complete_part(s, t.duel_part, events)


def give_up(s: State) -> None:
    """The duel cannot go on (no player can ever act): count it as lost."""
    end_campaign(s, False, "the posse fell")
