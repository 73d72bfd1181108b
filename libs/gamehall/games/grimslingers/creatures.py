"""The automated creature of creature duels (C 'Creature Duels', AD 'Creature Duel'; R-211..R-233).

The creature sits in `State.seats` after the players (index `State.creature`) so the Aftermath
resolves its skills like any card: it is always the first player (ties go to it, R-126), its
face-down skill deck is its hand (R-009) and its piles are its own. It makes no choices: its
Standoff reloads at 1 EP per card, never below 1 EP, with every deactivated card free (R-216),
or it passes (R-217); in the Draw its top card is played face down, or it passes for +2 EP and
its deactivated cards back (R-218). A skill's single target is picked by card data (AMB-27).
"""

from __future__ import annotations

from gamehall.engine.protocol import Event
from gamehall.engine.rng import Rng
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.effects import gained_hp
from gamehall.games.grimslingers.state import Commit, Commitment, Phase, Seat, State

CREATURE_MAX = 40
"""Creature trackers run 1-40 (R-069)."""
PASS_EP = 2


def starting(s: State, key: str, players: int) -> tuple[int, int]:
    """The creature's HP and EP at the start of a duel (content, modifiers; at most 40, R-069)."""
    if key == cat.WITCH_KING.key:
        setting = cat.WITCH_KING.difficulties[s.difficulty]
        hp, ep = setting.hp[players - 1], setting.ep[players - 1]
    else:
        c = cat.CREATURES[cat.CREATURE_ID[key]]
        hp, ep = c.hp[players - 1], c.ep[players - 1]
        for m in s.modifiers:
            hp += cat.MODIFIERS[m].hp * players
            ep += cat.MODIFIERS[m].ep * players
    return min(hp, CREATURE_MAX), min(ep, CREATURE_MAX)


def add_creature(s: State, key: str, players: int, rng: Rng) -> None:
    """Seat the creature after the players with its HP/EP for the player count and its deck."""
    hp, ep = starting(s, key, players)
    s.creature_key = key
    s.creature_deck = cat.creature_deck(key)
    creature = Seat(hp, ep, CREATURE_MAX, CREATURE_MAX, acted=1)
    creature.hand = rng.shuffled(s.creature_deck)
    creature.dealt = [0] * (players + 1)
    s.seats.append(creature)
    s.creature = players
    s.n = players + 1
    s.first_player = players  # the creature is always the first player


def nv_bonus(s: State) -> int:
    """+NV on every creature skill: Ferocious, and the Witch King's harder settings."""
    if s.creature_key == cat.WITCH_KING.key:
        return cat.WITCH_KING.difficulties[s.difficulty].nv[s.players - 1]
    return sum(cat.MODIFIERS[m].nv for m in s.modifiers)


def rn_shift(s: State) -> int:
    """RN shift of every creature skill: Quick, and the Witch King's harder settings."""
    if s.creature_key == cat.WITCH_KING.key:
        return cat.WITCH_KING.difficulties[s.difficulty].rn
    return sum(cat.MODIFIERS[m].rn for m in s.modifiers)


def start_duel(s: State, events: list[Event]) -> None:
    """Modifier effects that apply as the duel starts (Ambusher: every player loses HP)."""
    loss = sum(cat.MODIFIERS[m].ambush for m in s.modifiers)
    if loss:
        for i in range(s.players):
            x = s.seats[i]
            x.hp = max(1, x.hp - loss)
        events.append(Event("ambush", {"hp": loss}))


def standoff(s: State, events: list[Event], rng: Rng) -> None:
    """The creature's Standoff step, before the players (R-215..R-217), and modifier upkeep."""
    c = s.seats[s.creature]
    regen = sum(cat.MODIFIERS[m].regen for m in s.modifiers)
    ep_regen = sum(cat.MODIFIERS[m].ep_regen for m in s.modifiers)
    if regen and c.hp > 0:
        before = c.hp
        c.hp = min(c.max_hp, c.hp + regen)
        gained_hp(s, s.creature, before)
    if ep_regen and c.ep > 0:
        c.ep = min(c.max_ep, c.ep + ep_regen)
    c.barrier = sum(cat.MODIFIERS[m].barrier for m in s.modifiers)
    if c.hand:
        return
    if c.discard and c.ep >= 2:
        k = min(len(c.discard), c.ep - 1)
        picks = rng.shuffled(c.discard)[:k]
        for card in picks:
            c.discard.remove(card)
        c.ep -= k
        back, c.deact = picks + c.deact, []
        c.hand = rng.shuffled(back)
        events.append(Event("creature_reload", {"cards": k, "ep": c.ep, "active": len(c.hand)}))
    else:
        events.append(Event("creature_must_pass", {}))


def draw(s: State, events: list[Event], rng: Rng) -> None:
    """The creature's Draw action: its top skill face down, or a pass (+2 EP, deactivated back)."""
    c = s.seats[s.creature]
    if c.hand and c.alive:
        card = c.hand.pop()
        c.commit = Commit(Commitment.PLAY, [card])
        events.append(Event("creature_plays", {"back": cat.CARDS[card].back}))
        return
    c.commit = Commit(Commitment.PASS)
    c.ep = min(c.max_ep, c.ep + PASS_EP)
    if c.deact:
        c.hand = rng.shuffled(c.hand + c.deact)
        c.deact = []
    events.append(Event("creature_passes", {"ep": c.ep}))


def target(s: State, card: int, rng: Rng) -> int:
    """The player a single-target skill picks (card data `aim`, AMB-27)."""
    living = [i for i in range(s.players) if s.seats[i].alive]
    if not living:
        return -1
    aim = cat.CARDS[card].aim
    if aim == "weakest":
        return min(living, key=lambda i: (s.seats[i].hp, i))
    if aim == "strongest":
        return min(living, key=lambda i: (-s.seats[i].hp, i))
    return living[rng.below(len(living))]


def check_end(s: State, stalemate: bool = False) -> bool:
    """Creature down (HP or EP 0): the players win, even if they fell too (R-229); every player
    down: the players lose (R-230). A stalemate (designed rule) is a loss: the creature stands."""
    c = s.seats[s.creature]
    players_left = any(s.seats[i].alive for i in range(s.players))
    if not c.alive:
        s.ranks, s.reason = [1] * s.players, "creature defeated"
    elif not players_left:
        s.ranks, s.reason = [2] * s.players, "all players defeated"
    elif stalemate:
        s.ranks, s.reason = [2] * s.players, "stalemate"
    else:
        return False
    if s.tale is not None:  # a Tall Tale duel: back to the adventure (tale_duel.after settles it)
        from gamehall.games.grimslingers.tale_duel import finish

        finish(s, s.reason)
        s.ranks, s.reason = None, ""
        return True
    s.phase = Phase.OVER
    s.prompts = []
    s.picking = None
    return True
