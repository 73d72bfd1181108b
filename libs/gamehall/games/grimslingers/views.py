"""What each seat may see, and the reverse: a full state consistent with a view.

A view carries the public state (HP/EP, statuses, discard piles, which entered face up in public,
revealed cards, the scavenge field, prompts) plus the seat's own hand, deactivated pile, draft
offer, target card and commitment. Never another seat's hand, face-down choices, deactivated
cards, deck order or the RNG. `rebuild` samples everything hidden consistently with a view; it
serves `determinize` (bots) and `resample_hidden` (the game's declaration of its secrets).
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from gamehall.engine.protocol import Action, JsonDict
from gamehall.games.grimslingers import catalog as cat
from gamehall.games.grimslingers import tale_views
from gamehall.games.grimslingers import view_types as vt
from gamehall.games.grimslingers.actions import Choose
from gamehall.games.grimslingers.piles import known_in_hand
from gamehall.games.grimslingers.state import (
    COMMIT_NAMES,
    PHASE_NAMES,
    PICK_NAMES,
    PROMPT_NAMES,
    Commit,
    Commitment,
    Flags,
    Phase,
    Picking,
    PickKind,
    Play,
    PlayStatus,
    Prompt,
    PromptKind,
    Seat,
    Stage,
    StandoffUse,
    State,
)
from gamehall.games.grimslingers.table import draw_in_order

_COMMIT_IDS = {v: k for k, v in COMMIT_NAMES.items()}
_SEAT_PUBLIC = {
    "hp": "hp",
    "ep": "ep",
    "max_hp": "max_hp",
    "max_ep": "max_ep",
    "alive": "alive",
    "acted": "acted",
    "used": "standoff_used",
    "anima": "anima",
    "surged": "surged",
    "flare": "flare",
    "bl_bonus": "bloodlust_bonus",
    "bl_on": "bloodlust_active",
    "bl_tally": "bloodlust_tally",
    "dark": "dark",
    "barrier": "barrier",
    "exalt": "exalt",
    "transmute": "transmute",
    "transmute_phase": "transmute_phase",
    "specter_turn": "specter_turn",
    "zeroed": "zeroed",
    "out_step": "out_step",
}
"""Public seat fields: view key -> Seat attribute (`rebuild` reads them back from a view)."""


def _keys(cards: list[int]) -> list[str]:
    return [cat.KEYS[c] for c in cards]


def _ids(keys: list[str]) -> list[int]:
    return [cat.ID[k] for k in keys]


def _commit_hidden(s: State) -> bool:
    """Committed cards stay face down (and counted in the hand size) until the reveal."""
    return s.phase in (Phase.FIRE, Phase.CHEAT)


def _held_items(s: State, x: Seat) -> list[int]:
    pool = x.hand + x.deact
    if x.commit is not None and s.phase in (Phase.FIRE, Phase.CHEAT):
        pool = pool + x.commit.cards
    return sorted(c for c in pool if cat.IS_ITEM[c])


def _face_up(s: State, i: int) -> bool:
    """Creature duels: players play face up (R-020); only the creature's card is face down."""
    return s.creature >= 0 and i != s.creature


def _hand_size(s: State, i: int, x: Seat) -> int:
    hidden = x.commit is not None and _commit_hidden(s) and not _face_up(s, i)
    return len(x.hand) + (len(x.commit.cards) if hidden and x.commit is not None else 0)


def view(s: State, seat: int | None) -> JsonDict:
    """What `seat` (None: a spectator) sees, built as the mode's `view_types` Struct."""
    return msgspec.to_builtins(build(s, seat))  # type: ignore[no-any-return]


def build(s: State, seat: int | None) -> vt.VersusView | vt.CreatureDuelView | vt.TallTaleView:
    players = [_player(s, i, x, seat) for i, x in enumerate(s.seats)]
    mine: dict[str, Any] = {}
    if seat is not None:
        x = s.seats[seat]
        mine = {
            "hand": _keys(x.hand),
            "deactivated": _keys(x.deact),
            "offer": _keys(x.offer),
            "draft_seen": _keys(x.draft_seen),
            "my_commit": None
            if x.commit is None
            else vt.MyCommitView(kind=COMMIT_NAMES[x.commit.kind], cards=_keys(x.commit.cards)),  # type: ignore[arg-type]
        }
    if s.tale is not None:
        mine["tale"] = tale_views.tale_view(s)
    f = s.flags
    return vt.BY_MODE[s.mode](
        game="grimslingers",
        seat=seat,
        seats=s.n,
        options=vt.OptionsView(
            items=s.items,
            archetypes=s.archetypes,
            draft=s.draft,
            light_and_dark=s.light_dark,
            creature=s.config_creature,
            modifiers=s.config_modifiers,
            difficulty=s.difficulty,
        ),
        creature=_creature(s),  # type: ignore[arg-type]
        flags=vt.FlagsView(**{k: getattr(f, k) for k in Flags.__struct_fields__}),
        phase=PHASE_NAMES[s.phase],  # type: ignore[arg-type]
        turn=s.turn,
        first_player=s.first_player,
        current=s.current,
        order=list(s.order),
        draft_round=s.draft_round,
        standoff_open=s.standoff_open,
        players=players,
        plays=[_play(p) for p in s.plays],
        cur_play=s.current_play,
        stage=int(s.stage),
        pending=[list(a) for a in s.pending],
        prompts=[
            vt.PromptView(seat=p.seat, kind=PROMPT_NAMES[p.kind], options=list(p.options), ref=p.ref)  # type: ignore[arg-type]
            for p in s.prompts
        ],
        picking=None
        if s.picking is None
        else vt.PickingView(
            seat=s.picking.seat,
            kind=PICK_NAMES[s.picking.kind],  # type: ignore[arg-type]
            left=s.picking.left,
            minimum=s.picking.minimum,
            taken=s.picking.taken,
            card=cat.KEYS[s.picking.card] if s.picking.card >= 0 else None,
        ),
        field=[cat.KEYS[c] if c >= 0 else None for c in s.field],
        item_deck_size=len(s.item_deck),
        item_discard=_keys(s.item_discard),
        defused=_keys(s.defused),
        scourge=None
        if s.scourge_on < 0
        else vt.ScourgeView(
            on=s.scourge_on,
            owner=s.scourge_owner,
            loss=s.scourge_loss,
            card=cat.KEYS[s.scourge_card] if s.scourge_card >= 0 else None,
        ),
        box_size=len(s.box),
        instant=list(s.instant),
        low_hp=s.low_hp,
        calm=s.calm,
        evert=s.evert,
        out_steps=s.out_steps,
        outcome=None if s.ranks is None else vt.OutcomeView(ranks=list(s.ranks), reason=s.reason),
        **mine,
    )


def _player(s: State, i: int, x: Seat, seat: int | None) -> vt.PlayerView:
    if x.commit is None or (s.phase == Phase.FIRE and i != seat and not draw_in_order(s)):
        commit = None
    else:
        commit = COMMIT_NAMES[x.commit.kind]
    return vt.PlayerView(
        hp=x.hp,
        ep=x.ep,
        max_hp=x.max_hp,
        max_ep=x.max_ep,
        alive=x.alive,
        acted=x.acted,
        used=int(x.standoff_used),
        anima=x.anima,
        surged=x.surged,
        flare=x.flare,
        bl_bonus=x.bloodlust_bonus,
        bl_on=x.bloodlust_active,
        bl_tally=x.bloodlust_tally,
        dark=x.dark,
        barrier=x.barrier,
        exalt=x.exalt,
        transmute=x.transmute,
        transmute_phase=x.transmute_phase,
        specter_turn=x.specter_turn,
        zeroed=x.zeroed,
        out_step=x.out_step,
        archetype=cat.ARCHETYPES[x.archetype].key if x.archetype >= 0 else None,
        hand_size=_hand_size(s, i, x),
        commit_cards=_keys(x.commit.cards) if x.commit is not None and _face_up(s, i) and _commit_hidden(s) else None,
        deactivated_size=len(x.deact),
        discard=_keys(x.discard),
        discard_top=cat.KEYS[x.discard[-1]] if x.discard else None,
        signatures_revealed=_keys(x.sigs_seen),
        items_held=_keys(_held_items(s, x)),
        hand_known=_keys(known_in_hand(s, x)),
        offer_size=len(x.offer),
        dealt=list(x.dealt),
        decided=_decided(s, x),
        aim=x.aim if (s.phase != Phase.AIM or i == seat) else None,
        commit=commit,  # type: ignore[arg-type]
    )


def _creature(s: State) -> vt.CreatureView | None:
    """The creature: which one, its modifiers, its whole deck (public: every duel uses the same
    cards) and the back of its face-down card (R-120: Bandit-specific or general, or a telegraph)."""
    if s.creature < 0:
        return None
    c = s.seats[s.creature]
    hidden = c.commit is not None and c.commit.cards and _commit_hidden(s)
    return vt.CreatureView(
        seat=s.creature,
        key=s.creature_key,
        modifiers=[cat.MODIFIERS[m].key for m in s.modifiers],
        deck=_keys(s.creature_deck),
        back=cat.CARDS[c.commit.cards[0]].back if hidden and c.commit is not None else None,
    )


def _decided(s: State, x: Seat) -> bool:
    if s.phase == Phase.DRAFT:
        return x.acted > 0
    if s.phase == Phase.AIM:
        return x.aim >= 0
    if s.phase == Phase.FIRE:
        return x.commit is not None
    return False


def _play(p: Play) -> vt.PlayView:
    return vt.PlayView(
        owner=p.owner,
        card=cat.KEYS[p.card],
        combine=cat.KEYS[p.combine] if p.combine >= 0 else None,
        target=p.target,
        rn=p.resolution_number,
        nv=p.nv_boost,
        bonus=p.bonus,
        as_card=cat.KEYS[p.as_card] if p.as_card >= 0 else None,
        status=int(p.status),
        consumed=p.consumed,
    )


def _play_from(d: dict[str, Any]) -> Play:
    return Play(
        d["owner"],
        cat.ID[d["card"]],
        cat.ID[d["combine"]] if d["combine"] else -1,
        d["target"],
        d["rn"],
        d["nv"],
        d["bonus"],
        cat.ID[d["as"]] if d["as"] else -1,
        PlayStatus(d["status"]),
        d["consumed"],
    )


# ------------------------------------------------------------------ rebuilding a state from a view


def rebuild(v: JsonDict, seat: int | None, rng: random.Random) -> State:
    """A full state whose view for `seat` is `v`: every hidden card, choice and deck order sampled."""
    phase = Phase(PHASE_NAMES.index(v["phase"]))
    flags = Flags(**v["flags"])
    seats: list[Seat] = []
    for p in v["players"]:
        x = Seat(p["hp"], p["ep"], p["max_hp"], p["max_ep"])
        for k, attr in _SEAT_PUBLIC.items():
            setattr(x, attr, StandoffUse(p[k]) if attr == "standoff_used" else p[k])
        x.archetype = cat.ARCHETYPE_ID[p["archetype"]] if p["archetype"] else -1
        x.discard = _ids(p["discard"])
        x.sigs_seen = _ids(p["signatures_revealed"])
        x.shown = _ids(p["hand_known"])
        x.dealt = list(p["dealt"])
        x.aim = p["aim"] if p["aim"] is not None else -1
        if phase == Phase.AIM and p["decided"] and p["aim"] is None:
            x.aim = rng.choice([t for t, q in enumerate(v["players"]) if q["alive"] and t != len(seats)])
        if p["commit"] is not None:
            x.commit = Commit(_COMMIT_IDS[p["commit"]], _ids(p["commit_cards"] or []))
        seats.append(x)
    opts = v["options"]
    s = State(
        mode=v["mode"],
        n=v["seats"],
        items=opts["items"],
        archetypes=opts["archetypes"],
        draft=opts["draft"],
        light_dark=opts["light_and_dark"],
        flags=flags,
        rng=rng.getrandbits(64),
        seats=seats,
        phase=phase,
        turn=v["turn"],
        first_player=v["first_player"],
        current=v["current"],
        order=list(v["order"]),
        draft_round=v["draft_round"],
        standoff_open=v["standoff_open"],
        plays=[_play_from(p) for p in v["plays"]],
        current_play=v["cur_play"],
        stage=Stage(v["stage"]),
        pending=[list(a) for a in v["pending"]],
        prompts=[
            Prompt(p["seat"], PromptKind(PROMPT_NAMES.index(p["kind"])), list(p["options"]), p["ref"])
            for p in v["prompts"]
        ],
        field=[cat.ID[k] if k else -1 for k in v["field"]],
        item_discard=_ids(v["item_discard"]),
        defused=_ids(v["defused"]),
        evert=v["evert"],
        instant=list(v["instant"]),
        config_creature=opts["creature"],
        config_modifiers=opts["modifiers"],
        difficulty=opts["difficulty"],
        low_hp=v["low_hp"],
        calm=v["calm"],
        out_steps=v["out_steps"],
    )
    if v["creature"] is not None:
        cv = v["creature"]
        s.creature, s.creature_key, s.creature_deck = cv["seat"], cv["key"], _ids(cv["deck"])
        s.modifiers = [next(k for k, m in enumerate(cat.MODIFIERS) if m.key == key) for key in cv["modifiers"]]
    if v["picking"] is not None:
        pk = v["picking"]
        s.picking = Picking(
            pk["seat"],
            PickKind(PICK_NAMES.index(pk["kind"])),
            pk["left"],
            pk["minimum"],
            pk["taken"],
            cat.ID[pk["card"]] if pk["card"] else -1,
        )
    if v["scourge"] is not None:
        s.scourge_on, s.scourge_owner, s.scourge_loss = v["scourge"]["on"], v["scourge"]["owner"], v["scourge"]["loss"]
        s.scourge_card = cat.ID[v["scourge"]["card"]] if v["scourge"]["card"] else -1
    if v["outcome"] is not None:
        s.ranks, s.reason = list(v["outcome"]["ranks"]), v["outcome"]["reason"]
    if v.get("tale") is not None:
        s.tale = tale_views.rebuild_tale(v["tale"], rng)
    if seat is not None:
        me = s.seats[seat]
        me.hand = _ids(v["hand"])
        me.deact = _ids(v["deactivated"])
        me.offer = _ids(v["offer"])
        me.draft_seen = _ids(v["draft_seen"])
        mine = v["my_commit"]
        me.commit = None if mine is None else Commit(_COMMIT_IDS[mine["kind"]], _ids(mine["cards"]))
    _sample_hidden(s, v, seat, rng)
    return s


def _located_sigs(s: State) -> set[int]:
    """Signatures whose place everyone knows: discard piles, face-up plays, Scourge in play."""
    out: set[int] = set()
    for i, x in enumerate(s.seats):
        out.update(c for c in x.discard if not cat.IS_ITEM[c])
        if _face_up(s, i) and x.commit is not None:
            out.update(x.commit.cards)
    for p in s.plays:
        out.update(c for c in (p.card, p.combine) if c >= 0)
    out |= tale_views.stashed(s)
    if s.scourge_card >= 0:
        out.add(s.scourge_card)
    if s.picking is not None and s.picking.card >= 0:
        out.add(s.picking.card)
    return out


def _sample_hidden(s: State, v: JsonDict, seat: int | None, rng: random.Random) -> None:
    universe = list(cat.SIGNATURES) + ([cat.LIGHT, cat.DARK] if s.light_dark else [])
    located = _located_sigs(s)
    stashed = tale_views.stashed(s)
    known: set[int] = set(located)
    if seat is not None:
        me = s.seats[seat]
        mine = set(me.hand) | set(me.deact) | set(me.offer) | set(me.commit.cards if me.commit else [])
        known |= mine
        if s.draft != "pass":
            known |= set(me.draft_seen)
    for x in s.seats:
        known |= set(x.sigs_seen)
    unseen = [c for c in universe if c not in known]
    rng.shuffle(unseen)
    held_items: set[int] = set()
    for i, x in enumerate(s.seats):
        if i == seat:
            continue
        p = v["players"][i]
        if i == s.creature:
            _sample_creature(s, x, p, v, rng)
            continue
        shown = set(x.commit.cards) if x.commit is not None and _face_up(s, i) else set()
        own_stash = s.tale.members[i].stash if s.tale is not None and i < s.players else []
        elements = [
            c
            for c in cat.BASIC_ELEMENTS
            if c not in x.discard and not _in_plays(s, i, c) and c not in shown and c not in own_stash
        ]
        sigs = [c for c in x.sigs_seen if c not in located]
        items = [c for c in _ids(p["items_held"]) if c not in shown]
        held_items.update(items)
        pool_size = p["hand_size"] + p["deactivated_size"]
        missing = pool_size - len(elements) - len(sigs) - len(items)
        take = max(0, min(missing, len(unseen)))
        pool = elements + sigs + items + unseen[:take]
        del unseen[:take]
        rng.shuffle(pool)
        x.offer = [unseen.pop() for _ in range(min(p["offer_size"], len(unseen)))]
        x.draft_seen = list(x.offer)
        _deal_pool(s, i, x, p, pool, rng)
    s.box = unseen[: v["box_size"]]
    s.sig_deck = unseen[v["box_size"] :]
    if s.items:
        in_view = set(s.item_discard) | {c for c in s.field if c >= 0} | held_items | stashed
        if s.instant:
            in_view.add(s.instant[1])
        if seat is not None:
            in_view |= {c for c in s.seats[seat].hand + s.seats[seat].deact if cat.IS_ITEM[c]}
            commit = s.seats[seat].commit
            if commit:
                in_view |= {c for c in commit.cards if cat.IS_ITEM[c]}
        for p in s.plays:
            in_view |= {c for c in (p.card, p.combine) if c >= 0 and cat.IS_ITEM[c]}
        deck = [c for c in (cat.TALE_ITEMS if s.mode == "tall-tale" else cat.ITEMS) if c not in in_view]
        rng.shuffle(deck)
        s.item_deck = deck[: v["item_deck_size"]]


def _sample_creature(s: State, x: Seat, p: dict[str, Any], v: JsonDict, rng: random.Random) -> None:
    """The creature's face-down cards: its deck less its discard pile and its cards on the table,
    split into deactivated pile, the face-down played card (matching its visible back) and hand."""
    on_table = {q.card for q in s.plays if q.owner == s.creature and q.status == PlayStatus.PENDING}
    pool = [c for c in s.creature_deck if c not in x.discard and c not in on_table]
    rng.shuffle(pool)
    back = v["creature"]["back"]
    if back is not None and x.commit is not None:
        card = next(c for c in pool if cat.CARDS[c].back == back)
        pool.remove(card)
        x.commit = Commit(x.commit.kind, [card])
    x.deact = pool[: p["deactivated_size"]]
    x.hand = pool[p["deactivated_size"] :]


def _in_plays(s: State, owner: int, card: int) -> bool:
    return any(p.owner == owner and card in (p.card, p.combine) for p in s.plays)


def _deal_pool(s: State, i: int, x: Seat, p: dict[str, Any], pool: list[int], rng: random.Random) -> None:
    """Split a seat's hidden cards into deactivated pile, commitment and hand."""
    n_deact = p["deactivated_size"]
    known = [c for c in pool if c in x.shown]  # everyone saw these go to the hand: not deactivated
    pool = [c for c in pool if c not in x.shown]
    x.deact = pool[:n_deact]
    rest = pool[n_deact:] + known
    if s.phase == Phase.FIRE and p["decided"] and x.commit is None:
        x.hand = rest
        x.commit = _sample_commit(s, i, rng)
        for c in x.commit.cards:
            x.hand.remove(c)
    elif (
        x.commit is not None
        and s.phase in (Phase.FIRE, Phase.CHEAT)
        and x.commit.kind == Commitment.PLAY
        and not x.commit.cards
    ):
        x.hand = rest
        x.commit = _sample_commit(s, i, rng, plays_only=True)
        for c in x.commit.cards:
            x.hand.remove(c)
    else:
        x.hand = rest


def _sample_commit(s: State, seat: int, rng: random.Random, plays_only: bool = False) -> Commit:
    """A random legal Draw Step Two choice from the seat's (sampled) hand."""
    from gamehall.games.grimslingers.actions import BloodFeast, IntoDarkness, Pass
    from gamehall.games.grimslingers.actions import Play as PlayAction
    from gamehall.games.grimslingers.draw import fire_legal
    from gamehall.games.grimslingers.state import Commitment

    options = fire_legal(s, seat)
    if plays_only:
        options = [a for a in options if isinstance(a, PlayAction)]
    action = rng.choice(options) if options else PlayAction(cat.KEYS[s.seats[seat].hand[0]])
    if isinstance(action, PlayAction):
        return Commit(Commitment.PLAY, [cat.ID[action.card]] + ([cat.ID[action.combine]] if action.combine else []))
    if isinstance(action, IntoDarkness):
        return Commit(Commitment.INTO_DARKNESS)
    if isinstance(action, BloodFeast):
        return Commit(Commitment.BLOOD_FEAST)
    assert isinstance(action, Pass)
    return Commit(Commitment.PASS)


def determinize(v: JsonDict, seat: int, rng: random.Random) -> State:
    return rebuild(v, seat, rng)


def resample_hidden(s: State, seat: int | None, rng: random.Random) -> State:
    return rebuild(view(s, seat), seat, rng)


def describe(s: State, action: Action) -> str:
    if isinstance(action, Choose) and s.prompts:
        return f"{PROMPT_NAMES[s.prompts[0].kind]}: {action.option}"
    return ""
