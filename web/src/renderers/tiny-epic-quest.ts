/**
 * Tiny Epic Quest: the kingdom of 17 Map Cards on its 5x5 grid (each card's two regions, heroes in their players'
 * colours, goblins on portals, temple progress), the quest row, the movement card and dice, and per player the
 * health, power, spell level, goblins, quests, items, legendary progress and victory points.
 */

import { CONTENT } from "./content.generated";
import type { RenderInfo } from "./index";
import {
  arr, banner, card, cardRow, chip, h, header, humanize, isObj, line, meter, num, nums, personName, seatPanel, setVars, stat, str,
  tableRoot, unreadable, zone, type Obj,
} from "./dom";

const TEQ = CONTENT["tiny-epic-quest"];
const PHASES = ["Day", "Night", "Game over"];
const METHODS = ["Horse", "Raft", "Gryphon", "Ship", "Foot"];
const FACES = ["damage", "power", "magic", "torch", "scroll", "attack"];
const STATUS = ["adventuring", "rested", "exhausted"];
const LEGENDARY = ["Sword", "Shield", "Staff"];
const PENDING = ["gain", "grotto", "quest", "equip", "learn", "defend", "provoke"];
const REGION_MARK: Record<string, string> = { castle: "♜", temple: "△", obelisk: "▲", grotto: "◒", portal: "◎" };
const HEROES = 3;

function colourOf(v: Obj, seat: number): string {
  return TEQ.colors[num(arr(v.color)[seat], seat)] ?? "grey";
}

function player(v: Obj, seat: number): string {
  return `${humanize(colourOf(v, seat))} (${personName(seat, `player ${seat + 1}`)})`;
}

function quest(q: number): HTMLElement {
  const [title, type] = TEQ.quests[q] ?? [`Quest ${q}`, ""];
  return card(`quest:${q}`, title, `teq-quest teq-q-${type}`, h("span", { class: "gh-sub" }, humanize(type)));
}

function item(i: number): HTMLElement {
  const [name, kind] = TEQ.items[i] ?? [`Item ${i}`, ""];
  return card(`item:${i}`, name, `teq-item teq-i-${kind}`);
}

export function render(view: unknown, info: RenderInfo): HTMLElement {
  if (!isObj(view) || !Array.isArray(view.cards)) return unreadable("tiny-epic-quest", "it has no map");
  const v = view;
  const seats = num(v.seats, info.seats);
  const phase = num(v.phase);
  const me = typeof v.seat === "number" ? v.seat : null;
  const toAct = nums(v.to_act);
  const solo = str(v.mode) === "solo";
  const root = tableRoot("tiny-epic-quest", `Tiny Epic Quest table, ${humanize(str(v.mode, info.mode))}, ${seats} players`);
  root.append(
    header(`Tiny Epic Quest · ${humanize(str(v.mode, info.mode))}`, [
      ["Round", `${num(v.round)} of 5`],
      ["Phase", PHASES[phase] ?? String(phase)],
      ["Side", num(v.side) === 1 ? "Gloom" : "Bright"],
      ...(solo ? [["Goal", `${num(v.goal)} VP (${humanize(str(v.difficulty))})`] as [string, string]] : []),
    ]),
  );
  root.append(statusBanner(v, phase, toAct, seats, solo));
  root.append(zone("The kingdom", "teq-zone-map", kingdom(v, seats)));
  root.append(middle(v, phase, solo));
  const panels = h("div", { class: "gh-seats" });
  for (let p = 0; p < seats; p++) panels.append(playerPanel(v, p, me, toAct, phase));
  root.append(panels);
  return root;
}

function statusBanner(v: Obj, phase: number, toAct: number[], seats: number, solo: boolean): HTMLElement {
  const vps = nums(v.victory_points);
  if (phase === 2) {
    if (solo) {
      const won = (vps[0] ?? 0) >= num(v.goal);
      return banner(`Game over: ${vps[0] ?? 0} VP against a goal of ${num(v.goal)}, ${won ? "won" : "lost"}.`, "result");
    }
    const best = Math.max(...vps);
    const leaders = vps.map((x, p) => (x === best ? player(v, p) : "")).filter(Boolean);
    const tie = leaders.length > 1 ? " (ties go to most quests, then goblins, spell level, items)" : "";
    return banner(`Game over after five rounds. Most VP (${best}): ${leaders.join(", ")}${tie}.`, "result");
  }
  const pending = arr(v.pending).map((p) => nums(p));
  if (pending.length) {
    const [seat, kind] = pending[0];
    return banner(`${player(v, seat)} must decide: ${PENDING[kind] ?? "a choice"}.`);
  }
  if (toAct.length === 0) return banner("Waiting", "note");
  return banner(`${toAct.map((p) => player(v, p)).join(", ")} to act (${PHASES[phase] ?? ""}${seats > 1 ? `, first player ${player(v, num(v.first))}` : ""}).`);
}

function kingdom(v: Obj, seats: number): HTMLElement {
  const side = num(v.side) === 1 ? 1 : 0;
  const cards = nums(v.cards);
  const goblin = nums(v.goblin);
  const gdmg = nums(v.gdmg);
  const gclaim = nums(v.gclaim);
  const hslot = nums(v.hslot);
  const hreg = nums(v.hreg);
  const hprog = nums(v.hprog);
  const grid = h("div", { class: "teq-map", role: "group", "aria-label": "the kingdom: map cards on a 5 by 5 grid" });
  cards.forEach((cardIndex, slot) => {
    const [row, col] = TEQ.slots[slot] ?? [0, 0];
    const regions = TEQ.cards[cardIndex]?.[side] ?? [];
    const cell = setVars(h("div", { class: "teq-card", role: "group", "aria-label": `map card at row ${row + 1}, column ${col + 1}`, "data-row": row + 1, "data-col": col + 1 }), { "--row": row + 1, "--col": col + 1 });
    regions.forEach(([type, name], reg) => {
      const here: { hero: number; seat: number; prog: number }[] = [];
      for (let hero = 0; hero < seats * HEROES; hero++) {
        if (hslot[hero] === slot && hreg[hero] === reg) here.push({ hero, seat: Math.floor(hero / HEROES), prog: hprog[hero] ?? 0 });
      }
      const token = (x: { hero: number; seat: number }, where: string) => {
        const label = `${humanize(colourOf(v, x.seat))} hero ${(x.hero % HEROES) + 1}${where}`;
        return h("span", { class: `teq-hero teq-c-${colourOf(v, x.seat)}`, role: "img", "aria-label": label, title: label }, `${(x.hero % HEROES) + 1}`);
      };
      const gob = type === "portal" ? (goblin[slot] ?? 0) : 0;
      const regionName = type === "castle" ? `${humanize(name)} castle` : type === "obelisk" ? `${humanize(name)} obelisk` : type === "temple" ? `${name} temple` : type === "portal" ? "portal" : name;
      const gobLabel = gob ? `${gob === 2 ? "aggressive" : "passive"} goblin${gdmg[slot] ? `, ${gdmg[slot]} damage` : ""}${gclaim[slot] >= 0 ? `, claimed by ${humanize(colourOf(v, gclaim[slot]))}` : ""}` : "";
      let pieces: HTMLElement | null = null;
      if (type === "temple") {
        // The temple track: its entrance, then four spaces (torch or scroll, some needing two), heroes on theirs.
        const spaces = TEQ.tracks[name]?.[side] ?? [];
        const track = h("ol", { class: "teq-track", "aria-label": `${name} temple track` });
        ["entrance", ...spaces].forEach((space, i) => {
          const on = here.filter((x) => x.prog === i);
          const what = i === 0 ? "entrance" : `space ${i}: ${space.replace(/2$/, " ×2")}`;
          track.append(
            h(
              "li",
              { class: `teq-space teq-s-${space.replace(/2$/, "")}`, title: what, "aria-label": `${what}${on.length ? "" : ", empty"}` },
              on.length ? on.map((x) => token(x, i === 0 ? ", at the temple entrance" : `, temple space ${i}`)) : h("span", { "aria-hidden": "true" }, i === 0 ? "E" : `${space.startsWith("torch") ? "T" : "S"}${space.endsWith("2") ? "2" : ""}`),
            ),
          );
        });
        pieces = track;
      } else if (here.length) {
        pieces = h("span", { class: "teq-heroes" }, here.map((x) => token(x, "")));
      }
      cell.append(
        h(
          "div",
          { class: `teq-region teq-r-${type}${type === "castle" ? ` teq-c-${name}` : ""}`, "aria-label": `${regionName}${gobLabel ? `, ${gobLabel}` : ""}${here.length ? `, ${here.length} hero${here.length > 1 ? "es" : ""}` : ""}`, title: regionName },
          h("span", { class: "teq-region-name" }, h("span", { "aria-hidden": "true" }, REGION_MARK[type] ?? "·"), " ", type === "portal" ? "Portal" : type === "castle" ? `${humanize(name)} castle` : name),
          gob ? h("span", { class: `teq-goblin teq-g-${gob === 2 ? "aggr" : "pass"}`, role: "img", "aria-label": gobLabel, title: gobLabel }, gob === 2 ? "G!" : "G") : null,
          pieces,
        ),
      );
    });
    grid.append(cell);
  });
  return grid;
}

function middle(v: Obj, phase: number, solo: boolean): HTMLElement {
  const used = arr(v.used);
  const moves = h("ul", { class: "teq-moves", "aria-label": "movement cards" });
  const options = new Set(nums(v.options));
  METHODS.forEach((m, i) => {
    const now = num(v.card, -1) === i && phase === 0;
    const state = now ? "chosen" : used[i] === true ? "used" : solo && options.size && !options.has(i) ? "not offered" : "available";
    moves.append(h("li", { class: `teq-move teq-move-${state.replace(" ", "-")}`, "aria-label": `${m}: ${state}` }, m, now ? chip("this turn", "gh-chip-turn") : null));
  });
  const roll = nums(v.roll);
  return zone(
    "Quests, movement and dice",
    "teq-middle",
    line("Quest row", cardRow("quests on offer", nums(v.row).map(quest)), stat("Quest deck", num(v.quest_deck))),
    line("Movement", moves),
    phase === 1 ? line("Adventure dice", roll.length ? h("ul", { class: "teq-dice", "aria-label": "adventure dice rolled" }, roll.map((f) => h("li", { class: `teq-die teq-face-${FACES[f] ?? f}`, "aria-label": `die: ${FACES[f] ?? f}` }, humanize(FACES[f] ?? String(f))))) : chip("not rolled")) : null,
    h("div", { class: "gh-chips" }, stat("Magic track", num(v.magic)), stat("Goblin supply", num(v.supply))),
  );
}

/** At the end of a solo game: the goal reached (a multiplayer winner can take the engine's tie-breakers, which the
 * view does not rank, so the banner names the most VP instead). */
function isWinner(v: Obj, p: number): boolean {
  return str(v.mode) === "solo" && p === 0 && (nums(v.victory_points)[0] ?? 0) >= num(v.goal);
}

function playerPanel(v: Obj, p: number, me: number | null, toAct: number[], phase: number): HTMLElement {
  const base = p * HEROES;
  const hitems = arr(v.hitems).map((x) => nums(x));
  const heroItems = [0, 1, 2].map((k) => hitems[base + k] ?? []);
  const legend = nums(arr(v.legend)[p]);
  const pool = nums(arr(v.pool)[p]);
  const status = num(arr(v.status)[p]);
  return seatPanel(
    player(v, p),
    { active: toAct.includes(p), you: me === p, won: phase === 2 && isWinner(v, p), seat: p, cls: `teq-seat teq-c-${colourOf(v, p)}` },
    h(
      "div",
      { class: "gh-meters" },
      meter("Health", num(arr(v.health)[p]), num(arr(v.max_health)[p], 6), "hp"),
      meter("Power", num(arr(v.power)[p]), num(arr(v.max_power)[p], 3), "ep"),
    ),
    h(
      "div",
      { class: "gh-chips" },
      stat("VP", num(arr(v.victory_points)[p]), "teq-vp"),
      stat("Spell", num(arr(v.spell)[p])),
      stat("Goblins", num(arr(v.goblins)[p])),
      phase === 1 ? chip(STATUS[status] ?? "", `teq-st-${STATUS[status] ?? ""}`) : null,
      phase === 1 && pool.length === 3 ? chip(`torch ${pool[0]} · scroll ${pool[1]} · attack ${pool[2]}`) : null,
    ),
    line("Quests done", cardRow("completed quests", nums(arr(v.quests_done)[p]).map(quest))),
    line(
      "Items",
      h(
        "div",
        { class: "teq-hero-items" },
        heroItems.map((items, k) => (items.length ? h("div", {}, h("span", { class: "teq-hero teq-c-" + colourOf(v, p) }, `${k + 1}`), cardRow(`items of hero ${k + 1}`, items.map(item))) : null)),
        nums(arr(v.kept)[p]).length ? h("div", {}, "kept: ", cardRow("items kept by the player card", nums(arr(v.kept)[p]).map(item))) : null,
        heroItems.every((x) => !x.length) && !nums(arr(v.kept)[p]).length ? h("span", { class: "gh-empty" }, "none") : null,
      ),
    ),
    line("Legendary", h("span", { class: "gh-chips" }, LEGENDARY.map((name, k) => chip(`${name} ${legend[k] === 2 ? "✓" : legend[k] ? "½" : "–"}`, legend[k] === 2 ? "teq-legend-done" : "")))),
  );
}
