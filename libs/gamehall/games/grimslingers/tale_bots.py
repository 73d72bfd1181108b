"""The Tall Tale's default policy (turn clock and scripted bots), from what a seat may see.

It heads for the next story part's node (or an Attack node while the story wants a duel won),
detours to a Rest node when the group is hurt, scores event options by their printed effects,
gives group items to the emptiest hand, accepts proposals, rests and refreshes sensibly and
sneaks while it can afford being caught. It reads only public adventure state and its own hand.
"""

from __future__ import annotations

from collections import deque

from gamehall.engine.protocol import Action
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.actions import (
    Accept,
    Decide,
    Discard,
    Done,
    Keep,
    Pick,
    Propose,
    Reactivate,
    Reload,
    Select,
    Stash,
    StopPicking,
    TradeIn,
    Unstash,
    UseCard,
)
from gamehall.games.grimslingers.content.tale_schema import TaleEffect
from gamehall.games.grimslingers.state import State
from gamehall.games.grimslingers.tale_content import DIFFICULTIES, EVENTS, LINKS, NODES, TALE
from gamehall.games.grimslingers.tale_effects import hand_limit, over_limit, tale_of
from gamehall.games.grimslingers.tale_state import Activity, Decision, DecisionKind
from gamehall.games.grimslingers.tale_story import next_part, target_node

HURT = 0.5
"""Below this share of the group's max HP the group detours to a Rest node within two steps."""
SNEAK_HP = 5
FLIP_HP = 4


def _distances(start: int) -> list[int]:
    far = len(NODES) + 1
    dist = [far] * len(NODES)
    dist[start] = 0
    todo = deque([start])
    while todo:
        i = todo.popleft()
        for j in LINKS[i]:
            if dist[j] > dist[i] + 1:
                dist[j] = dist[i] + 1
                todo.append(j)
    return dist


def _hurt(s: State) -> bool:
    hp = sum(s.seats[i].hp for i in range(s.players))
    top = sum(s.seats[i].max_hp for i in range(s.players))
    return hp < HURT * top


def _goal(s: State) -> list[int]:
    """Nodes worth heading for, by priority: rest when hurt, the story's next node."""
    t = tale_of(s)
    part = next_part(s)
    if _hurt(s):
        return [i for i, n in enumerate(NODES) if n.type == "rest"]
    if part is not None and t.duels_won < part.duels_won:
        return [i for i, n in enumerate(NODES) if n.type == "attack"]
    target = target_node(s)
    if part is not None and part.at_type and target >= 0:
        return [i for i, n in enumerate(NODES) if n.type in part.at_type and i != t.node]
    return [target] if target >= 0 else []


def _move(s: State, options: list[int]) -> int:
    goals = _goal(s)
    if not goals:
        return options[0]

    wants_fight = any(NODES[g].type == "attack" for g in goals)

    def cost(o: int) -> tuple[int, int, int]:
        dist = _distances(o)
        risky = NODES[o].type == "attack" and not wants_fight and o not in goals
        return (min(dist[g] for g in goals), int(risky), o)

    return min(options, key=cost)


def _effect_score(s: State, e: TaleEffect) -> float:
    low_hp = min(s.seats[i].hp for i in range(s.players))
    if e.op == "hp":
        return -1000.0 if low_hp + e.n <= 0 else e.n * (1.5 if low_hp < 5 else 1.0)
    if e.op == "ep":
        return 0.5 * e.n
    if e.op in ("items", "named_item", "supplies"):
        return 1.5 * max(1, e.n)
    if e.op == "level":
        return 2.5 * e.n
    if e.op == "duel":
        return 1.0 if not _hurt(s) else -6.0
    if e.op == "behemoth":
        need = TALE.behemoth_per_player
        spare = min(len(s.seats[i].hand) for i in range(s.players))
        return 3.0 if spare >= need + 3 and low_hp > TALE.behemoth_hit + 1 else -8.0
    return 0.0


def _event_option(s: State, options: list[int]) -> int:
    card = EVENTS[tale_of(s).event]
    return max(options, key=lambda o: (sum(_effect_score(s, e) for e in card.options[o].effects), -o))


def _owner(s: State, options: list[int]) -> int:
    return min(options, key=lambda i: (len(s.seats[i].hand) - hand_limit(s, i), i))


def choose(s: State, d: Decision) -> int:
    if d.kind == DecisionKind.MOVE:
        return _move(s, d.options)
    if d.kind == DecisionKind.EVENT_OPTION:
        return _event_option(s, d.options)
    if d.kind == DecisionKind.DIFFICULTY:
        return DIFFICULTIES.index(tale_of(s).difficulty)  # keep the difficulty chosen at setup
    return _owner(s, d.options)


def _keep_value(card: int) -> int:
    """Higher = keep in hand (signatures and damaging cards), lower = first to the stash."""
    c = cat.CARDS[card]
    if c.kind in ("element", "signature"):
        return 5
    if cat.DAMAGING[card] or cat.IS_COMBINE[card]:
        return 4
    if c.reactive == "juju":
        return 4
    if cat.IS_STANDOFF_CARD[card]:
        return 2
    return 1


def default_action(s: State, seat: int, legal: list[Action]) -> Action:
    """The default adventure action of `seat` among `legal`."""
    t = tale_of(s)
    x = s.seats[seat]
    d = t.decision
    if s.picking is not None:
        picks = [a for a in legal if isinstance(a, Pick)]
        return picks[0] if picks and s.picking.left > 0 else (StopPicking() if StopPicking() in legal else legal[0])
    if over_limit(s) == seat:
        stash = [a for a in legal if isinstance(a, Stash)]
        return min(stash, key=lambda a: (_keep_value(cat.ID[a.card]), a.card))
    if d is not None:
        if Accept() in legal:
            return Accept()
        choice = choose(s, d)
        return Decide(choice) if d.decider >= 0 else Propose(choice)
    if t.activity == Activity.SNEAK:
        if Select("sneak") in legal:
            return Select("sneak") if x.hp >= SNEAK_HP else Select("pass")
        return Select("flip") if x.hp >= FLIP_HP else Select("stop")
    if t.activity == Activity.BEHEMOTH:
        mine = [a for a in legal if isinstance(a, Discard)]
        share = TALE.behemoth_per_player * (s.players - len(t.queue) + 1)  # the total due once this seat is done
        if mine and t.behemoth < share:
            return min(mine, key=lambda a: (_blast_value(a.card), a.card))
        return Done()
    if t.activity == Activity.PERK:
        keeps = [a for a in legal if isinstance(a, Keep)]
        if keeps:
            return keeps[0]
        for option in ("signature", "hp", "hand", "ep"):
            if Select(option) in legal:
                return Select(option)
        return legal[0]
    if t.activity == Activity.CAMP:
        return _camp(s, seat, legal)
    return legal[0]


def _camp(s: State, seat: int, legal: list[Action]) -> Action:
    x = s.seats[seat]
    trade = [a for a in legal if isinstance(a, TradeIn)]
    if trade:
        return trade[0]
    if Reactivate() in legal and len(x.deact) >= 3:
        return Reactivate()
    if Reload() in legal and sum(1 for c in x.discard if cat.IS_SPELL[c]) >= 2:
        return Reload()
    heals = [a for a in legal if isinstance(a, UseCard) and x.hp + 2 <= x.max_hp and "lose_hp" not in _ops(a.card)]
    if heals:
        return heals[0]
    unstash = [a for a in legal if isinstance(a, Unstash)]
    if unstash:
        return max(unstash, key=lambda a: (_keep_value(cat.ID[a.card]), a.card))
    return Done()


def _ops(key: str) -> set[str]:
    return {e.op for e in cat.CARDS[cat.ID[key]].effects}


def _blast_value(key: str) -> int:
    """Cheapest to throw at the Behemoth first: 'deactivate on use' cards come back at a Rest."""
    card = cat.ID[key]
    return _keep_value(card) - (3 if cat.CARDS[card].after == "deactivate" else 0)
