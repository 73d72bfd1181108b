"""Phase I, team formation: the faction draft on the Alliance Wheel and recruiting six characters.

Draft order (G-TF-04): P1 main, P2 main, P1 supporting, P2 supporting, where P1 holds the
first-player card. Recruiting is done by both players at once, one character per action.
"""

from __future__ import annotations

from gamehall.engine import Action, Event, IllegalAction
from gamehall.games.grimmoir.actions import DeclineSupport, PickFaction, Recruit
from gamehall.games.grimmoir.catalog import (
    BY_FACTION,
    CARD_INDEX,
    CARDS,
    FACTIONS,
    MAX_SUPPORT,
    TEAM_SIZE,
    allies_of,
)
from gamehall.games.grimmoir.state import Phase, State


def drafter(state: State) -> int:
    """The seat picking at the current draft step."""
    return state.first if state.step % 2 == 0 else 1 - state.first


def taken_factions(state: State, seat: int) -> set[int]:
    """Factions closed to `seat` because the opponent picked them (AMB-1), empty without exclusivity."""
    if state.rules.faction_exclusivity == "none":
        return set()
    foe = 1 - seat
    return {f for f in (state.mains[foe], state.supports[foe]) if f >= 0}


def legal_main(state: State, seat: int) -> list[int]:
    taken = taken_factions(state, seat)
    return [f for f in range(len(FACTIONS)) if f not in taken]


def legal_supporting(state: State, seat: int) -> list[int]:
    """Supporting factions open to `seat`: allied to its main faction and not taken (SC-G03)."""
    taken = taken_factions(state, seat)
    return sorted(f for f in allies_of(state.mains[seat]) if f not in taken)


def draft_actions(state: State, seat: int) -> list[Action]:
    if seat != drafter(state):
        return []
    if state.step < 2:
        return [PickFaction(FACTIONS[f]) for f in legal_main(state, seat)]
    return [DeclineSupport(), *(PickFaction(FACTIONS[f]) for f in legal_supporting(state, seat))]


def apply_draft(state: State, seat: int, action: Action, events: list[Event]) -> None:
    if isinstance(action, PickFaction):
        faction = FACTIONS.index(action.faction)
        if state.step < 2:
            state.mains[seat] = faction
            events.append(Event("main_faction", {"seat": seat, "faction": action.faction}))
        else:
            state.supports[seat] = faction
            events.append(Event("supporting_faction", {"seat": seat, "faction": action.faction}))
    else:
        events.append(Event("supporting_faction", {"seat": seat, "faction": None}))
    state.step += 1
    if state.step == 4:
        state.phase = Phase.RECRUIT
        state.step = 0


def recruitable(state: State, seat: int) -> list[int]:
    """Cards `seat` may add now: its main faction, or its supporting one while under the 2-card cap
    (G-TF-07/08: with 6 cards and at most 2 supporting, at least 4 are main)."""
    team = state.teams[seat]
    if len(team) >= TEAM_SIZE:
        return []
    support = state.supports[seat]
    cards = list(BY_FACTION[state.mains[seat]])
    if support >= 0 and sum(1 for c in team if CARDS[c].faction == support) < MAX_SUPPORT:
        cards += BY_FACTION[support]
    return sorted(c for c in cards if c not in team)


def recruit_actions(state: State, seat: int) -> list[Action]:
    return [Recruit(CARDS[c].id) for c in recruitable(state, seat)]


def check_recruit(state: State, seat: int, action: Recruit) -> None:
    card = CARD_INDEX.get(action.character)
    if card is None:
        raise IllegalAction(f"there is no character {action.character!r}")
    if len(state.teams[seat]) >= TEAM_SIZE:
        raise IllegalAction("your team already has 6 characters")
    if card in state.teams[seat]:
        raise IllegalAction(f"{action.character} is already in your team")
    if card not in recruitable(state, seat):
        raise IllegalAction(
            f"{action.character} is not recruitable: a team is at least 4 from the main faction and "
            "at most 2 from the supporting faction"
        )


def apply_recruit(state: State, seat: int, action: Recruit, events: list[Event]) -> None:
    card = CARD_INDEX[action.character]
    state.teams[seat].append(card)
    secret = state.rules.team_secrecy == "secret"
    events.append(
        Event("recruited", {"seat": seat, "character": action.character}, frozenset({seat}) if secret else None)
    )
    if secret:
        events.append(Event("recruited_secretly", {"seat": seat, "team_size": len(state.teams[seat])}))
    if all(len(team) == TEAM_SIZE for team in state.teams):
        state.phase = Phase.DISPLAY
        state.step = 0
        state.hands = [sorted(team) for team in state.teams]
        events.append(Event("teams_complete", {}))
