"""Modes, match options (modules) and rule flags (readings of ambiguous rules, AMB-nn)."""

from __future__ import annotations

from gamehall.engine.protocol import Mode, Option

VERSUS = ("versus-1v1", "versus-ffa", "versus-teams", "versus-teams-3v3")
CREATURE_MODES = ("creature-duel", "witch-king")
CORE = (*VERSUS, "creature-duel")
TALL_TALE = "tall-tale"
CORE_RULES = (*CORE, TALL_TALE)
"""Modes played by the core duel rules (the Tall Tale's creature duels are core creature duels)."""
ADVANCED = ("advanced-duels", "witch-king")
CREATURE_CHOICES = ("random", "bandits", "chupacabra", "dune_wurm", "jackalope", "peyote_scorpion", "specter")

MODES = (
    Mode("versus-1v1", "Versus 1v1", (2,), "Core Versus duel for two Grimslingers."),
    Mode(
        "versus-ffa",
        "Versus free-for-all",
        tuple(range(2, 9)),
        "Every Grimslinger for themselves; target cards from 3 seats.",
    ),
    Mode(
        "versus-teams",
        "Versus teams 2v2",
        (4,),
        "Two teams of two, teammates seated alternately; one survivor wins for the team.",
        team_size=2,
    ),
    Mode(
        "versus-teams-3v3",
        "Versus teams 3v3",
        (6,),
        "Two teams of three, teammates seated alternately; one survivor wins for the team.",
        team_size=3,
    ),
    Mode(
        "advanced-duels",
        "Advanced Duels",
        (2,),
        "Two Standoff actions, reactivate 6, 3-choose-2 draft, FX in written order.",
    ),
    Mode(
        "creature-duel",
        "Creature duel",
        (1, 2, 3, 4),
        "Core rules, 1-4 Grimslingers together against an automated creature (C 'Creature Duels'), "
        "optionally with Attack-node modifiers. Designed (not in the book): the signature draft "
        "(deal 4, keep 2) and the co-op team reading (content readings).",
    ),
    Mode(
        "witch-king",
        "Witch King challenge",
        (1, 2, 3, 4),
        "Advanced Duels rules, 1-4 Grimslingers with three signature spells each against the "
        "simulated Witch King (AD 'Creature Duel').",
    ),
    Mode(
        TALL_TALE,
        "Tall Tale",
        (1, 2, 3, 4),
        "Solo or co-op adventure campaign (C 'Solo/Co-op Mode'): travel the Valley of Death map, "
        "resolve Landmark, Attack, Event and Rest nodes, duel its creatures, follow the story to the "
        "chapter's end; Easy / Normal / Hard / Impossible.",
    ),
)

OPTIONS = (
    Option(
        "items",
        False,
        "Item module: 40 regular items, scavenge field of 3 (C 'Item Deck & Scavenge Field').",
        modes=VERSUS,
    ),
    Option(
        "archetypes",
        False,
        "Archetype module: Daemon, Forgotten, Outlaw, Revenant, Vampyre, Witchborn.",
        modes=CORE,
    ),
    Option(
        "draft",
        "hidden",
        "Signature draft: hidden (deal 4, keep 2) or pass (3, keep 1, pass 2 left, keep 1).",
        choices=("hidden", "pass"),
        modes=VERSUS,
    ),
    Option("light_and_dark", False, "Shuffle LIGHT and DARK into the signature deck before the draft.", modes=VERSUS),
    Option(
        "creature",
        "random",
        "The creature to duel (random: drawn at setup, as an Attack node's roll would).",
        choices=CREATURE_CHOICES,
        modes=("creature-duel",),
    ),
    Option(
        "modifiers",
        0,
        "Attack-node creature modifiers drawn at random (R-211: Easy/Normal 1, Hard/Impossible 2).",
        choices=(0, 1, 2),
        modes=("creature-duel",),
    ),
    Option(
        "difficulty",
        "normal",
        "Witch King setting (printed on the card back; values designed except 2 players 20/20); "
        "Tall Tale: the difficulty table (A16.6: HP/EP, hand size, allowed defeats, revival, modifiers).",
        choices=("easy", "normal", "hard", "impossible"),
        modes=("witch-king", TALL_TALE),
    ),
)

FLAGS = (
    Option(
        "element_cycle",
        "A",
        "AMB-01: A = FIRE>ICE>WIND>FIRE, WATER>EARTH>LIGHTNING>WATER; "
        "B = WATER>ICE>WIND>WATER, FIRE>EARTH>LIGHTNING>FIRE.",
        choices=("A", "B"),
    ),
    Option("wind_water_damage", "1/2", "AMB-02: DMG of WIND/WATER (sum 3 is certain).", choices=("1/2", "2/1")),
    Option("amnesia_pile", "deactivate", "AMB-06: where Amnesia's lost cards go.", choices=("deactivate", "discard")),
    Option("blood_feast_pass_bonus", True, "AMB-10: Blood Feast also gains the +2 EP of passing."),
    Option("sacrifice_to_zero", False, "AMB-22: Sacrifice Health may take HP to 0."),
    Option(
        "reactivate_up_to", True, "AMB-42: Reactivate returns up to 5/6 cards (False: as many as possible, up to 5/6)."
    ),
    Option(
        "revenant_immediate",
        True,
        "AMB-12: the Revenant may revive as soon as HP hits 0 (False: only at the end-of-Aftermath check).",
    ),
    Option(
        "fx_netting",
        True,
        "AMB-36: simultaneous FX are netted per resource before clamping "
        "(False: applied in written order, clamped each step).",
        modes=CORE_RULES,
    ),
    Option(
        "equilibrium_copy_cost",
        True,
        "AMB-14: Equilibrium's copies pay the copied card's EP cost (False: their own card's).",
    ),
    Option("cheat_after_pass", True, "AMB-19: an Outlaw who passed may still Dirty Cheat.", modes=CORE_RULES),
    Option(
        "cheat_pays_spell_cost",
        True,
        "Reading: a Dirty-Cheated spell also costs its own EP (besides the 2 EP).",
        modes=CORE_RULES,
    ),
    Option(
        "ad_repeat_actions",
        True,
        "AMB-09: Advanced Duels allows repeating a non-Anima Standoff action.",
        modes=ADVANCED,
    ),
    Option("item_reshuffle", True, "AMB-21: an empty Versus item deck is rebuilt from the item discard.", modes=VERSUS),
    Option(
        "draw_in_turn_order",
        True,
        "R-111/R-115: core Draw Step Two is declared one seat at a time from the first player, so a "
        "later seat knows who passed (False: simultaneous secret choices, as in Advanced Duels).",
        modes=VERSUS,
    ),
    Option(
        "stalemate_turns",
        30,
        "Designed (the rulebooks are silent on endless duels): the duel ends when this many turns in "
        "a row end with no defeat and no new low of the standing seats' total HP; the survivors "
        "share the best rank (0 disables). It guarantees that every match ends, e.g. when every "
        "seat only times out and revivals or True Grit undo each hit (0-1000).",
        minimum=0,
        maximum=1000,
    ),
)

TEAM_SIZE: dict[str, int] = {m.id: m.team_size for m in MODES if m.team_size}
"""Seats per team of the team modes: the one source for `teams()`, seating and victory."""


def team_count(mode: str, seats: int) -> int:
    """Teams in a match: seats / team size in team modes, else one team per seat (creature duels
    seat their players as one side internally; see table.team_of)."""
    size = TEAM_SIZE.get(mode)
    return seats // size if size else seats
