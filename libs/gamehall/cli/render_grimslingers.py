"""Grimslingers in the terminal, after `web/src/renderers/grimslingers.ts`: the duel table for every mode (versus,
teams, advanced duels, creature duels, the Witch King) and the Tall Tale's trail map around it. Each seat's panel
shows HP/EP, statuses, hand (faces for the viewer, a count for everyone else), deactivated pile, discard, items
and signatures revealed; the middle of the table the cards in play, the scavenge field, pending choices and the
result; the creature's panel its modifiers, face-down card and discard.
"""

from __future__ import annotations

import functools
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from gamehall.cli.render_common import (
    Obj,
    arr,
    banner,
    content,
    facts_table,
    header,
    humanize,
    meter,
    names,
    num,
    obj,
    panel,
    stats,
    table,
    text,
    texts,
)

PLAY_STATUS = ("pending", "resolved", "removed")
STANDOFF_USES = ("Sacrifice", "Reload", "Purge", "Surge", "Reactivate")
DECIDED = {"draft": "has picked", "aim": "has aimed", "fire": "committed (face down)"}
TEAM_MODES = {"versus-teams", "versus-teams-3v3"}
MODE_NAMES = {
    "versus-1v1": "Versus 1v1",
    "versus-ffa": "Versus free-for-all",
    "versus-teams": "Versus teams 2v2",
    "versus-teams-3v3": "Versus teams 3v3",
    "advanced-duels": "Advanced Duels",
    "creature-duel": "Creature duel",
    "witch-king": "Witch King challenge",
    "tall-tale": "Tall Tale",
}


@functools.cache
def _content() -> dict[str, Any]:
    creatures = content("grimslingers", "creatures")
    tale = content("grimslingers", "tall_tale")
    cards = [
        *content("grimslingers", "elements")["cards"],
        *content("grimslingers", "signatures")["cards"],
        *content("grimslingers", "items")["cards"],
        *creatures["skills"],
        *content("grimslingers", "tale_items")["cards"],
    ]
    return {
        "cards": {c["key"]: c["name"].title() if c["kind"] == "element" else c["name"] for c in cards},
        "creatures": {c["key"]: c["name"] for c in [*creatures["creatures"], creatures["witch_king"]]},
        "modifiers": {m["key"]: m["name"] for m in creatures["modifiers"]},
        "archetypes": {a["key"]: a["name"] for a in content("grimslingers", "archetypes")["archetypes"]},
        "nodes": [(n["key"], n["name"], n["type"]) for n in tale["map"]["nodes"]],
        "map": tale["map"]["name"],
        "chapters": {c["key"]: c["name"] for c in tale["chapters"]},
    }


def card_name(key: str) -> str:
    """A card by its view key (`FIRE`, `Drain`, `snake_oil.2`): its printed name."""
    base = key.rsplit(".", 1)[0] if key.rsplit(".", 1)[-1].isdigit() else key
    return str(_content()["cards"].get(base, humanize(key)))


def cards(keys: list[str], empty: str = "none") -> Text:
    return names([card_name(k) for k in keys], empty)


def creature_name(key: str) -> str:
    return str(_content()["creatures"].get(key, humanize(key)))


def seat_label(i: int, creature_seat: int, creature_key: str = "") -> str:
    if i == creature_seat:
        return f"Creature: {creature_name(creature_key)}" if creature_key else "Creature"
    return f"Grimslinger {i + 1}"


def render(view: Obj) -> RenderableType:
    mode = text(view.get("mode"), "versus-1v1")
    me = view.get("seat") if isinstance(view.get("seat"), int) else None
    creature = obj(view.get("creature")) if isinstance(view.get("creature"), dict) else None
    creature_seat = num(creature.get("seat"), -1) if creature else -1
    creature_key = text(creature.get("key")) if creature else ""
    players = [obj(p) for p in arr(view.get("players"))]
    phase = text(view.get("phase"))
    outcome = obj(view.get("outcome")) if isinstance(view.get("outcome"), dict) else None
    current = -1 if outcome else num(view.get("current"), -1)
    options = obj(view.get("options"))
    facts = [
        ("Turn", str(num(view.get("turn")))),
        ("Phase", humanize(phase)),
        ("First player", seat_label(num(view.get("first_player")), creature_seat, creature_key)),
    ]
    if text(options.get("difficulty")) and mode in ("witch-king", "tall-tale"):
        facts.append(("Difficulty", humanize(text(options.get("difficulty")))))
    modules = [
        m
        for m in (
            "Items" if options.get("items") else "",
            "Archetypes" if options.get("archetypes") else "",
            "Light & Dark" if options.get("light_and_dark") else "",
            f"{humanize(text(options.get('draft')))} draft" if text(options.get("draft")) not in ("", "hidden") else "",
        )
        if m
    ]
    tale = obj(view.get("tale")) if isinstance(view.get("tale"), dict) else None
    status = (
        _tale_line(tale)
        if tale and phase == "adventure" and not outcome
        else _status(view, players, creature_seat, creature_key, outcome)
    )
    seats = []
    for i, p in enumerate(players):
        if i == creature_seat and creature:
            seats.append(_creature_panel(p, creature, i, current))
        else:
            seats.append(_player_panel(view, p, i, me, mode, current, creature_seat, creature_key))
    return table(
        header(f"Grimslingers · {MODE_NAMES.get(mode, humanize(mode))}", facts),
        Text("Modules: " + ", ".join(modules), style="dim") if modules else None,
        status,
        _tale(tale, players) if tale else None,
        *seats,
        _middle(view, players, creature_seat, creature_key),
        _own(view, me) if me is not None else None,
    )


def _status(view: Obj, players: list[Obj], creature_seat: int, creature_key: str, outcome: Obj | None) -> Text:
    if outcome:
        ranks = [num(r) for r in arr(outcome.get("ranks"))]
        winners = [i for i, r in enumerate(ranks) if r == 1]
        together = creature_seat >= 0 or isinstance(view.get("tale"), dict)
        if not winners:
            lead = (
                f"The Grimslingers lose{f' to the {creature_name(creature_key)}' if creature_key else ''}"
                if together
                else "No winner"
            )
        elif together:
            lead = "The Grimslingers win"
        elif len(winners) == len(ranks) > 1:
            lead = "Draw"
        elif text(view.get("mode")) in TEAM_MODES:
            lead = f"Team {winners[0] % 2 + 1} wins ({', '.join(f'Grimslinger {i + 1}' for i in winners)})"
        else:
            lead = f"{', '.join(f'Grimslinger {i + 1}' for i in winners)} win{'s' if len(winners) == 1 else ''}"
        reason = text(outcome.get("reason"))
        return banner(f"Game over: {lead}{f' ({reason})' if reason else ''}.", "result")
    prompts = [obj(p) for p in arr(view.get("prompts"))]
    if prompts:
        who = seat_label(num(prompts[0].get("seat")), creature_seat, creature_key)
        return banner(f"{who} must choose: {humanize(text(prompts[0].get('kind')))}.")
    picking = obj(view.get("picking")) if isinstance(view.get("picking"), dict) else None
    if picking:
        who = seat_label(num(picking.get("seat")), creature_seat, creature_key)
        for_card = f" ({card_name(text(picking.get('card')))})" if text(picking.get("card")) else ""
        what = humanize(text(picking.get("kind"))).lower()
        return banner(f"{who} is choosing cards to {what}{for_card}: {num(picking.get('left'))} left.")
    phase = text(view.get("phase"))
    if phase in DECIDED:
        waiting = [
            seat_label(i, creature_seat, creature_key)
            for i, p in enumerate(players)
            if p.get("alive") and not p.get("decided") and i != creature_seat
        ]
        return banner(f"{humanize(phase)}: {'waiting for ' + ', '.join(waiting) if waiting else 'all have chosen'}.")
    current = num(view.get("current"), -1)
    if current >= 0:
        return banner(f"{seat_label(current, creature_seat, creature_key)} to act ({humanize(phase)}).")
    return banner(humanize(phase) or "Waiting", "note")


def _statuses(p: Obj) -> list[str]:
    out = []
    if p.get("archetype"):
        out.append(str(_content()["archetypes"].get(text(p.get("archetype")), humanize(text(p.get("archetype"))))))
    for key, label in (
        ("anima", "Anima"),
        ("surged", "Surged"),
        ("flare", "Flare"),
        ("dark", "Into Darkness"),
        ("exalt", "Exalted"),
        ("zeroed", "At zero"),
    ):
        if p.get(key):
            out.append(label)
    if num(p.get("barrier")) > 0:
        out.append(f"Barrier {num(p.get('barrier'))}")
    if p.get("bl_on"):
        out.append(f"Bloodlust +{num(p.get('bl_bonus'))}")
    if num(p.get("transmute"), -1) >= 0:
        out.append("Transmuting")
    used = [name for bit, name in enumerate(STANDOFF_USES) if (num(p.get("used")) >> bit) & 1]
    if used:
        out.append(f"Standoff: {', '.join(used)}")
    return out


def _meters(p: Obj) -> Text:
    return Text.assemble(
        meter("HP", num(p.get("hp")), num(p.get("max_hp"))),
        "  ",
        meter("EP", num(p.get("ep")), num(p.get("max_ep")), style="blue"),
    )


def _player_panel(
    view: Obj, p: Obj, i: int, me: Any, mode: str, current: int, creature_seat: int, creature_key: str
) -> RenderableType:
    mine = me == i
    team = f" · Team {i % 2 + 1}" if mode in TEAM_MODES else ""
    commit_cards = texts(p.get("commit_cards"))
    commit = text(p.get("commit"))
    aim = p.get("aim") if isinstance(p.get("aim"), int) and num(p.get("aim")) >= 0 else None
    phase = text(view.get("phase"))
    discard = texts(p.get("discard"))

    def hidden(count: int, what: str) -> Text:
        return Text(f"{count} {what}" if count else "none", style="dim")

    body = facts_table(
        [
            ("", _meters(p)),
            ("", names(_statuses(p), "") if _statuses(p) else None),
            ("Hand", cards(texts(view.get("hand"))) if mine else hidden(num(p.get("hand_size")), "cards")),
            (
                "Deactivated",
                cards(texts(view.get("deactivated"))) if mine else hidden(num(p.get("deactivated_size")), "cards"),
            ),
            (
                "Discard",
                cards(discard[-6:])
                if len(discard) <= 6
                else Text.assemble(f"{len(discard)} cards, latest: ", cards(discard[-6:])),
            ),
            ("Items", cards(texts(p.get("items_held"))) if texts(p.get("items_held")) else None),
            (
                "Signatures seen",
                cards(texts(p.get("signatures_revealed"))) if texts(p.get("signatures_revealed")) else None,
            ),
            (
                "Choice",
                DECIDED[phase] if p.get("decided") and phase in DECIDED and not commit and not commit_cards else None,
            ),
            (
                "Committed",
                (cards(commit_cards) if commit_cards else humanize(commit)) if commit or commit_cards else None,
            ),
            ("Aims at", seat_label(num(aim), creature_seat, creature_key) if aim is not None else None),
        ]
    )
    return panel(body, f"Grimslinger {i + 1}{team}", active=current == i, you=mine, out=p.get("alive") is False)


def _creature_panel(p: Obj, creature: Obj, i: int, current: int) -> RenderableType:
    mods = [str(_content()["modifiers"].get(m, humanize(m))) for m in texts(creature.get("modifiers"))]
    back = text(creature.get("back"))
    body = facts_table(
        [
            ("", _meters(p)),
            ("", names(mods + _statuses(p), "") if mods or _statuses(p) else None),
            ("Hand", Text(f"{num(p.get('hand_size'))} cards", style="dim")),
            ("Face down", f"a card, back: {humanize(back)}" if back else None),
            ("Discard", cards(texts(p.get("discard"))[-6:])),
            ("Deck", f"{len(arr(creature.get('deck')))} cards (the same every duel)"),
        ]
    )
    return panel(
        body, f"Creature: {creature_name(text(creature.get('key')))}", active=current == i, out=p.get("alive") is False
    )


def _middle(view: Obj, players: list[Obj], creature_seat: int, creature_key: str) -> RenderableType:
    plays = [obj(p) for p in arr(view.get("plays"))]
    rows: RenderableType
    if plays:
        grid = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
        for column in ("by", "card", "at", "", "status"):
            grid.add_column(column)
        for n, play in enumerate(plays):
            status = PLAY_STATUS[num(play.get("status"))] if 0 <= num(play.get("status")) < 3 else "pending"
            target = play.get("target")
            extras = [
                f"+ {card_name(text(play.get('combine')))}" if text(play.get("combine")) else "",
                f"as {card_name(text(play.get('as')))}" if text(play.get("as")) else "",
                f"RN {num(play.get('rn'))}" if num(play.get("rn")) else "",
                f"+{num(play.get('nv'))} NV" if num(play.get("nv")) else "",
                f"bonus +{num(play.get('bonus'))}" if num(play.get("bonus")) else "",
            ]
            grid.add_row(
                seat_label(num(play.get("owner")), creature_seat, creature_key),
                Text(card_name(text(play.get("card"))), style="bold" if num(view.get("cur_play"), -1) == n else ""),
                seat_label(target, creature_seat, creature_key) if isinstance(target, int) and target >= 0 else "",
                " ".join(e for e in extras if e),
                status,
            )
        rows = grid
    else:
        rows = Text("No cards in play.", style="dim")
    options = obj(view.get("options"))
    field = [card_name(k) if isinstance(k, str) else "empty" for k in arr(view.get("field"))]
    scourge = obj(view.get("scourge")) if isinstance(view.get("scourge"), dict) else None
    order = [seat_label(num(s), creature_seat, creature_key) for s in arr(view.get("order"))]
    body = facts_table(
        [
            ("In play", rows),
            (
                "Scavenge field",
                Text.assemble(names(field, "empty"), f" · item deck {num(view.get('item_deck_size'))}")
                if options.get("items") or field
                else None,
            ),
            ("Item discard", cards(texts(view.get("item_discard"))[-4:]) if texts(view.get("item_discard")) else None),
            ("Defused", cards(texts(view.get("defused"))) if texts(view.get("defused")) else None),
            (
                "Scourge",
                f"on {seat_label(num(scourge.get('on')), creature_seat, creature_key)}"
                + (f": {card_name(text(scourge.get('card')))}" if text(scourge.get("card")) else "")
                if scourge
                else None,
            ),
            ("Order", " → ".join(order) if len(players) > 2 and order else None),
        ]
    )
    return panel(body, "On the table")


def _own(view: Obj, me: int) -> RenderableType | None:
    offer = texts(view.get("offer"))
    commit = obj(view.get("my_commit")) if isinstance(view.get("my_commit"), dict) else None
    if not offer and not commit:
        return None
    body = facts_table(
        [
            ("Draft offer", cards(offer) if offer else None),
            (
                f"Committed: {humanize(text(commit.get('kind')))}" if commit else "",
                cards(texts(commit.get("cards"))) if commit else None,
            ),
        ]
    )
    return panel(body, f"Your choices (Grimslinger {me + 1})")


# ----------------------------------------------------------------------------- the Tall Tale


def _node(key: str) -> tuple[str, str]:
    for k, name, kind in _content()["nodes"]:
        if k == key:
            return name, kind
    return humanize(key), ""


def _tale_line(tale: Obj) -> Text:
    name, kind = _node(text(tale.get("node")))
    decision = obj(tale.get("decision"))
    to_decide = f": {humanize(text(decision.get('kind'))).lower()} to decide" if decision else ""
    return banner(f"The posse is at {name} ({kind}), {humanize(text(tale.get('step'))).lower()} step{to_decide}.")


def _trail(tale: Obj) -> Table:
    """Every node of the trail in book order, `@` where the posse is, `→` the nodes a path leads to."""
    here = text(tale.get("node"))
    links = set(texts(tale.get("links")))
    nodes = _content()["nodes"]
    per_column = (len(nodes) + 2) // 3
    grid = Table.grid(padding=(0, 3))
    columns = [nodes[c * per_column : (c + 1) * per_column] for c in range(3)]
    for _ in columns:
        grid.add_column()
    for row in range(per_column):
        cells = []
        for column in columns:
            if row >= len(column):
                cells.append(Text(""))
                continue
            key, name, kind = column[row]
            mark, style = ("@ ", "bold yellow") if key == here else ("→ ", "cyan") if key in links else ("  ", "")
            cells.append(Text(f"{mark}{name} ({kind})", style=style))
        grid.add_row(*cells)
    return grid


def _tale(tale: Obj, players: list[Obj]) -> RenderableType:
    chapter = str(_content()["chapters"].get(text(tale.get("chapter")), humanize(text(tale.get("chapter")))))
    posse = []
    for i, member in enumerate(obj(m) for m in arr(tale.get("members"))):
        p = players[i] if i < len(players) else {}
        line = f"Grimslinger {i + 1}: level {num(member.get('level'))}, hand limit {num(member.get('hand_limit'))}"
        if "hp" in p:
            line += f", HP {num(p.get('hp'))}/{num(p.get('max_hp'))}"
        if member.get("down"):
            line += ", down"
        if texts(member.get("stash")):
            line += f", stash: {', '.join(card_name(k) for k in texts(member.get('stash')))}"
        posse.append(line)
    duel = text(tale.get("duel"))
    creature = text(tale.get("duel_creature"))
    duel_text = None
    if duel and duel != "none":
        duel_text = (creature_name(creature) if creature else humanize(duel)) + (
            f" · {humanize(text(tale.get('duel_outcome')))}" if text(tale.get("duel_outcome")) else ""
        )
    decision = obj(tale.get("decision"))
    body = facts_table(
        [
            ("Objective", text(tale.get("objective")) or None),
            ("Result", f"The tale ends: {humanize(text(tale.get('result')))}." if text(tale.get("result")) else None),
            (
                "",
                stats(
                    [
                        ("Trail turn", num(tale.get("turn"))),
                        ("Step", humanize(text(tale.get("step")))),
                        ("Duels won", num(tale.get("duels_won"))),
                        ("Defeats left", num(tale.get("defeats_left"))),
                        ("Event deck", num(tale.get("event_deck_size"))),
                    ]
                ),
            ),
            (str(_content()["map"]), _trail(tale)),
            ("Duel", duel_text),
            ("Event", humanize(text(tale.get("event"))) if text(tale.get("event")) else None),
            ("Award", cards(texts(tale.get("award"))) if texts(tale.get("award")) else None),
            ("Loot", cards(texts(tale.get("loot"))) if texts(tale.get("loot")) else None),
            (
                "Decision",
                f"{humanize(text(decision.get('kind')))}: proposed by Grimslinger {num(decision.get('proposer')) + 1}"
                if decision
                else None,
            ),
            ("Posse", "\n".join(posse) if posse else None),
        ]
    )
    return panel(body, f"Tall Tale · {chapter}, part {num(tale.get('part'))}")
