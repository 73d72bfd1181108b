"""Rule flags (the spec's inferred readings, each defaulting to the spec) and match options."""

from __future__ import annotations

from collections.abc import Mapping

from gamehall.engine import Option
from gamehall.engine.protocol import JsonScalar
from gamehall.games.grimmoir.state import Rules

FLAGS: tuple[Option, ...] = (
    Option(
        "faction_exclusivity",
        "all",
        "AMB-1: 'all' = a faction picked by either player (main or supporting) is closed to the other; "
        "'none' = no exclusivity, each player recruits from their own copy of the cards",
        choices=("all", "none"),
    ),
    Option(
        "shift_choice",
        "owner",
        "AMB-2: when both side columns could shift to an empty centre, 'owner' = their owner chooses; "
        "'first_column' = column 1 shifts, no choice",
        choices=("owner", "first_column"),
    ),
    Option(
        "swap_columns",
        "every_destination",
        "AMB-3: 'every_destination' = a swap may not put a character into a column without opponent "
        "characters (swaps within one column always allowed); 'moves_only' = the restriction binds moves only",
        choices=("every_destination", "moves_only"),
    ),
    Option(
        "back_row_moves",
        True,
        "AMB-9 / G-MV-01: a move may target a blank space in the 2nd row (false: 1st-row blanks only)",
    ),
    Option(
        "coin_refill",
        "top_up",
        "G-NR-03: 'top_up' = a player below 5 coins takes coins up to 5, one holding more keeps them; "
        "'reset' = every player starts the round with exactly 5",
        choices=("top_up", "reset"),
    ),
    Option(
        "simultaneous_elimination",
        "draw",
        "AMB-6: when both sides lose their last character at once, 'draw', or 'active_player_wins' "
        "(the player whose action or turn caused it)",
        choices=("draw", "active_player_wins"),
    ),
    Option(
        "team_secrecy",
        "open",
        "AMB-8: 'open' = teams are recruited openly; 'secret' = each team stays hidden from the "
        "opponent until its characters are placed face up",
        choices=("open", "secret"),
    ),
)

OPTIONS: tuple[Option, ...] = (
    Option(
        "max_rounds",
        60,
        "designed safety (the book has no limit): after this many rounds the match ends in a draw, "
        "so two players who only pass cannot stall a server forever (1-500)",
        minimum=1,
        maximum=500,
    ),
)


def rules_from(flags: Mapping[str, JsonScalar], options: Mapping[str, JsonScalar]) -> Rules:
    return Rules(
        faction_exclusivity=str(flags["faction_exclusivity"]),
        shift_choice=str(flags["shift_choice"]),
        swap_columns=str(flags["swap_columns"]),
        back_row_moves=bool(flags["back_row_moves"]),
        coin_refill=str(flags["coin_refill"]),
        simultaneous_elimination=str(flags["simultaneous_elimination"]),
        team_secrecy=str(flags["team_secrecy"]),
        max_rounds=int(options["max_rounds"]),  # type: ignore[arg-type]
    )


def flags_of(rules: Rules) -> dict[str, JsonScalar]:
    return {
        "faction_exclusivity": rules.faction_exclusivity,
        "shift_choice": rules.shift_choice,
        "swap_columns": rules.swap_columns,
        "back_row_moves": rules.back_row_moves,
        "coin_refill": rules.coin_refill,
        "simultaneous_elimination": rules.simultaneous_elimination,
        "team_secrecy": rules.team_secrecy,
    }


def options_of(rules: Rules) -> dict[str, JsonScalar]:
    return {"max_rounds": rules.max_rounds}
