"""Action types of Tiny Epic Quest: one small tagged Struct per kind of decision."""

from __future__ import annotations

from gamehall.engine import Action


class Select(Action, frozen=True, tag="select"):
    """Day: the selecting player picks an available Movement card (0 horse .. 4 foot)."""

    card: int


class Move(Action, frozen=True, tag="move"):
    """Day: move hero `hero` (0-2) to `slot`, onto its left (0) or right (1) region; `via` picks the Ship direction."""

    hero: int
    slot: int
    region: int
    via: int = 0


class Idle(Action, frozen=True, tag="idle"):
    """Day: do not move (a hero in any Castle then earns 1 Health or Power)."""


class Gain(Action, frozen=True, tag="gain"):
    """Split pending '1 Health OR 1 Power' gains: `health` of them go to Health, the rest to Power."""

    health: int


class TakeQuest(Action, frozen=True, tag="take-quest"):
    """Day: choose the one quest to take when a move meets several (one quest per turn)."""

    quest: int


class UseGrotto(Action, frozen=True, tag="use-grotto"):
    """Use the Grotto just entered; `target` is a hero (0-2) or a portal slot, -1 when the effect needs none."""

    target: int = -1


class SkipGrotto(Action, frozen=True, tag="skip-grotto"):
    """Decline the Grotto's optional action."""


class Equip(Action, frozen=True, tag="equip"):
    """Give `item` to hero `hero` (0-2) or keep it by the player card (-1)."""

    item: int
    hero: int


class Exchange(Action, frozen=True, tag="exchange"):
    """Day, at the Castle (T-IT-03): items `first` and `second` (first < second) swap places among the seat's heroes
    in its own Castle and the player card, whether or not any hand is free."""

    first: int
    second: int


class Adventure(Action, frozen=True, tag="adventure"):
    """Night: the player with the dice rolls them."""


class Rest(Action, frozen=True, tag="rest"):
    """Night: the player with the dice Rests and resolves their heroes."""


class Defend(Action, frozen=True, tag="defend"):
    """Night: spend 2 Power (1 with the Shield) to cancel the Take Damage symbol just assigned."""


class TakeHit(Action, frozen=True, tag="take-hit"):
    """Night: accept the damage of the symbol just assigned."""


class Advance(Action, frozen=True, tag="advance"):
    """Night: step hero `hero` onto the next temple space, using this roll's Torches/Scrolls then Forging the rest."""

    hero: int


class Strike(Action, frozen=True, tag="strike"):
    """Night: deal 1 damage to the goblin at `slot` with hero `hero`, using a rolled Attack Goblin or the Sword."""

    hero: int
    slot: int


class Done(Action, frozen=True, tag="done"):
    """Night: finish using this roll's symbols (or stop forging)."""


class Learn(Action, frozen=True, tag="learn"):
    """Rest: learn the spell of hero `hero`'s obelisk, paying `staff` Power through the Staff."""

    hero: int
    staff: int = 0


class StopLearning(Action, frozen=True, tag="stop-learning"):
    """Rest: learn nothing more (only when no free learning remains)."""


class Provoke(Action, frozen=True, tag="provoke"):
    """Solo Resolution: turn the passive goblin at `slot` aggressive (3 are chosen)."""

    slot: int


ACTION_TYPES: tuple[type[Action], ...] = (
    Select, Move, Idle, Gain, TakeQuest, UseGrotto, SkipGrotto, Equip, Adventure, Rest, Defend, TakeHit, Advance,
    Strike, Done, Learn, StopLearning, Provoke, Exchange,
)
