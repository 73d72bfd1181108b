"""Card text as data: the ops of Encounter entries, Lost Pages, Storybook cards and quests (W-RE-05, W-TX-*).

Checks wait for Martha to play boosting cards one at a time, then draw the Fate card (W-CK-*). Decisions and
optional encounters are menus. 'This card' is the innermost Y-card being resolved.
"""

from __future__ import annotations

from msgspec.structs import replace

from gamehall.games.grimm_world import alignment
from gamehall.games.grimm_world.atlas import LAST_CHAPTER, PAGES, REGIONS, copies, region_cards
from gamehall.games.grimm_world.catalog import ACTION_CARDS, CHARACTERS, ENCOUNTERS, ITEMS, UPGRADES
from gamehall.games.grimm_world.checks import card_bonus
from gamehall.games.grimm_world.content.schema import Choice, Op
from gamehall.games.grimm_world.decks import draw_fate
from gamehall.games.grimm_world.holdings import (
    capacity,
    count,
    drop_item,
    gain_thalers,
    give_up_good,
    has_ranged,
    has_tool,
    owned_items,
    receive_good,
    receive_item,
)
from gamehall.games.grimm_world.trip import CampaignError, Trip, handler


def requirement_met(t: Trip, requires: str) -> bool:
    """An option's precondition: a ranged weapon equipped, a tool owned, a flag, thalers or goods held."""
    if not requires:
        return True
    kind, _, arg = requires.partition(":")
    if kind == "ranged":
        return has_ranged(t)
    if kind == "tool":
        return has_tool(t, arg)
    if kind == "flag":
        return arg in t.j.flags
    if kind == "thalers":
        return t.s.sheet.thalers >= int(arg)
    if kind == "damaged":
        return bool(t.s.sheet.damaged)
    if kind in ("provision", "wood", "ore", "essence"):
        return count(t, kind) >= int(arg or 1)
    raise CampaignError(f"unknown requirement {requires!r}")


def this_card(t: Trip, card: str) -> str:
    if card:
        return card
    if not t.j.resolving:
        raise CampaignError("'this card' outside a Lost Pages card")
    return t.j.resolving[-1]


# ----------------------------------------------------------------- flow and flavour


@handler("text")
def _text(t: Trip, op: Op) -> None:
    t.emit("text", text=op.text)


@handler("choose")
def _choose(t: Trip, op: Op) -> None:
    """◆ options: Martha picks one whose requirement she meets."""
    options = [c for c in op.options if requirement_met(t, c.requires)]
    if options:
        t.ask(op.text or "Choose", options)


@handler("ask")
def _ask(t: Trip, op: Op) -> None:
    """An optional encounter (W-CK-08): yes runs `then` (if the requirement `card` is met), no runs `orelse`."""
    options = [Choice("No", op.orelse)]
    if requirement_met(t, op.card):
        options.insert(0, Choice("Yes", op.then))
    t.ask(op.text, options)


@handler("query")
def _query(t: Trip, op: Op) -> None:
    """An alignment query: green +k or red -k (W-AL-02)."""
    t.push(*(op.then if alignment.query(t.s.sheet.alignment, op.k) else op.orelse))


@handler("has")
def _has(t: Trip, op: Op) -> None:
    """A condition on holdings or flags (the requirement syntax of options)."""
    t.push(*(op.then if requirement_met(t, op.card) else op.orelse))


@handler("flag")
def _flag(t: Trip, op: Op) -> None:
    if op.text not in t.j.flags:
        t.j.flags.append(op.text)
        t.emit("flag", flag=op.text)


# ----------------------------------------------------------------- checks


@handler("check")
def _check(t: Trip, op: Op) -> None:
    """Step 2 of a check: play boosting cards one at a time (they go under the Damage Card), then draw (W-CK-*).
    `k` carries the bonus so far and `n` the cards played."""
    sheet = t.s.sheet
    skill = CHARACTERS[sheet.character].check_skill
    options = [Choice(f"Draw the Fate card ({op.stat} {t.stats[op.stat] + op.k}"
                      + (f", needs {op.target}+)" if op.target else ")"), (replace(op, op="roll"),))]
    for card in sorted(set(sheet.hand)):
        definition = ACTION_CARDS[card]
        star = op.stat if definition.check_star and op.stat in skill else None
        if definition.check_star and star is None:
            continue
        if not definition.check_star and (definition.check is None or definition.check.stat != op.stat):
            continue
        bonus = card_bonus(sheet, card, op.stat, star)
        options.append(Choice(f"Play {definition.name} ({card}) for +{bonus}",
                              (Op("boost", card=card, n=bonus), replace(op, k=op.k + bonus, n=op.n + 1))))
    if len(options) == 1:
        t.push(replace(op, op="roll"))
    else:
        t.ask(f"{op.stat.capitalize()} check" + (f" ({op.target}+)" if op.target else ""), options)


@handler("boost")
def _boost(t: Trip, op: Op) -> None:
    sheet = t.s.sheet
    sheet.hand.remove(op.card)
    sheet.damaged.append(op.card)
    t.emit("boost", card=op.card, bonus=op.n)


@handler("roll")
def _roll(t: Trip, op: Op) -> None:
    """Steps 3-4: attribute + bonuses + Fate Number, then the entry that applies; a hand emptied by the played
    cards loses a chapter once the check has resolved (AMB-11)."""
    fate = draw_fate(t.s.decks)
    t.s.last_fate = fate
    result = t.stats[op.stat] + op.k + fate
    if op.target:
        success = result >= op.target
        lines = op.then if success else op.orelse
    else:
        success = None
        band = next((b for b in op.bands if b.lo <= result <= b.hi), None)
        lines = band.then if band else ()
    t.emit("check", stat=op.stat, fate=fate, result=result, target=op.target, success=success)
    if op.n and not t.s.sheet.hand:
        t.push(*lines, Op("empty_hand"))
    else:
        t.push(*lines)


@handler("empty_hand")
def _empty_hand(t: Trip, op: Op) -> None:
    if not t.s.sheet.hand:
        from gamehall.games.grimm_world.chapters import chapter_lost_in_round

        chapter_lost_in_round(t)


# ----------------------------------------------------------------- damage and healing


@handler("damage")
def _damage(t: Trip, op: Op) -> None:
    """Normal damage minus Armor (direct damage with k=1 ignores it), capped by the hand (W-DM-01, AMB-12)."""
    points = op.n if op.k else max(0, op.n - t.stats["armor"])
    points = min(points, len(t.s.sheet.hand))
    t.emit("damage", amount=op.n, points=points)
    if points:
        t.push(Op("wound", n=points))


@handler("wound")
def _wound(t: Trip, op: Op) -> None:
    """Each point moves a hand card of Martha's choosing under the Damage Card (W-DM-02)."""
    hand = t.s.sheet.hand
    if op.n <= 0 or not hand:
        return
    kinds = sorted(set(hand))
    if len(kinds) == 1 or op.n >= len(hand):
        t.push(Op("wound_card", card=hand[0]), Op("wound", n=op.n - 1))
        return
    t.ask(f"Damage: {op.n} card(s) go under the Damage Card",
          [Choice(f"{ACTION_CARDS[c].name} ({c})", (Op("wound_card", card=c), Op("wound", n=op.n - 1))) for c in kinds])


@handler("wound_card")
def _wound_card(t: Trip, op: Op) -> None:
    sheet = t.s.sheet
    sheet.hand.remove(op.card)
    sheet.damaged.append(op.card)
    t.emit("wound", card=op.card)
    if not sheet.hand:
        from gamehall.games.grimm_world.chapters import chapter_lost_in_round

        chapter_lost_in_round(t)


def heal(t: Trip, n: int | None) -> int:
    """Cards come back from under the Damage Card, the longest-lying first (n None: all)."""
    sheet = t.s.sheet
    n = len(sheet.damaged) if n is None else min(n, len(sheet.damaged))
    back, sheet.damaged = sheet.damaged[:n], sheet.damaged[n:]
    sheet.hand.extend(back)
    if n:
        t.emit("heal", cards=n)
    return n


@handler("heal")
def _heal(t: Trip, op: Op) -> None:
    heal(t, op.n or None)


@handler("mend")
def _mend(t: Trip, op: Op) -> None:
    """Heal op.n cards that Martha picks one at a time from under the Damage Card (W-RP-01: "You may freely choose
    the Action Cards"); no menu when every card comes back or the cards are all alike."""
    damaged = t.s.sheet.damaged
    if op.n <= 0 or not damaged:
        return
    if op.n >= len(damaged) or len(set(damaged)) == 1:
        heal(t, op.n)
        return
    t.ask(f"Heal: take back {op.n} card(s) from under the Damage Card",
          [Choice(f"Take back {ACTION_CARDS[c].name} ({c})", (Op("mend_card", card=c), Op("mend", n=op.n - 1)))
           for c in sorted(set(damaged))])


@handler("mend_card")
def _mend_card(t: Trip, op: Op) -> None:
    sheet = t.s.sheet
    sheet.damaged.remove(op.card)
    sheet.hand.append(op.card)
    t.emit("heal", cards=1, card=op.card)


# ----------------------------------------------------------------- alignment, thalers, goods, items


@handler("align")
def _align(t: Trip, op: Op) -> None:
    """Receive op.n smiling (+) or sad (-) faces, capped at op.cap if given (W-AL-03, AMB-1)."""
    sheet = t.s.sheet
    sheet.alignment = alignment.change(sheet.alignment, op.n, op.cap or None)
    t.emit("alignment", alignment=sheet.alignment)


@handler("thalers")
def _thalers(t: Trip, op: Op) -> None:
    """Receive thalers, or (n < 0) lose as much as she has (W-TX-07/10)."""
    gain_thalers(t, op.n)


@handler("pay")
def _pay(t: Trip, op: Op) -> None:
    """'Remove n thalers': only if she has them all; `then` runs on payment, `orelse` if she cannot (W-TX-09)."""
    if t.s.sheet.thalers >= op.n:
        gain_thalers(t, -op.n)
        t.push(*op.then)
    else:
        t.emit("cannot_pay", thalers=op.n)
        t.push(*op.orelse)


@handler("goods")
def _goods(t: Trip, op: Op) -> None:
    """Receive n goods: the top deck cards, while the storage has room (W-TX-07, W-IT-10)."""
    for _ in range(op.n):
        if not receive_good(t, op.good):
            break


@handler("lose_goods")
def _lose_goods(t: Trip, op: Op) -> None:
    for _ in range(op.n):
        give_up_good(t, op.good)


@handler("remove_goods")
def _remove_goods(t: Trip, op: Op) -> None:
    """'Remove n goods': all of them or nothing (W-TX-09)."""
    if count(t, op.good) >= op.n:
        for _ in range(op.n):
            give_up_good(t, op.good)
        t.push(*op.then)
    else:
        t.push(*op.orelse)


@handler("item")
def _item(t: Trip, op: Op) -> None:
    """Receive a named Lost Pages item (card = item key) or, with text = rarity, the first Encounter Card
    item of that rarity; non-matching cards go under the deck (W-TX-08)."""
    if op.card:
        receive_item(t, op.card, "")
        return
    decks = t.s.decks
    for _ in range(len(decks.encounter) + 2):
        card = t.top()
        definition = ENCOUNTERS[card]
        if definition.item and ITEMS[definition.item].rarity == op.text:
            receive_item(t, definition.item, t.take(), definition.broken)
            return
        t.cycle()
    t.emit("no_item", rarity=op.text)


@handler("lose_item")
def _lose_item(t: Trip, op: Op) -> None:
    """Lose an item: `card` if named (if she has it), else her most valuable owned one."""
    owned = owned_items(t) + t.s.sheet.broken
    if op.card:
        if op.card in owned:
            drop_item(t, op.card)
    elif owned:
        drop_item(t, max(owned, key=lambda k: (ITEMS[k].sell, k)))


@handler("storage")
def _storage(t: Trip, op: Op) -> None:
    """A new storage card replaces the old one; what no longer fits is discarded (W-IT-10)."""
    t.j.storage = op.card
    goods, items, _thalers = capacity(t)
    t.s.sheet.bag = items
    while len(t.j.goods) > goods:
        give_up_good(t, t.j.goods[-1].kind)
    gain_thalers(t, 0)
    t.emit("storage", card=op.card)
    t.push(Op("bag_full"))


# ----------------------------------------------------------------- Lost Pages and the Encounter Bar


@handler("resolve")
def _resolve(t: Trip, op: Op) -> None:
    """Take card Y and resolve it; a banished card does nothing (W-TX-01)."""
    card = op.card
    if card in t.j.banished or card not in PAGES:
        t.emit("nothing", card=card)
        return
    t.j.resolving.append(card)
    t.emit("resolve", card=card, name=PAGES[card].name)
    t.push(*PAGES[card].ops, Op("resolved", card=card))


@handler("resolved")
def _resolved(t: Trip, op: Op) -> None:
    if t.j.resolving and t.j.resolving[-1] == op.card:
        t.j.resolving.pop()


@handler("random_page")
def _random_page(t: Trip, op: Op) -> None:
    """'Random Y996': one of the cards sharing that number, at random (W-TX-12)."""
    pool = [c for c in copies(op.card) if c not in t.j.banished]
    if pool:
        t.push(Op("resolve", card=pool[t.rng.below(len(pool))]))


def place(t: Trip, card: str) -> None:
    """Put a card into the Bar; a black book of this chapter or earlier banishes it at once, after its front is
    resolved if the book has the curved arrow (W-EB-04, W-TX-02)."""
    if card in t.j.banished:
        return
    definition = PAGES[card]
    if definition.book and definition.book <= t.s.chapter:
        if definition.arrow:
            t.push(Op("resolve", card=card), Op("banish", card=card))
        else:
            banish(t, card)
        return
    if card not in t.j.bar:
        t.j.bar.append(card)
        t.emit("bar", card=card)


def banish(t: Trip, card: str) -> None:
    """Under the Banned Cards card for good (W-TX-03); wherever it was."""
    if card in t.j.banished:
        return
    if card in t.j.bar:
        t.j.bar.remove(card)
    for cards in t.j.story.values():
        if card in cards:
            cards.remove(card)
    if card in t.j.quests:
        t.j.quests.remove(card)
    t.j.banished.append(card)
    t.emit("banish", card=card)


@handler("place")
def _place(t: Trip, op: Op) -> None:
    place(t, this_card(t, op.card))


@handler("banish")
def _banish(t: Trip, op: Op) -> None:
    banish(t, this_card(t, op.card))


@handler("future")
def _future(t: Trip, op: Op) -> None:
    """'Place card Y X chapters into the future': under Chapter Card (current + X) (W-TX-05)."""
    card = this_card(t, op.card)
    if card in t.j.bar:
        t.j.bar.remove(card)
    target = t.s.chapter + op.n
    key = str(target) if target <= LAST_CHAPTER else "E"
    t.j.story.setdefault(key, []).append(card)
    t.emit("future", card=card, chapter=target)


@handler("place_x")
def _place_x(t: Trip, op: Op) -> None:
    """'Place card X under the Encounter Deck', unseen (W-TX-06)."""
    if op.card not in t.s.decks.encounter and op.card not in t.j.held:
        t.under(op.card)
        t.emit("x_card")


def put_region(t: Trip, key: str) -> None:
    """A Region Card comes into play: its Y-cards go into the Bar (W-EB-02)."""
    t.j.regions[key[0]] = key
    t.emit("region", card=key)
    for card in REGIONS[key].y_cards:
        place(t, card)


@handler("banish_region")
def _banish_region(t: Trip, op: Op) -> None:
    """'Banish Region Card A [XYZ]': every card of region A whose digit in the marked position is not higher
    (SC-W26); a banished card in play is replaced by the next higher one of its region (W-TX-04)."""
    region, pattern = op.card, op.text
    pos = next(i for i, ch in enumerate(pattern) if ch.isdigit())
    limit = int(pattern[pos])
    for key in region_cards(region):
        if int(key[pos]) <= limit and key not in t.j.banished:
            t.j.banished.append(key)
            t.emit("banish", card=key)
    current = t.j.regions.get(region)
    if current and current in t.j.banished:
        later = [k for k in region_cards(region) if k > current and k not in t.j.banished]
        if later:
            put_region(t, later[0])


@handler("ally")
def _ally(t: Trip, op: Op) -> None:
    """An ally joins Martha (card = its key) or, with no key, leaves her (W-CO-06, designed)."""
    t.s.sheet.ally = op.card
    t.emit("ally", ally=op.card)


@handler("upgrade")
def _upgrade(t: Trip, op: Op) -> None:
    """A Status Upgrade: black numbers add up; a higher Constitution adds no cards by itself (AMB-24)."""
    if op.card in UPGRADES and op.card not in t.s.sheet.upgrades:
        t.s.sheet.upgrades.append(op.card)
        t.emit("upgrade", card=op.card)


@handler("action_card")
def _action_card(t: Trip, op: Op) -> None:
    """A new Action Card (the top of the Action deck unless named): added while she owns fewer than
    Constitution, else it replaces one of her choice or is declined (W-IT-11, AMB-24)."""
    sheet, decks = t.s.sheet, t.s.decks
    card = op.card or (decks.action[0] if decks.action else "")
    if not card or card in sheet.hand or card in sheet.damaged:
        return
    if card in decks.action:
        decks.action.remove(card)
    owned = len(sheet.hand) + len(sheet.damaged)
    if owned < t.stats["constitution"]:
        sheet.hand.append(card)
        t.emit("action_card", card=card)
        return
    options = [Choice(f"Keep the old cards, return {ACTION_CARDS[card].name}", (Op("return_action", card=card),))]
    options += [Choice(f"Replace {ACTION_CARDS[c].name} ({c})", (Op("swap_action", card=c, text=card),))
                for c in sorted(set(sheet.hand))]
    t.ask(f"New Action Card {ACTION_CARDS[card].name}", options)


@handler("return_action")
def _return_action(t: Trip, op: Op) -> None:
    t.s.decks.action.append(op.card)


@handler("swap_action")
def _swap_action(t: Trip, op: Op) -> None:
    sheet = t.s.sheet
    sheet.hand.remove(op.card)
    sheet.hand.append(op.text)
    t.s.decks.action.append(op.card)
    t.emit("action_card", card=op.text, replaced=op.card)


# ----------------------------------------------------------------- quests and the story


@handler("quest")
def _quest(t: Trip, op: Op) -> None:
    if op.card not in t.j.quests and op.card not in t.j.banished:
        t.j.quests.append(op.card)
        t.emit("quest", card=op.card)


@handler("end_quest")
def _end_quest(t: Trip, op: Op) -> None:
    card = this_card(t, op.card)
    if card in t.j.quests:
        t.j.quests.remove(card)
    banish(t, card)


@handler("win")
def _win(t: Trip, op: Op) -> None:
    t.j.result = "victory"
    t.emit("campaign_over", result="victory", text=op.text)


@handler("lose")
def _lose(t: Trip, op: Op) -> None:
    t.j.result = "defeat"
    t.emit("campaign_over", result="defeat", text=op.text)
