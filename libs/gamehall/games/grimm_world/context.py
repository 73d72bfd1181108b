"""The working context of one `apply`: the state, its fight, the battlefield, the generator and the events."""

from __future__ import annotations

from gamehall.engine import Event, Rng
from gamehall.games.grimm_world.board import Board
from gamehall.games.grimm_world.catalog import ENEMIES, ENEMY_PACK
from gamehall.games.grimm_world.content.schema import EnemyDef
from gamehall.games.grimm_world.decks import draw_fate
from gamehall.games.grimm_world.field import battlefield
from gamehall.games.grimm_world.sheet import stats
from gamehall.games.grimm_world.state import Fight, Foe, State, Task


class Ctx:
    """Everything a rules step needs; `close()` writes the generator back into the state."""

    def __init__(self, s: State) -> None:
        if s.fight is None:
            raise ValueError("no fight in progress")
        self.s = s
        self.f: Fight = s.fight
        self.field = battlefield(self.f.conflict)
        self.board: Board = self.field.board
        self.rng = Rng(s.rng)
        self.events: list[Event] = []
        self._stats: dict[str, int] | None = None

    def close(self) -> list[Event]:
        self.s.rng = self.rng.state
        return self.events

    def emit(self, kind: str, **data: object) -> None:
        self.events.append(Event(kind, data))

    @property
    def stats(self) -> dict[str, int]:
        if self._stats is None:
            self._stats = stats(self.s.sheet)
        return self._stats

    def restat(self) -> None:
        self._stats = None

    def foe_def(self, i: int) -> EnemyDef:
        return ENEMIES[self.f.foes[i].number]

    def alive(self, i: int) -> bool:
        return self.f.foes[i].hp > 0

    def foe_cells(self, skip: int = -1) -> set[int]:
        return {foe.cell for j, foe in enumerate(self.f.foes) if foe.hp > 0 and j != skip}

    def figures(self, skip: int = -1) -> set[int]:
        """Spaces no one else may stop on: the standing enemies (but `skip`) and Martha's ally (W-CO-06)."""
        cells = self.foe_cells(skip)
        if self.f.ally is not None:
            cells.add(self.f.ally.cell)
        return cells

    def fate(self) -> int:
        value = draw_fate(self.s.decks)
        self.s.last_fate = value
        self.emit("fate", value=value)
        return value

    def then(self, *tasks: Task) -> None:
        """Schedule `tasks` to run next, in the order given (the task list is a stack)."""
        self.f.tasks.extend(reversed(tasks))


def reaction_draw(ctx: Ctx, rng: Rng | None = None) -> int:
    """Draw a random Enemy Deck card and read its Reaction Value (W-ER-02, AMB-10: uniform, with
    replacement, over the Enemy Cards not picked out for this fight)."""
    in_fight = {foe.number for foe in ctx.f.foes}
    deck = [e for e in ENEMY_PACK.enemies if e.number not in in_fight] or list(ENEMY_PACK.enemies)
    card = deck[(rng or ctx.rng).below(len(deck))]
    return card.reaction_value


def initiative_order(ctx: Ctx) -> list[int]:
    """Enemies still standing in ascending Initiative; ties by Enemy Number, then placement row (AMB-14)."""
    foes: list[tuple[int, str, int, int]] = []
    for i, foe in enumerate(ctx.f.foes):
        if foe.hp > 0:
            foes.append((ENEMIES[foe.number].initiative, foe.number, foe.order, i))
    return [i for *_, i in sorted(foes)]


def new_foe(number: str, color: str, cell: int, order: int) -> Foe:
    return Foe(number, color, cell, ENEMIES[number].constitution, False, order)
