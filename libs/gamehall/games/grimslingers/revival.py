"""Coming back from 0 HP, defeat and victory (C 'Defeat', 'Versus Duel'; R-146..R-150).

Resurrect and Revive Juju trigger immediately when HP hits 0 (optional, never later); the
Revenant ability may be used then or at the end-of-Aftermath check (AMB-12, flag
`revenant_immediate`); Specter only at the end of the Aftermath. Seats still at 0 HP at that
check are defeated; a failed Specter expires "at the very end", after them.
"""

from __future__ import annotations

from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers.creatures import check_end
from gamehall.games.grimslingers.effects import gained_hp, remove_scourge
from gamehall.games.grimslingers.piles import discard_card
from gamehall.games.grimslingers.rules import TEAM_SIZE
from gamehall.games.grimslingers.state import Phase, Prompt, PromptKind, State
from gamehall.games.grimslingers.table import living, team_of

SPECTER_HP = 4
SPECTER_COST = 2
SPECTER_MUST_DEAL = 3


DECLINE = 0
JUJU = -1
"""The Revive Juju answer of the secret revival prompt (1..EP: Resurrect paying that much EP)."""
SECRET = (PromptKind.RESURRECT, PromptKind.SPECTER)
"""Prompts whose answers depend on the hand (item 5 of issue 40). They are put to a seat whenever
it *could* hold the card as far as the others know (a non-empty hand), with the public options
[DECLINE] only; `secret_options` lists the real answers for the seat itself. So a seat holding
nothing looks the same to everyone else as a seat that holds Resurrect and declines."""


def offer_immediate(s: State, seat: int, after: int = -1) -> None:
    """Queue the next immediate revival offer for a seat at 0 HP: the secret hand offer (Resurrect
    or Revive Juju, one prompt), then Revenant (its archetype is public)."""
    x = s.seats[seat]
    if not x.alive or x.hp > 0 or seat == s.creature:
        return
    if after not in (PromptKind.RESURRECT, PromptKind.REVIVE_JUJU, PromptKind.REVENANT) and x.hand:
        s.prompts.append(Prompt(seat, PromptKind.RESURRECT, [DECLINE]))
        return
    if after != PromptKind.REVENANT and s.flags.revenant_immediate and x.archetype == cat.REVENANT and x.ep > 0:
        s.prompts.append(Prompt(seat, PromptKind.REVENANT, list(range(x.ep + 1))))


def _may_specter(s: State, seat: int) -> bool:
    """Whether the Specter offer is put (public facts only: zeroed this turn, EP for its cost, cards in hand)."""
    x = s.seats[seat]
    return seat != s.creature and x.zeroed and x.ep >= SPECTER_COST and bool(x.hand)


def offer_end_of_aftermath(s: State, seat: int) -> None:
    x = s.seats[seat]
    if not x.alive or x.hp > 0:
        return
    if x.archetype == cat.REVENANT and x.ep > 0:
        s.prompts.append(Prompt(seat, PromptKind.REVENANT, list(range(x.ep + 1))))
    elif _may_specter(s, seat):
        s.prompts.append(Prompt(seat, PromptKind.SPECTER, [DECLINE]))


def secret_options(s: State, prompt: Prompt) -> list[int]:
    """The answers the prompted seat really has to a secret prompt (see SECRET)."""
    x = s.seats[prompt.seat]
    out = [DECLINE]
    if prompt.kind == PromptKind.RESURRECT:
        if cat.RESURRECT in x.hand:
            out += list(range(1, x.ep + 1))
        if any(c in cat.JUJUS for c in x.hand):
            out.append(JUJU)
    elif prompt.kind == PromptKind.SPECTER and cat.SPECTER in x.hand and x.zeroed and x.ep >= SPECTER_COST:
        out.append(1)
    return out


def answer(s: State, prompt: Prompt, option: int, *, end_check: bool) -> None:
    """Apply a revival answer (option 0 declines)."""
    seat = prompt.seat
    x = s.seats[seat]
    before = x.hp
    _answer(s, prompt, option, end_check=end_check)
    gained_hp(s, seat, before)  # reading: coming back from 0 HP is an HP gain, so it lifts a Scourge


def _answer(s: State, prompt: Prompt, option: int, *, end_check: bool) -> None:
    seat = prompt.seat
    x = s.seats[seat]
    if prompt.kind in SECRET and option not in secret_options(s, prompt):
        option = DECLINE  # e.g. the card left the hand before the offer was answered
    if prompt.kind == PromptKind.RESURRECT:
        if option == JUJU:
            _juju(s, seat)
        elif option > 0:
            x.ep -= option
            x.hp = min(option, x.max_hp)
            x.hand.remove(cat.RESURRECT)
            discard_card(s, seat, cat.RESURRECT)
        else:
            offer_immediate(s, seat, PromptKind.RESURRECT)
    elif prompt.kind == PromptKind.REVIVE_JUJU:  # a stored prompt from before the secret offer
        if option and any(c in cat.JUJUS for c in x.hand):
            _juju(s, seat)
        else:
            offer_immediate(s, seat, PromptKind.REVIVE_JUJU)
    elif prompt.kind == PromptKind.REVENANT:
        option = min(option, x.ep)
        if option > 0:
            x.ep -= option
            x.hp = min(option, x.max_hp)
        elif end_check and _may_specter(s, seat):
            s.prompts.append(Prompt(seat, PromptKind.SPECTER, [DECLINE]))
    elif prompt.kind == PromptKind.SPECTER and option:
        x.ep -= SPECTER_COST
        x.hp = min(SPECTER_HP, x.max_hp)
        x.hand.remove(cat.SPECTER)
        discard_card(s, seat, cat.SPECTER)
        x.specter_turn = s.turn + 1


def _juju(s: State, seat: int) -> None:
    x = s.seats[seat]
    juju = next(c for c in x.hand if c in cat.JUJUS)
    x.hand.remove(juju)
    s.item_discard.append(juju)
    x.hp = min(1, x.max_hp)


def defeat_check(s: State) -> list[int]:
    """End of Aftermath: seats at 0 HP are defeated; then failed Specters expire. Returns the defeated."""
    out = []
    step = s.out_steps
    for i in living(s):
        if s.seats[i].hp <= 0 or (i == s.creature and s.seats[i].ep <= 0):
            _eliminate(s, i, step)
            out.append(i)
    if out:
        s.out_steps += 1
    expired = []
    for i in living(s):
        x = s.seats[i]
        if x.specter_turn == s.turn:
            x.specter_turn = -1
            if max(x.dealt, default=0) < SPECTER_MUST_DEAL:
                x.hp = 0
                expired.append(i)
    for i in expired:
        _eliminate(s, i, s.out_steps)
    if expired:
        s.out_steps += 1
    return out + expired


def _eliminate(s: State, seat: int, step: int) -> None:
    x = s.seats[seat]
    x.alive = False
    x.out_step = step
    if s.scourge_on == seat:
        remove_scourge(s)
    if s.scourge_owner == seat:  # the owner left the duel: Scourge leaves the target's space (AMB-18)
        remove_scourge(s)


def check_victory(s: State) -> bool:
    """Over when at most one team has a living seat; ranks follow elimination order."""
    if s.creature >= 0:
        return check_end(s)
    teams_alive = {team_of(s, i) for i in living(s)}
    if len(teams_alive) > 1:
        return False
    big = s.out_steps + 1
    if s.mode in TEAM_SIZE:
        last: dict[int, int] = {}
        for i, x in enumerate(s.seats):
            t = team_of(s, i)
            last[t] = max(last.get(t, -1), big if x.alive else x.out_step)
        ranks = [1 + sum(1 for v in last.values() if v > last[team_of(s, i)]) for i in range(s.n)]
    else:
        score = [big if x.alive else x.out_step for x in s.seats]
        ranks = [1 + sum(1 for v in score if v > mine) for mine in score]
    s.ranks = ranks
    s.reason = "last team standing" if teams_alive else "no one left standing"
    s.phase = Phase.OVER
    s.prompts = []
    s.picking = None
    return True


def check_stalemate(s: State, defeated: bool) -> bool:
    """Designed stalemate rule (flag `stalemate_turns`): after that many turns in a row with no
    defeat and no new low of the standing seats' total HP, the survivors share the best rank."""
    total = sum(s.seats[i].hp for i in living(s))
    if defeated or s.low_hp < 0 or total < s.low_hp:
        s.low_hp = total
        s.calm = 0
        return False
    s.calm += 1
    limit = s.flags.stalemate_turns
    if not limit or s.calm < limit:
        return False
    if s.creature >= 0:
        return check_end(s, stalemate=True)
    big = s.out_steps + 1
    score = [big if x.alive else x.out_step for x in s.seats]
    if s.mode in TEAM_SIZE:
        best: dict[int, int] = {}
        for i, v in enumerate(score):
            best[team_of(s, i)] = max(best.get(team_of(s, i), -1), v)
        score = [best[team_of(s, i)] for i in range(s.n)]
    s.ranks = [1 + sum(1 for v in score if v > mine) for mine in score]
    s.reason = "stalemate"
    s.phase = Phase.OVER
    s.prompts = []
    s.picking = None
    return True
