"""Human labels of Martha's choices (clients show them next to the stable action ids)."""

from __future__ import annotations

from gamehall.engine import Action, action_id
from gamehall.games.grimm_world.actions import Attack, Pick, Play, Push, React, Recover, Reequip, Step, Wound
from gamehall.games.grimm_world.catalog import ACTION_CARDS, ENEMIES
from gamehall.games.grimm_world.state import State


def _card(key: str) -> str:
    return f"{ACTION_CARDS[key].name} ({key})" if key in ACTION_CARDS else key


def _enemy(s: State, index: int) -> str:
    if s.fight is None or not 0 <= index < len(s.fight.foes):
        return f"enemy {index}"
    foe = s.fight.foes[index]
    return f"{ENEMIES[foe.number].name} ({foe.color})"


def describe(s: State, action: Action) -> str:
    if isinstance(action, Pick):
        menu = s.journey.menu if s.journey is not None else []
        return menu[action.n].label if 0 <= action.n < len(menu) else f"option {action.n}"
    if isinstance(action, Play):
        return "Play " + " + ".join(_card(k) for k in action.cards)
    if isinstance(action, Step):
        return f"Step {action.dir}" + (" (special skill MP)" if action.special else "")
    if isinstance(action, Attack):
        return f"Attack {_enemy(s, action.target)} with {action.weapon}"
    if isinstance(action, Push):
        return f"Push {_enemy(s, action.target)}"
    if isinstance(action, Reequip):
        hands = ", ".join(action.hands) or "empty hands"
        worn = f"{hands}; accessories: {', '.join(action.accessories) or 'none'}"
        return f"Re-equip ({worn})" + (f" playing {_card(action.card)}" if action.card else " for free")
    if isinstance(action, React):
        return f"React with {_card(action.card)}" + (f" ({action.weapon})" if action.weapon else "")
    if isinstance(action, Wound):
        return f"Put {_card(action.card)} under the Damage Card"
    if isinstance(action, Recover):
        return f"Take back {_card(action.card)}"
    return action_id(action)
