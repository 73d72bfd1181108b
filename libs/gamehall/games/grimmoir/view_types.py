"""The typed shape of a GrimmoiR view: what `Grimmoir.view` returns, for either seat or a spectator.

`views.build_view` builds these Structs and the game returns `msgspec.to_builtins` of them, so
the catalog's JSON Schema (`msgspec.json.schema(GrimmoirView)`) is exact by construction.
Seat-indexed lists always hold two entries: index 0 is seat 0, index 1 is seat 1.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Phase = Literal["draft", "recruit", "display", "arrange", "battle", "over"]
Faction = Literal["humilitat", "animo", "avarum", "diligit", "ingenium"]
"""The five factions in Alliance Wheel order (neighbours on the wheel are allied)."""
DisplayPosition = Literal["A", "B", "C", "D", "E", "F"]
CharacterId = Annotated[str, msgspec.Meta(description="A character card id from the GrimmoiR content pack.")]


class GrimmoirFlags(msgspec.Struct, forbid_unknown_fields=True):
    """The rule flags the match was created with (readings of ambiguous rules; see the catalog's flag list)."""

    faction_exclusivity: Literal["all", "none"]
    shift_choice: Literal["owner", "first_column"]
    swap_columns: Literal["every_destination", "moves_only"]
    back_row_moves: bool
    coin_refill: Literal["top_up", "reset"]
    simultaneous_elimination: Literal["draw", "active_player_wins"]
    team_secrecy: Literal["open", "secret"]


class GrimmoirOptions(msgspec.Struct, forbid_unknown_fields=True):
    """The match options the match was created with."""

    max_rounds: Annotated[int, msgspec.Meta(ge=1, le=500, description="Rounds after which the match is a draw.")]


class UnitView(msgspec.Struct, forbid_unknown_fields=True):
    """A character on the battlefield with its counters (always public)."""

    character: CharacterId
    wounds: int
    strengthening: Annotated[int, msgspec.Meta(description="Strengthening counters on the character.")]
    weakening: Annotated[int, msgspec.Meta(description="Weakening counters on the character.")]
    exhausted: bool
    book: Annotated[
        Literal["open", "closed"] | None,
        msgspec.Meta(description="The character's book side, or null for a character without a book."),
    ]
    pens: Annotated[int, msgspec.Meta(description="Pen counters left on the character.")]


Side = Annotated[
    list[UnitView | None],
    msgspec.Meta(
        min_length=6,
        max_length=6,
        description="One seat's six battlefield slots, index row * 3 + column: row 0 is the front (1st) row, "
        "row 1 the back (2nd) row, columns 0..2 with 1 the centre; null is a blank space.",
    ),
]


class GrimmoirView(msgspec.Struct, forbid_unknown_fields=True):
    """What one seat (or a spectator) sees of a GrimmoiR duel.

    Hidden from the other seat: the step-5 face-down arrangement until both committed, and with the
    `team_secrecy=secret` flag the unplaced characters of a team (then `teams`/`hands` hold null for it).
    """

    game: Literal["grimmoir"]
    seat: Annotated[int | None, msgspec.Meta(description="The viewing seat (0 or 1), or null for a spectator.")]
    flags: GrimmoirFlags
    options: GrimmoirOptions
    phase: Phase
    step: Annotated[
        int,
        msgspec.Meta(
            description="Draft: 0..3 (first player's main, second's main, first's supporting, second's "
            "supporting). Display: 0..5 (positions A..F). Otherwise the last value reached."
        ),
    ]
    display_position: Annotated[
        DisplayPosition | None,
        msgspec.Meta(description="The display position being placed, during the display phase only."),
    ]
    first_player: Annotated[int, msgspec.Meta(description="The seat that held the first-player card at setup.")]
    initiative: Annotated[int, msgspec.Meta(description="The seat holding the first-player card now.")]
    turn: Annotated[int, msgspec.Meta(description="The seat whose battle turn it is.")]
    round: int
    to_act: Annotated[list[int], msgspec.Meta(description="Seats that must choose now, ascending.")]
    main_factions: Annotated[list[Faction | None], msgspec.Meta(description="Per seat; null until drafted.")]
    supporting_factions: Annotated[
        list[Faction | None], msgspec.Meta(description="Per seat; null until drafted, or when declined.")
    ]
    team_sizes: Annotated[list[int], msgspec.Meta(description="Characters recruited per seat.")]
    teams: Annotated[
        list[list[CharacterId] | None],
        msgspec.Meta(description="Recruited characters per seat in recruitment order; null when hidden from you."),
    ]
    hand_sizes: Annotated[list[int], msgspec.Meta(description="Recruited characters not yet placed, per seat.")]
    hands: Annotated[
        list[list[CharacterId] | None],
        msgspec.Meta(description="Characters not yet placed per seat, sorted; null when hidden from the viewer."),
    ]
    face_down_committed: Annotated[
        list[bool], msgspec.Meta(description="Per seat: whether it has committed its step-5 face-down arrangement.")
    ]
    my_face_down: Annotated[
        list[CharacterId] | None,
        msgspec.Meta(
            description="The viewer's own committed face-down characters for back-row columns 0..2 "
            "(until both seats committed); null for a spectator or before committing."
        ),
    ]
    board: Annotated[list[Side], msgspec.Meta(description="The battlefield: one side per seat.")]
    fallen: Annotated[list[list[CharacterId]], msgspec.Meta(description="Defeated characters per seat.")]
    coins: Annotated[list[int], msgspec.Meta(description="Coins per seat.")]
    passed: Annotated[list[bool], msgspec.Meta(description="Per seat: whether it has passed this round.")]
    pending_shift: Annotated[
        int | None,
        msgspec.Meta(description="A seat that must choose which side column shifts into its empty centre, or null."),
    ]
    round_ending: Annotated[
        bool, msgspec.Meta(description="End-of-round effects are resolved and a shift choice interrupted the close.")
    ]
    winner: Annotated[int, msgspec.Meta(description="-1 while the match runs, 0 or 1 the winning seat, 2 a draw.")]
    end_reason: Annotated[str, msgspec.Meta(description="Why the match ended; empty while it runs.")]
