/**
 * Grimm World: the tactical grid of a conflict (terrain per space, walls between spaces, Martha and each enemy
 * figure in its Hit Point Card colour, enemy cards with HP), Martha's sheet (action cards in hand, discard and
 * under the Damage Card, equipment, purse), and in the campaign her journey: location, round, chapter, the card
 * being resolved and its choices, quests, goods and the Encounter Deck as far as she knows it.
 */

import { CONTENT } from "./content.generated";
import type { RenderInfo } from "./index";
import {
  arr, banner, card, cardRow, chip, h, header, humanize, isObj, line, meter, num, obj, seatPanel, setVars, stat, str, strs,
  tableRoot, unreadable, zone, type Obj,
} from "./dom";

const GW = CONTENT["grimm-world"];
const TERRAIN_MARK: Record<string, string> = { open: "", cover: "♣", elevation: "▲", water: "≈", obstacle: "▪", blocked: "✕" };

function actionCard(key: string, cls = ""): HTMLElement {
  return card(key, GW.action[key] ?? key, `gw-action ${cls}`.trim(), h("span", { class: "gh-sub" }, key));
}

function pageName(key: string): string {
  return GW.pages[key]?.[0] ?? key;
}

function itemName(key: string): string {
  return GW.items[key] ?? humanize(key);
}

export function render(view: unknown, info: RenderInfo): HTMLElement {
  if (!isObj(view) || !isObj(view.sheet)) return unreadable("grimm-world", "it has no character sheet");
  const v = view;
  const fight = isObj(v.fight) ? v.fight : null;
  const journey = isObj(v.journey) ? v.journey : null;
  const mode = str(v.mode, info.mode);
  const root = tableRoot("grimm-world", `Grimm World table, ${humanize(mode)}`);
  const facts: [string, string][] = [["Chapter", chapterName(num(v.chapter))]];
  if (fight) facts.push(["Conflict", GW.conflicts[str(fight.conflict)] ?? str(fight.conflict)], ["Combat round", String(num(fight.round))]);
  if (journey) facts.push(["Round", String(num(journey.round))], ["Location", locationName(v)]);
  root.append(header(`Grimm World · ${humanize(mode)}`, facts));
  root.append(statusBanner(v, fight, journey));
  if (journey) root.append(journeyZone(v, journey));
  if (fight && isObj(v.board)) root.append(gridZone(v, fight));
  root.append(sheetPanel(v, fight));
  if (fight && isObj(v.board)) root.append(enemyCards(v, fight));
  return root;
}

function chapterName(n: number): string {
  return GW.chapters[String(n)] ?? `Chapter ${n}`;
}

function locationName(v: Obj): string {
  const here = obj(v.here);
  return str(here.name) ? `${str(here.name)} (${num(here.number)})` : "—";
}

function statusBanner(v: Obj, fight: Obj | null, journey: Obj | null): HTMLElement {
  const result = journey ? str(journey.result) : fight ? str(fight.result) : "";
  if (result) return banner(`${journey ? "The campaign" : "The fight"} ends in ${result}.`, "result");
  if (fight) {
    const prompt = str(fight.prompt);
    const phase = str(fight.phase);
    const PROMPTS: Record<string, string> = {
      damage: `Martha takes damage: choose ${num(fight.pa)} card(s) to go under the Damage Card`,
      refresh: "Martha chooses the cards that come back from her discard pile",
      attacked: "An enemy attacks: Martha may react",
      retreat: "An enemy activates: Martha may retreat",
      retreat_move: "Martha moves away (retreat)",
      first_strike: "An enemy moved into range: Martha may strike first",
      equip: "Martha may re-equip",
    };
    if (prompt) return banner(`${PROMPTS[prompt] ?? humanize(prompt)}.`);
    return banner(`${humanize(phase)} phase${phase === "character" ? `: Martha has played ${num(fight.played)} action card(s)` : ""}.`);
  }
  if (journey && str(journey.title)) return banner(`Now: ${str(journey.title)}.`);
  return banner(arr(v.to_act).length ? "Martha to act." : "Waiting", "turn");
}

function gridZone(v: Obj, fight: Obj): HTMLElement {
  const board = obj(v.board);
  const width = num(board.width, 1);
  const height = num(board.height, 1);
  const terrain = strs(board.terrain);
  const spaces = strs(board.spaces);
  const walls = new Map<number, Set<string>>();
  for (const l of arr(board.lines)) {
    const [a, b, kind] = arr(l);
    const lo = Math.min(num(a), num(b));
    const hi = Math.max(num(a), num(b));
    const side = hi - lo === 1 ? "right" : "bottom";
    if (!walls.has(lo)) walls.set(lo, new Set());
    walls.get(lo)?.add(`gw-wall-${side}-${str(kind)}`);
  }
  const foes = arr(fight.foes).map(arr);
  const enemies = arr(v.enemies).map(obj);
  const martha = obj(v.martha);
  const grid = setVars(h("div", { class: "gw-grid", role: "table", "aria-label": `battlefield, ${width} by ${height} spaces` }), { "--cols": Math.max(1, Math.round(width)) });
  for (let y = 0; y < height; y++) {
    const row = h("div", { class: "gw-row", role: "row" });
    for (let x = 0; x < width; x++) {
      const cell = y * width + x;
      const t = terrain[cell] ?? "open";
      const figures: HTMLElement[] = [];
      if (num(martha.x, -1) === x && num(martha.y, -1) === y) {
        figures.push(h("span", { class: "gw-fig gw-martha", role: "img", "aria-label": "Martha", title: "Martha" }, "M"));
      }
      enemies.forEach((e, i) => {
        const foe = foes[i] ?? [];
        const hp = num(foe[3]);
        if (num(e.x, -1) !== x || num(e.y, -1) !== y || hp <= 0) return;
        const label = `${str(e.name)} (${str(foe[1])}), ${hp} HP`;
        figures.push(h("span", { class: `gw-fig gw-foe gw-col-${str(foe[1])}`, role: "img", "aria-label": label, title: label }, `${str(e.name).charAt(0)}${hp}`));
      });
      const who = figures.map((f) => f.getAttribute("aria-label")).join(", ");
      const label = `space ${spaces[cell] || cell}, ${t}${who ? `: ${who}` : ""}`;
      row.append(
        h(
          "div",
          { class: `gw-cell gw-t-${t} ${[...(walls.get(cell) ?? [])].join(" ")}`.trim(), role: "cell", "aria-label": label, title: label },
          TERRAIN_MARK[t] ? h("span", { class: "gw-terrain", "aria-hidden": "true" }, TERRAIN_MARK[t]) : null,
          figures,
        ),
      );
    }
    grid.append(row);
  }
  const legend = h(
    "ul",
    { class: "gw-legend", "aria-label": "terrain legend" },
    Object.entries(TERRAIN_MARK).map(([k, m]) => h("li", {}, h("span", { class: `gw-swatch gw-t-${k}`, "aria-hidden": "true" }, m), ` ${k}`)),
  );
  return zone(`Battlefield: ${GW.conflicts[str(fight.conflict)] ?? str(fight.conflict)}`, "gw-zone-grid", grid, legend);
}

function sheetPanel(v: Obj, fight: Obj | null): HTMLElement {
  const sheet = obj(v.sheet);
  const martha = obj(v.martha);
  const stats = obj(martha.stats);
  const hand = strs(sheet.hand);
  const damaged = strs(sheet.damaged);
  const discard = fight ? strs(fight.discard) : [];
  const weapons = arr(martha.weapons).map(arr);
  const alignment = num(sheet.alignment);
  return seatPanel(
    "Martha",
    { active: arr(v.to_act).length > 0, seat: 0, cls: "gw-martha-panel" },
    h(
      "div",
      { class: "gh-chips" },
      fight ? stat("Cards left", `${hand.length + discard.length}`, "gw-life") : null,
      stat("Wounds", damaged.length),
      stat("Thalers", num(sheet.thalers)),
      stat("Alignment", alignment > 0 ? `+${alignment}` : String(alignment)),
      stat("Action deck", num(obj(v.decks).action)),
      num(v.last_fate) ? stat("Last Fate", num(v.last_fate)) : null,
    ),
    Object.keys(stats).length
      ? h("div", { class: "gh-chips gw-stats", role: "group", "aria-label": "Martha's stats" }, Object.entries(stats).map(([k, val]) => stat(humanize(k), num(val))))
      : null,
    fight && strs(fight.cur).length
      ? line(
          "Playing",
          cardRow("the action cards being played", strs(fight.cur).map((k) => actionCard(k, "gw-current"))),
          str(fight.active) ? chip(`${humanize(str(fight.active))}: ${num(fight.left)} MP left`) : null,
          fight.attack ? chip(`attack${num(fight.attack_mod) ? ` ${num(fight.attack_mod) > 0 ? "+" : ""}${num(fight.attack_mod)}` : ""} available`) : null,
        )
      : null,
    line("Hand", cardRow("Martha's action cards in hand", hand.map((k) => actionCard(k)))),
    fight ? line("Discard", cardRow("Martha's discard pile", discard.map((k) => actionCard(k, "gw-used")))) : null,
    line("Damage", cardRow("action cards under the Damage Card", damaged.map((k) => actionCard(k, "gw-damaged")))),
    weapons.length
      ? line("Weapons", h("ul", { class: "gh-chips", "aria-label": "weapons" }, weapons.map((w) => h("li", { class: "gh-chip" }, `${itemName(str(w[0]))} · range ${num(w[1])} · dmg ${num(w[2])}${w[3] === null || w[3] === undefined ? "" : ` · rate ${num(w[3])}`}`))))
      : null,
    line("Equipped", h("span", { class: "gh-chips" }, strs(sheet.equipped).map((k) => chip(itemName(k))), strs(sheet.equipped).length ? null : "none")),
    strs(sheet.stored).length ? line("Stored", h("span", { class: "gh-chips" }, strs(sheet.stored).map((k) => chip(itemName(k))))) : null,
    strs(sheet.upgrades).length ? line("Upgrades", h("span", { class: "gh-chips" }, strs(sheet.upgrades).map((k) => chip(GW.upgrades[k] ?? pageName(k))))) : null,
    strs(sheet.skills).length ? line("Skills", h("span", { class: "gh-chips" }, strs(sheet.skills).map((k) => chip(GW.skills[k] ?? pageName(k))))) : null,
  );
}

function enemyCards(v: Obj, fight: Obj): HTMLElement {
  const foes = arr(fight.foes).map(arr);
  const list = h("div", { class: "gh-seats gw-enemies" });
  arr(v.enemies).map(obj).forEach((e, i) => {
    const foe = foes[i] ?? [];
    const c = obj(e.card);
    const hp = num(foe[3]);
    const max = num(c.constitution, hp);
    const colour = str(foe[1]);
    list.append(
      seatPanel(
        `${str(e.name)} (${colour})`,
        { out: hp <= 0, cls: `gw-enemy gw-col-${colour}` },
        h("div", { class: "gh-meters" }, meter("HP", hp, max, "hp")),
        h(
          "div",
          { class: "gh-chips" },
          stat("Init", num(c.initiative)),
          stat("Range", num(c.range)),
          stat("Atk", num(c.attack)),
          stat("Dmg", num(c.damage)),
          stat("Dodge", num(c.dodge)),
          stat("Armor", num(c.armor)),
          foe[4] === true ? chip("spent") : null,
        ),
        str(c.weapon) ? h("p", { class: "gh-sub" }, `${humanize(str(c.type))}, ${str(c.weapon)} · at ${str(e.space)}`) : null,
        arr(c.lines).length
          ? h(
              "ol",
              { class: "gw-lines", "aria-label": "Action Lines" },
              arr(c.lines).map((l) => h("li", {}, arr(l).map(obj).map((step) => `${humanize(str(step.kind))}${num(step.value) ? ` ${num(step.value)}` : ""}${str(step.suffix)}`).join(", "))),
            )
          : null,
        isObj(c.reaction) ? h("p", { class: "gh-sub" }, `Reaction: ${str(c.reaction.kind)} on ${str(c.reaction.trigger)}`) : null,
      ),
    );
  });
  return zone("Enemies", "gw-zone-enemies", list);
}

/** The Region Cards in play, each with its locations; Martha's location marked, the ones a path leads to from it. */
function regionMap(j: Obj): HTMLElement | null {
  const regions = Object.entries(obj(j.regions)).sort(([a], [b]) => a.localeCompare(b));
  if (!regions.length) return null;
  const at = num(j.location, -1);
  const near = new Set<number>();
  for (const [, key] of regions) for (const [n, , paths] of GW.regions[str(key)]?.[1] ?? []) if (n === at) paths.forEach((p) => near.add(p));
  return h(
    "ul",
    { class: "gw-regions", "aria-label": "Region Cards in play" },
    regions.map(([digit, key]) => {
      const region = GW.regions[str(key)];
      return h(
        "li",
        { class: "gw-region" },
        h("b", {}, `Region ${digit}: ${region?.[0] ?? str(key)}`),
        h(
          "ol",
          { class: "gw-places" },
          (region?.[1] ?? []).map(([n, name]) =>
            h(
              "li",
              { class: `gw-place${n === at ? " gw-here" : near.has(n) ? " gw-near" : ""}`, "aria-current": n === at ? "location" : null, "aria-label": `${name} (${n})${n === at ? ", Martha is here" : near.has(n) ? ", a path from here" : ""}` },
              `${name} `,
              h("span", { class: "gh-sub gw-num" }, String(n)),
              n === at ? h("span", { class: "gw-fig gw-martha", "aria-hidden": "true" }, "M") : null,
            ),
          ),
        ),
      );
    }),
  );
}

function journeyZone(v: Obj, j: Obj): HTMLElement {
  const here = obj(v.here);
  const deck = obj(v.deck);
  const goods = arr(j.goods).map(arr);
  const menu = arr(j.menu).map(obj);
  const quests = strs(j.quests);
  const special = arr(deck.special);
  const story = obj(j.story);
  return zone(
    `Journey · ${str(here.name) || "on the road"}`,
    "gw-journey",
    h(
      "div",
      { class: "gh-chips" },
      stat("Round", num(j.round)),
      stat("Fights won", num(j.won)),
      stat("Fights lost", num(j.beaten)),
      stat("Chapters completed", num(j.completed)),
      stat("Storage", pageName(str(j.storage))),
    ),
    str(here.name)
      ? line(
          "Location",
          h("span", {}, `${str(here.name)} · location ${num(here.number)}`),
          strs(here.ids).length ? h("span", { class: "gh-chips", "aria-label": "encounter landscapes here" }, strs(here.ids).map((id) => chip(`${GW.landscapes[id] ?? id} (${id})`))) : null,
        )
      : null,
    regionMap(j),
    str(j.title) || menu.length
      ? line(
          str(j.title) || "Choice",
          menu.length ? h("ol", { class: "gw-menu", "aria-label": "choices" }, menu.map((m) => h("li", {}, str(m.label)))) : null,
        )
      : null,
    line("Quests", cardRow("active quests", quests.map((k) => card(k, pageName(k), "gw-quest", h("span", { class: "gh-sub" }, k))))),
    line("Goods", goods.length ? h("span", { class: "gh-chips" }, goods.map((g) => chip(`${humanize(str(g[1]))} (${str(g[0])})`))) : h("span", { class: "gh-empty" }, "none")),
    line(
      "Encounter deck",
      h("span", {}, `${strs(deck.cards).length} cards${str(deck.top_back) ? `, top card's back: ${GW.landscapes[str(deck.top_back)] ?? "landscape"} (${str(deck.top_back)})` : ""}`),
      special.length === 2 ? chip(`${str(special[0]) === "NC" ? "Next Chapter" : "Time Passes"} is ${num(special[1]) + 1} deep`) : null,
    ),
    Object.keys(story).length
      ? line("Story", h("span", { class: "gh-chips" }, Object.entries(story).map(([ch, cards]) => chip(`under chapter ${ch}: ${strs(cards).map(pageName).join(", ")}`))))
      : null,
    Object.keys(obj(j.prices)).length ? line("Prices", h("span", { class: "gh-chips" }, Object.entries(obj(j.prices)).map(([r, k]) => chip(`region ${r}: ${pageName(str(k))}`)))) : null,
  );
}
