/**
 * Grimslingers: the duel table for every mode (versus, teams, advanced duels, creature duels, the Witch King)
 * and the Tall Tale's trail around it. Each Grimslinger's panel shows HP/EP, statuses, hand (faces only for the
 * viewing seat, backs for everyone else), deactivated pile, discard, items and signatures revealed; the middle
 * of the table shows the cards in play, the scavenge field, the creature, pending choices and the result.
 */

import { CONTENT } from "./content.generated";
import type { RenderInfo } from "./index";
import {
  arr, backs, banner, card, cardRow, chip, h, header, humanize, isObj, line, meter, num, obj,
  personName, seatPanel, stat, str, strs, tableRoot, unreadable, zone, type Obj,
} from "./dom";

const GS = CONTENT.grimslingers;
const PLAY_STATUS = ["pending", "resolved", "removed"];
/** Standoff actions as the bits of a seat's `used` field (1, 2, 4, 8, 16). */
const STANDOFF_USES = ["Sacrifice", "Reload", "Purge", "Surge", "Reactivate"];
/** What `decided` means in the phases where every seat chooses at once. */
const DECIDED: Record<string, string> = { draft: "has picked", aim: "has aimed", fire: "committed (face down)" };
const TEAM_MODES = new Set(["versus-teams", "versus-teams-3v3"]);
const MODE_NAMES: Record<string, string> = {
  "versus-1v1": "Versus 1v1",
  "versus-ffa": "Versus free-for-all",
  "versus-teams": "Versus teams 2v2",
  "versus-teams-3v3": "Versus teams 3v3",
  "advanced-duels": "Advanced Duels",
  "creature-duel": "Creature duel",
  "witch-king": "Witch King challenge",
  "tall-tale": "Tall Tale",
};

/** A card by its view key ("FIRE", "Drain", "snake_oil.2"): its printed name, RN and cost, text as a tooltip. */
function gsCard(key: string, extra = ""): HTMLElement {
  const info = GS.cards[key.replace(/\.\d+$/, "")];
  if (!info) return card(key, humanize(key), `gs-unknown ${extra}`.trim());
  const [name, kind, rn, cost, text] = info;
  const cls = kind === "element" ? `gs-element gs-el-${key.toLowerCase()}` : `gs-${kind}`;
  const facts = [rn !== null ? `RN ${rn}` : "", cost ? `${cost} EP` : ""].filter(Boolean).join(" · ");
  const el = card(key, name, `${cls} ${extra}`.trim(), facts ? h("span", { class: "gh-sub" }, facts) : null);
  if (text) el.title = `${name}: ${text}`;
  return el;
}

function cardName(key: string): string {
  return GS.cards[key.replace(/\.\d+$/, "")]?.[0] ?? humanize(key);
}

function creatureName(key: string): string {
  return GS.creatures[key] ?? humanize(key);
}

function cards(keys: string[], label: string): HTMLElement {
  return cardRow(label, keys.map((k) => gsCard(k)));
}

/** A gunslinger as people know them: the player's name when the page has it, else "Grimslinger n" (1-based). */
function gsName(seat: number): string {
  return personName(seat, `Grimslinger ${seat + 1}`);
}

export function render(view: unknown, info: RenderInfo): HTMLElement {
  if (!isObj(view) || !Array.isArray(view.players)) return unreadable("grimslingers", "it has no players");
  const v = view;
  const mode = str(v.mode, info.mode);
  const me = typeof v.seat === "number" ? v.seat : null;
  const creature = isObj(v.creature) ? v.creature : null;
  const creatureSeat = creature ? num(creature.seat, -1) : -1;
  const players = arr(v.players).map(obj);
  const phase = str(v.phase);
  const outcome = isObj(v.outcome) ? v.outcome : null;
  const current = outcome ? -1 : num(v.current, -1);
  const modeName = MODE_NAMES[mode] ?? humanize(mode);

  const root = tableRoot("grimslingers", `Grimslingers table, ${modeName}, ${players.length} seats`);
  root.append(
    header(`Grimslingers · ${modeName}`, [
      ["Turn", String(num(v.turn))],
      ["Phase", humanize(phase)],
      ["First player", seatLabel(num(v.first_player), creatureSeat, str(creature?.key))],
      ...(str(obj(v.options).difficulty) ? [["Difficulty", humanize(str(obj(v.options).difficulty))] as [string, string]] : []),
    ]),
  );
  const options = obj(v.options);
  const modules = [options.items ? "Items" : "", options.archetypes ? "Archetypes" : "", options.light_and_dark ? "Light & Dark" : "", str(options.draft) && str(options.draft) !== "hidden" ? `${humanize(str(options.draft))} draft` : ""].filter(Boolean);
  if (modules.length) root.append(h("p", { class: "gh-chips gs-modules", "aria-label": "modules in play" }, modules.map((m) => chip(m))));
  root.append(isObj(v.tale) && phase === "adventure" && !outcome ? taleLine(v.tale) : statusLine(v, players, creatureSeat, outcome));

  if (isObj(v.tale)) root.append(renderTale(v.tale, players));

  const seats = h("div", { class: "gh-seats" });
  players.forEach((p, i) => {
    seats.append(i === creatureSeat && creature ? creaturePanel(p, creature, i, current) : playerPanel(v, p, i, me, mode, current));
  });
  root.append(seats);
  root.append(middle(v, players, creatureSeat));
  const own = me !== null ? ownCards(v, me) : null;
  if (own) root.append(own);
  return root;
}

/** Seat i's name at this table ("Grimslinger 2", or the creature's name). */
function nameOf(v: Obj, i: number): string {
  const c = isObj(v.creature) ? v.creature : null;
  return seatLabel(i, c ? num(c.seat, -1) : -1, c ? str(c.key) : "");
}

function seatLabel(i: number, creatureSeat: number, creatureKey = ""): string {
  return i === creatureSeat ? `Creature${creatureKey ? `: ${creatureName(creatureKey)}` : ""}` : `${gsName(i)}`;
}

function statusLine(v: Obj, players: Obj[], creatureSeat: number, outcome: Obj | null): HTMLElement {
  const creatureKey = str(obj(v.creature).key);
  if (outcome) {
    // Ranks are per Grimslinger (a creature has none): rank 1 won.
    const ranks = arr(outcome.ranks).map((r) => num(r));
    const winners = ranks.map((r, i) => (r === 1 ? i : -1)).filter((i) => i >= 0);
    const together = creatureSeat >= 0 || isObj(v.tale);
    let lead: string;
    if (winners.length === 0) lead = together ? `The Grimslingers lose${creatureKey ? ` to the ${creatureName(creatureKey)}` : ""}` : "No winner";
    else if (together) lead = "The Grimslingers win";
    else if (winners.length === ranks.length && ranks.length > 1) lead = "Draw";
    else if (TEAM_MODES.has(str(v.mode))) lead = `Team ${(winners[0] % 2) + 1} wins (${winners.map((i) => `${gsName(i)}`).join(", ")})`;
    else lead = `${winners.map((i) => `${gsName(i)}`).join(", ")} win${winners.length === 1 ? "s" : ""}`;
    const reason = str(outcome.reason);
    return banner(`Game over: ${lead}${reason ? ` (${reason})` : ""}.`, "result");
  }
  const picking = isObj(v.picking) ? v.picking : null;
  const prompts = arr(v.prompts).map(obj);
  if (prompts.length > 0) {
    const p = prompts[0];
    return banner(`${seatLabel(num(p.seat), creatureSeat, creatureKey)} must choose: ${humanize(str(p.kind))}.`);
  }
  if (picking) {
    const what = humanize(str(picking.kind));
    const forCard = str(picking.card) ? ` (${cardName(str(picking.card))})` : "";
    return banner(`${seatLabel(num(picking.seat), creatureSeat, creatureKey)} is choosing cards to ${what.toLowerCase()}${forCard}: ${num(picking.left)} left.`);
  }
  const waiting = players.map((p, i) => (p.alive && !p.decided ? i : -1)).filter((i) => i >= 0);
  const phase = str(v.phase);
  if (["draft", "aim", "fire"].includes(phase)) {
    const names = waiting.filter((i) => i !== creatureSeat).map((i) => seatLabel(i, creatureSeat, creatureKey));
    return banner(`${humanize(phase)}: ${names.length ? `waiting for ${names.join(", ")}` : "all have chosen"}.`);
  }
  const cur = num(v.current, -1);
  if (cur >= 0) return banner(`${seatLabel(cur, creatureSeat, creatureKey)} to act (${humanize(phase)}).`);
  return banner(humanize(phase) || "Waiting", "note");
}

function statusChips(p: Obj): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (p.archetype) {
    const a = GS.archetypes[str(p.archetype)];
    const c = chip(a ? a[0] : humanize(str(p.archetype)), "gs-archetype");
    if (a) c.title = a[1];
    out.push(c);
  }
  if (p.anima) out.push(chip("Anima"));
  if (p.surged) out.push(chip("Surged"));
  if (p.flare) out.push(chip("Flare"));
  if (p.dark) out.push(chip("Into Darkness", "gs-dark"));
  if (num(p.barrier) > 0) out.push(chip(`Barrier ${num(p.barrier)}`));
  if (p.exalt) out.push(chip("Exalted"));
  if (p.bl_on) out.push(chip(`Bloodlust +${num(p.bl_bonus)}`, "gs-blood"));
  if (num(p.transmute, -1) >= 0) out.push(chip("Transmuting"));
  if (p.zeroed) out.push(chip("At zero"));
  const used = STANDOFF_USES.filter((_, bit) => (num(p.used) >> bit) & 1);
  if (used.length) out.push(chip(`Standoff: ${used.join(", ")}`, "gs-used"));
  return out;
}

/** Whether the result ranks seat i first: not in a versus draw (every seat first), where nobody won. */
function wonBy(v: Obj, i: number): boolean {
  if (!isObj(v.outcome)) return false;
  const ranks = arr(v.outcome.ranks).map((r) => num(r));
  const together = isObj(v.creature) || isObj(v.tale);
  const draw = !together && ranks.length > 1 && ranks.every((r) => r === 1);
  return !draw && ranks[i] === 1;
}

function playerPanel(v: Obj, p: Obj, i: number, me: number | null, mode: string, current: number): HTMLElement {
  const alive = p.alive !== false;
  const team = TEAM_MODES.has(mode) ? ` · Team ${(i % 2) + 1}` : "";
  const mine = me === i;
  const hand = mine ? strs(v.hand) : [];
  const commitCards = strs(p.commit_cards);
  const commit = str(p.commit);
  const aim = typeof p.aim === "number" && p.aim >= 0 ? p.aim : null;
  return seatPanel(
    `${gsName(i)}${team}`,
    { active: current === i, you: mine, out: !alive, won: wonBy(v, i), seat: i, cls: `gs-seat gs-team-${TEAM_MODES.has(mode) ? (i % 2) + 1 : 0}` },
    h("div", { class: "gh-meters" }, meter("HP", num(p.hp), num(p.max_hp), "hp"), meter("EP", num(p.ep), num(p.max_ep), "ep")),
    h("div", { class: "gh-chips" }, statusChips(p)),
    line("Hand", mine ? cards(hand, "your hand") : backs(num(p.hand_size), "cards in hand")),
    line("Deactivated", mine ? cards(strs(v.deactivated), "your deactivated cards") : backs(num(p.deactivated_size), "deactivated cards")),
    line("Discard", cards(strs(p.discard).slice(-6), `discard pile, ${strs(p.discard).length} cards (latest last)`)),
    strs(p.items_held).length ? line("Items", cards(strs(p.items_held), "items held")) : null,
    strs(p.signatures_revealed).length ? line("Signatures seen", cards(strs(p.signatures_revealed), "signatures revealed")) : null,
    p.decided && DECIDED[str(v.phase)] && !commit && !commitCards.length ? line("Choice", chip(DECIDED[str(v.phase)])) : null,
    commit || commitCards.length
      ? line(
          "Committed",
          commitCards.length ? cards(commitCards, "committed cards, face up") : chip(humanize(commit)),
        )
      : null,
    aim !== null ? line("Aims at", chip(nameOf(v, aim))) : null,
  );
}

function modifierChip(key: string): HTMLElement {
  const m = GS.modifiers[key];
  const c = chip(m ? m[0] : humanize(key), "gs-mod");
  if (m) c.title = m[1];
  return c;
}

function creaturePanel(p: Obj, c: Obj, i: number, current: number): HTMLElement {
  const key = str(c.key);
  const mods = strs(c.modifiers);
  const back = str(c.back);
  return seatPanel(
    `Creature: ${creatureName(key)}`,
    { active: current === i, out: p.alive === false, seat: i, cls: "gs-creature" },
    h("div", { class: "gh-meters" }, meter("HP", num(p.hp), num(p.max_hp), "hp"), meter("EP", num(p.ep), num(p.max_ep), "ep")),
    h("div", { class: "gh-chips" }, mods.map((m) => modifierChip(m)), statusChips(p)),
    line("Hand", backs(num(p.hand_size), "creature cards in hand")),
    back ? line("Played face down", h("span", { class: "gh-card gh-back gs-telegraph", role: "img", "aria-label": `face-down card, back: ${humanize(back)}` }, humanize(back))) : null,
    line("Discard", cardRow("creature discard pile", strs(p.discard).slice(-6).map((k) => gsCard(k, "gs-ccard")))),
    line("Deck", h("span", {}, `${strs(c.deck).length} cards (the same every duel)`)),
  );
}

function middle(v: Obj, players: Obj[], creatureSeat: number): HTMLElement {
  const creatureKey = str(obj(v.creature).key);
  const plays = arr(v.plays).map(obj);
  const items = h("ul", { class: "gs-plays", "aria-label": "cards in play" });
  plays.forEach((p, n) => {
    const status = PLAY_STATUS[num(p.status)] ?? "pending";
    const target = typeof p.target === "number" && p.target >= 0 ? seatLabel(p.target, creatureSeat, creatureKey) : "";
    const current = num(v.cur_play, -1) === n;
    items.append(
      h(
        "li",
        { class: `gs-play gs-play-${status}${current ? " gh-active" : ""}`, "aria-label": `${seatLabel(num(p.owner), creatureSeat, creatureKey)} plays ${cardName(str(p.card))}${target ? ` at ${target}` : ""}, ${status}` },
        h("span", { class: "gs-play-owner" }, seatLabel(num(p.owner), creatureSeat, creatureKey)),
        h("ul", { class: "gh-cards" }, gsCard(str(p.card), num(p.owner) === creatureSeat ? "gs-ccard" : ""), str(p.combine) ? gsCard(str(p.combine)) : null),
        target ? h("span", { class: "gs-play-target" }, `→ ${target}`) : null,
        str(p.as) ? chip(`as ${cardName(str(p.as))}`) : null,
        num(p.rn) ? chip(`RN ${num(p.rn)}`) : null,
        num(p.nv) ? chip(`+${num(p.nv)} NV`) : null,
        num(p.bonus) ? chip(`bonus +${num(p.bonus)}`) : null,
        chip(status, `gs-status-${status}`),
      ),
    );
  });
  const field = arr(v.field).map((k) => (typeof k === "string" ? gsCard(k) : h("li", { class: "gh-card gh-slot", "aria-label": "empty field slot" }, "empty")));
  const scourge = isObj(v.scourge) ? v.scourge : null;
  const options = obj(v.options);
  return zone(
    "On the table",
    "gs-middle",
    plays.length ? items : h("p", { class: "gh-empty" }, "No cards in play."),
    options.items || field.length
      ? line("Scavenge field", h("ul", { class: "gh-cards", "aria-label": "scavenge field" }, field), stat("Item deck", num(v.item_deck_size)))
      : null,
    strs(v.item_discard).length ? line("Item discard", cards(strs(v.item_discard).slice(-4), "item discard pile")) : null,
    strs(v.defused).length ? line("Defused", cards(strs(v.defused), "defused cards")) : null,
    scourge ? line("Scourge", chip(`on ${nameOf(v, num(scourge.on))}${str(scourge.card) ? `: ${cardName(str(scourge.card))}` : ""}`)) : null,
    players.length > 2 && arr(v.order).length ? line("Order", h("span", {}, arr(v.order).map((s) => seatLabel(num(s), creatureSeat, creatureKey)).join(" → "))) : null,
  );
}

function ownCards(v: Obj, me: number): HTMLElement | null {
  const offer = strs(v.offer);
  const commit = isObj(v.my_commit) ? v.my_commit : null;
  if (!offer.length && !commit) return null;
  return zone(
    `Your choices (${gsName(me)})`,
    "gs-own",
    offer.length ? line("Draft offer", cards(offer, "draft offer")) : null,
    commit ? line(`Committed: ${humanize(str(commit.kind))}`, cards(strs(commit.cards), "your committed cards")) : null,
  );
}

/** The banner between duels: where the posse is and what the trail waits for. */
function taleLine(t: Obj): HTMLElement {
  const node = CONTENT.grimslingers.nodes.find(([key]) => key === str(t.node));
  const where = node ? `${node[1]} (${node[2]})` : humanize(str(t.node));
  const decision = isObj(t.decision) ? `: ${humanize(str(t.decision.kind)).toLowerCase()} to decide` : "";
  return banner(`The posse is at ${where}, ${humanize(str(t.step)).toLowerCase()} step${decision}.`);
}

function renderTale(t: Obj, players: Obj[]): HTMLElement {
  const here = str(t.node);
  const links = new Set(strs(t.links));
  const nodes = CONTENT.grimslingers.nodes;
  const map = h("ol", { class: "gs-trail", "aria-label": `${CONTENT.grimslingers.map}: nodes of the trail` });
  for (const [key, name, type] of nodes) {
    const at = key === here;
    const next = links.has(key);
    map.append(
      h(
        "li",
        { class: `gs-node gs-node-${type}${at ? " gs-here" : ""}${next ? " gs-next" : ""}`, "aria-label": `${name}, ${type}${at ? ", the posse is here" : next ? ", a path from here" : ""}`, "aria-current": at ? "location" : null },
        h("span", { class: "gs-node-name" }, name),
        h("span", { class: "gs-node-type" }, type),
      ),
    );
  }
  const members = arr(t.members).map(obj);
  const posse = h("ul", { class: "gs-posse", "aria-label": "the posse" });
  members.forEach((m, i) => {
    const p = players[i] ?? {};
    posse.append(
      h(
        "li",
        { class: `gs-member${m.down ? " gh-out" : ""}` },
        h("b", {}, `${gsName(i)}`),
        ` level ${num(m.level)}, hand limit ${num(m.hand_limit)}`,
        m.down ? chip("down", "gh-chip-out") : null,
        p.hp !== undefined ? ` · HP ${num(p.hp)}/${num(p.max_hp)}` : null,
        strs(m.stash).length ? cards(strs(m.stash), `stash of ${gsName(i)}`) : null,
      ),
    );
  });
  const duel = str(t.duel);
  const result = str(t.result);
  return zone(
    `Tall Tale · ${CONTENT.grimslingers.chapters[str(t.chapter)] ?? humanize(str(t.chapter))}, part ${num(t.part)}`,
    "gs-tale",
    str(t.objective) ? h("p", { class: "gs-objective" }, h("b", {}, "Objective: "), str(t.objective)) : null,
    result ? banner(`The tale ends: ${humanize(result)}.`, "result") : null,
    h(
      "div",
      { class: "gh-chips" },
      stat("Trail turn", num(t.turn)),
      stat("Step", humanize(str(t.step))),
      stat("Duels won", num(t.duels_won)),
      stat("Defeats left", num(t.defeats_left)),
      stat("Event deck", num(t.event_deck_size)),
    ),
    map,
    duel && duel !== "none" ? line("Duel", chip(`${str(t.duel_creature) ? creatureName(str(t.duel_creature)) : humanize(duel)}${str(t.duel_outcome) ? ` · ${humanize(str(t.duel_outcome))}` : ""}`)) : null,
    str(t.event) ? line("Event", chip(humanize(str(t.event)))) : null,
    strs(t.award).length ? line("Award", cards(strs(t.award), "award on offer")) : null,
    strs(t.loot).length ? line("Loot", cards(strs(t.loot), "loot")) : null,
    isObj(t.decision) ? line("Decision", chip(`${humanize(str(t.decision.kind))}: proposed by ${gsName(num(t.decision.proposer))}`)) : null,
    posse,
  );
}
