"""Every action a Grimslinger seat can take, as tagged msgspec Structs (cards named by their keys)."""

from __future__ import annotations

from gamehall.engine.protocol import Action


class PickArchetype(Action, frozen=True, tag="pick_archetype"):
    """Versus with archetypes: choose yours, in roll order (at most two seats per archetype)."""

    archetype: str


class Keep(Action, frozen=True, tag="keep"):
    """Signature draft: the signature spells you keep from the cards you were dealt or passed."""

    cards: tuple[str, ...]


class Sacrifice(Action, frozen=True, tag="sacrifice"):
    """Standoff: convert `hp` HP into as much EP."""

    hp: int


class Reload(Action, frozen=True, tag="reload"):
    """Standoff (Anima): pay 3 EP, then pick up to 4 spells from your discard pile."""


class Purge(Action, frozen=True, tag="purge"):
    """Standoff (Anima): pick up to 2 spells to discard, +1 EP each."""


class Surge(Action, frozen=True, tag="surge"):
    """Standoff (Anima): pick 3 spells to deactivate; your next spell this turn gets +1 NV."""


class Reactivate(Action, frozen=True, tag="reactivate"):
    """Standoff: pay 3 EP, then pick up to 5 (Advanced Duels: 6) deactivated cards back to hand."""


class Scavenge(Action, frozen=True, tag="scavenge"):
    """Standoff: take the item in scavenge-field slot `slot`."""

    slot: int


class UseCard(Action, frozen=True, tag="use_card"):
    """Standoff: play and resolve a Standoff-type card (Standoff item, or the Recall spell)."""

    card: str


class SpellFlare(Action, frozen=True, tag="spell_flare"):
    """Standoff (Witchborn): your spell this turn gets RN -1 and +1 NV."""


class EndStandoff(Action, frozen=True, tag="end_standoff"):
    """Standoff: take no (further) action."""


class Pick(Action, frozen=True, tag="pick"):
    """While picking for Reload, Purge, Surge, Reactivate or Recall: select one card."""

    card: str


class StopPicking(Action, frozen=True, tag="stop_picking"):
    """While picking: stop here (allowed once the minimum is reached)."""


class Aim(Action, frozen=True, tag="aim"):
    """Draw Step One (3+ seats): play your target card for `target` face down."""

    target: int


class Play(Action, frozen=True, tag="play"):
    """Draw Step Two: commit an action card face down, optionally with one Combine item."""

    card: str
    combine: str | None = None


class Pass(Action, frozen=True, tag="pass"):
    """Draw Step Two: play nothing; gain 2 EP at the reveal."""


class IntoDarkness(Action, frozen=True, tag="into_darkness"):
    """Draw Step Two (Daemon), instead of passing: lose 2 HP, gain 2 EP, ignore FX aimed at you."""


class BloodFeast(Action, frozen=True, tag="blood_feast"):
    """Draw Step Two (Vampyre), instead of passing: pay 3 EP, steal 2 HP and 1 EP from your target."""


class Cheat(Action, frozen=True, tag="cheat"):
    """Outlaw, after every seat committed: pay 2 EP and play `card` (no DMG) at `target`."""

    card: str
    target: int


class Choose(Action, frozen=True, tag="choose"):
    """Answer the current prompt (redirect target, copy choice, absorb amount, revive amount...)."""

    option: int


# ------------------------------------------------------------------ Tall Tale


class Flee(Action, frozen=True, tag="flee"):
    """Tall Tale Standoff, Attack-node duels: flee; the duel ends if every player flees this turn."""


class Organize(Action, frozen=True, tag="organize"):
    """Tall Tale Standoff: move cards between hand and stash (then Stash / Unstash, StopPicking)."""


class Trade(Action, frozen=True, tag="trade"):
    """Tall Tale Standoff: give item cards from your hand to teammates (then Give, StopPicking)."""


class Propose(Action, frozen=True, tag="propose"):
    """Group decision: propose an option (a node, an event option, the seat to get an item)."""

    option: int


class Accept(Action, frozen=True, tag="accept"):
    """Group decision: agree with the proposal."""


class Reject(Action, frozen=True, tag="reject"):
    """Group decision: disagree; everyone rolls a die and the highest roller decides (R-251)."""


class Decide(Action, frozen=True, tag="decide"):
    """Group decision, after a roll-off: the winner's choice."""

    option: int


class Select(Action, frozen=True, tag="select"):
    """An individual choice: sneak / pass / flip / stop at a landmark, a perk (hand, hp, ep, signature)."""

    option: str


class Stash(Action, frozen=True, tag="stash"):
    """Put a card from your hand into your stash."""

    card: str


class Unstash(Action, frozen=True, tag="unstash"):
    """Take a card from your stash into your hand (within the hand limit)."""

    card: str


class Give(Action, frozen=True, tag="give"):
    """Give an item card from your hand to a teammate."""

    card: str
    seat: int


class TradeIn(Action, frozen=True, tag="trade_in"):
    """Discard three Treasure Map Pieces or Hex Fragments for what the card stipulates."""

    item: str
    craft: str | None = None
    """Hex Fragments: the crafted item chosen."""


class Discard(Action, frozen=True, tag="discard"):
    """Behemoth Be Comin: discard a card from your hand for 1 DMG toward the group's total."""

    card: str


class Done(Action, frozen=True, tag="done"):
    """End your individual turn at a node (camp, Behemoth)."""


ACTION_TYPES: tuple[type[Action], ...] = (
    PickArchetype,
    Keep,
    Sacrifice,
    Reload,
    Purge,
    Surge,
    Reactivate,
    Scavenge,
    UseCard,
    SpellFlare,
    EndStandoff,
    Pick,
    StopPicking,
    Aim,
    Play,
    Pass,
    IntoDarkness,
    BloodFeast,
    Cheat,
    Choose,
    Flee,
    Organize,
    Trade,
    Propose,
    Accept,
    Reject,
    Decide,
    Select,
    Stash,
    Unstash,
    Give,
    TradeIn,
    Discard,
    Done,
)
