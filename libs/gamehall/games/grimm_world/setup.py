"""A new skirmish: Martha's sheet for the chapter, the decks, and the battlefield of one Conflict Card (W-CB-03..05)."""

from __future__ import annotations

from gamehall.engine import ConfigError, Event, Rng
from gamehall.games.grimm_world import ally, choices, enemy_ai  # noqa: F401  (register their steps with the runner)
from gamehall.games.grimm_world.catalog import ACTION_CARDS, CHARACTERS, CONFLICTS, loadout_for
from gamehall.games.grimm_world.combat import run, set_prompt, start_character_phase
from gamehall.games.grimm_world.context import Ctx, new_foe
from gamehall.games.grimm_world.decks import new_decks
from gamehall.games.grimm_world.field import battlefield
from gamehall.games.grimm_world.sheet import check_equipment, combat_loadouts, stats
from gamehall.games.grimm_world.state import COLORS, P_EQUIP, Fight, FightPhase, Sheet, State, Task


def skirmish_sheet(chapter: int, rng: Rng) -> tuple[Sheet, list[str]]:
    """Martha as the chapter's loadout has her, holding Constitution Action Cards: the 4 starting ones plus
    cards from the top of the shuffled Action deck (AMB-24). Returns the sheet and the rest of the deck."""
    martha = CHARACTERS["martha"]
    loadout = loadout_for(chapter)
    sheet = Sheet("martha", list(loadout.upgrades), list(loadout.skills), list(loadout.equipped), list(loadout.stored),
                  list(martha.starting_cards))
    check_equipment(sheet, sheet.equipped, sheet.stored)
    deck = rng.shuffled(sorted(k for k in ACTION_CARDS if k not in martha.starting_cards))
    extra = max(0, stats(sheet)["constitution"] - len(sheet.hand))
    sheet.hand += deck[:extra]
    return sheet, deck[extra:]


def new_fight(conflict: str, chapter: int, sheet: Sheet) -> Fight:
    """Figures placed from the placement table column of the chapter, each enemy at full HP, unspent (W-CB-03/04)."""
    definition = CONFLICTS[conflict]
    board = battlefield(conflict).board
    column = next((p for p in definition.placements if p.chapters[0] <= chapter <= p.chapters[1]), None)
    if column is None:
        raise ConfigError(f"{conflict} has no placement table for chapter {chapter}")
    foes = [new_foe(number, COLORS[k], board.cell_of(space), k) for k, (number, space) in enumerate(column.enemies)]
    fight = Fight(conflict=conflict, cell=board.cell_of(column.character), foes=foes)
    if sheet.ally:  # W-CO-06, designed (ally.py)
        fight.ally = ally.place_ally(fight, sheet.ally, board, dict(definition.compass))
    return fight


def new_state(conflict: str, chapter: int, seed: int, round_limit: int = 0, companion: str = "") -> State:
    rng = Rng(seed)
    sheet, action_deck = skirmish_sheet(chapter, rng)
    sheet.ally = companion
    decks = new_decks(rng, action_deck)
    s = State("skirmish", conflict, chapter, rng.state, sheet, decks, round_limit=round_limit)
    start_fight(s, conflict, chapter)
    return s


def start_fight(s: State, conflict: str, tier: int) -> list[Event]:
    """Put a fight on the battlefield of `conflict` (placement column of chapter `tier`) and run it to Martha's
    first decision: the enemies act first if the card says so (W-CB-05)."""
    s.fight = new_fight(conflict, tier, s.sheet)
    ctx = Ctx(s)
    if CONFLICTS[conflict].initiative == "enemies":
        ctx.f.phase = FightPhase.ENEMY
        ctx.then(Task("enemy_phase"))  # the first Character Phase is skipped (W-CB-05)
    else:
        start_character_phase(ctx)
        if combat_loadouts(s.sheet):
            set_prompt(ctx, P_EQUIP)
    run(ctx)
    return ctx.close()
