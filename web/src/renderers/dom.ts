/**
 * Small DOM helpers shared by the per-game renderers: element building (text only, never HTML), safe reads
 * of an untyped view, and the table's common pieces (seat panels, meters, card faces and backs, banners).
 */

import { type Child, h, setVars } from "../ui/dom";

/** Element building is the pages' own (text only, never parsed as HTML): one helper for pages and renderers. */
export { type Child, h, setVars };

// ---------------------------------------------------------------- reading an untyped view

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function obj(v: unknown): Obj {
  return isObj(v) ? v : {};
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function num(v: unknown, fallback = 0): number {
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}

export function str(v: unknown, fallback = ""): string {
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : fallback;
}

export function strs(v: unknown): string[] {
  return arr(v).filter((x): x is string => typeof x === "string");
}

export function nums(v: unknown): number[] {
  return arr(v).filter((x): x is number => typeof x === "number");
}

/** "trail_rations.2" -> "Trail Rations", "dune_wurm" -> "Dune Wurm", "FIRE" -> "Fire". */
export function humanize(key: string): string {
  const base = key.replace(/\.\d+$/, "").replace(/[_-]+/g, " ").trim();
  return base
    .split(" ")
    .map((w) => (w === w.toUpperCase() && w.length > 1 ? w.charAt(0) + w.slice(1).toLowerCase() : w))
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

// ---------------------------------------------------------------- table pieces

/** The root of a table picture: a labelled region with the game's class. */
export function tableRoot(game: string, label: string): HTMLElement {
  return h("section", { class: `gh-table gh-${game}`, "aria-label": label, "data-renderer": game });
}

/** A titled block of the table. */
export function zone(title: string, cls: string, ...children: (Child | Child[])[]): HTMLElement {
  return h("section", { class: `gh-zone ${cls}`, "aria-label": title }, h("h3", { class: "gh-zone-title" }, title), ...children);
}

/** The header strip: what is being played and where the game stands. */
export function header(title: string, facts: [string, string][]): HTMLElement {
  return h(
    "header",
    { class: "gh-header" },
    h("h2", { class: "gh-title" }, title),
    h(
      "dl",
      { class: "gh-facts" },
      facts.map(([k, v]) => h("div", { class: "gh-fact" }, h("dt", {}, k), h("dd", {}, v))),
    ),
  );
}

/** A banner line (whose turn, a pending choice, the result). */
export function banner(text: string, kind: "turn" | "result" | "note" = "turn"): HTMLElement {
  return h("p", { class: `gh-banner gh-banner-${kind}`, role: kind === "result" ? "status" : null }, text);
}

/** A labelled quantity with a bar: HP 7 / 10. */
export function meter(label: string, value: number, max: number, kind: string): HTMLElement {
  const safeMax = Math.max(max, value, 1);
  const pct = Math.max(0, Math.min(100, (100 * value) / safeMax));
  return h(
    "div",
    {
      class: `gh-meter gh-meter-${kind}`,
      role: "meter",
      "aria-label": `${label} ${value} of ${max}`,
      "aria-valuenow": value,
      "aria-valuemin": 0,
      "aria-valuemax": safeMax,
    },
    h("span", { class: "gh-meter-label" }, label),
    h("span", { class: "gh-meter-bar", "aria-hidden": "true" }, setVars(h("span", { class: "gh-meter-fill" }), { "--fill": `${pct}%` })),
    h("span", { class: "gh-meter-value" }, `${value}/${max}`),
  );
}

/** A small labelled number: Coins 3. */
export function stat(label: string, value: string | number, cls = ""): HTMLElement {
  return h("span", { class: `gh-stat ${cls}`.trim() }, h("span", { class: "gh-stat-label" }, label), " ", h("b", {}, String(value)));
}

/** A status chip. */
export function chip(text: string, cls = ""): HTMLElement {
  return h("span", { class: `gh-chip ${cls}`.trim() }, text);
}

/** A face-up card: `id` is the view's id (kept in data-card so tests can check it came from the view). */
export function card(id: string, name: string, cls = "", ...extra: (Child | Child[])[]): HTMLElement {
  return h(
    "li",
    { class: `gh-card gh-face ${cls}`.trim(), "data-card": id, "aria-label": name, title: name },
    h("span", { class: "gh-card-name" }, name),
    ...extra,
  );
}

/** `count` face-down cards, drawn as a short fanned stack with the number. */
export function backs(count: number, what: string): HTMLElement {
  if (count <= 0) return h("span", { class: "gh-empty", "aria-label": `no ${what}` }, "none");
  const label = `${count} face-down ${what}`;
  const shown = Math.min(count, 5);
  const stack = h("span", { class: "gh-backs-stack", "aria-hidden": "true" });
  for (let i = 0; i < shown; i++) stack.append(h("span", { class: "gh-card gh-back" }));
  return h("div", { class: "gh-backs", "aria-label": label, title: label, role: "img" }, stack, h("span", { class: "gh-backs-count" }, `×${count}`));
}

/** A row of face-up cards (or a "none" note). */
export function cardRow(label: string, cards: HTMLElement[], cls = ""): HTMLElement {
  if (cards.length === 0) return h("p", { class: `gh-cards gh-empty ${cls}`.trim(), "aria-label": label }, "none");
  return h("ul", { class: `gh-cards ${cls}`.trim(), "aria-label": label }, cards);
}

/** A labelled line inside a seat panel: "Hand" then its content. */
export function line(label: string, ...content: (Child | Child[])[]): HTMLElement {
  return h("div", { class: "gh-line" }, h("span", { class: "gh-line-label" }, label), h("div", { class: "gh-line-body" }, ...content));
}

/** A player's (or creature's) panel; `active` marks whose turn it is, `you` the viewing seat. */
export function seatPanel(
  title: string,
  opts: { active?: boolean; you?: boolean; out?: boolean; won?: boolean; cls?: string; seat?: number; colour?: string },
  ...children: (Child | Child[])[]
): HTMLElement {
  const classes = ["gh-seat", opts.cls ?? "", opts.active ? "gh-active" : "", opts.you ? "gh-you" : "", opts.out ? "gh-out" : "", opts.won ? "gh-won" : ""];
  const tags: Child[] = [];
  if (opts.you) tags.push(chip("you", "gh-chip-you"));
  if (opts.active) tags.push(chip("to act", "gh-chip-turn"));
  if (opts.out) tags.push(chip("out", "gh-chip-out"));
  if (opts.won) tags.push(chip("winner", "gh-chip-won"));
  const panel = h(
    "article",
    {
      class: classes.filter(Boolean).join(" "),
      "aria-label": `${title}${opts.you ? " (you)" : ""}${opts.active ? ", to act" : ""}${opts.out ? ", out" : ""}${opts.won ? ", winner" : ""}`,
      "data-seat": opts.seat,
    },
    h("h3", { class: "gh-seat-title" }, h("span", { class: "gh-seat-name" }, title), ...tags),
    ...children,
  );
  return opts.colour ? setVars(panel, { "--seat-colour": opts.colour }) : panel;
}

/** Seat n as people read it (1-based). */
export function seatName(seat: number): string {
  return `Seat ${seat + 1}`;
}

let names: readonly string[] = [];

/** The players' names (by seat, "" where unknown) the next pictures use; the registry sets it per drawing. */
export function useNames(seatNames: readonly string[] | undefined): void {
  names = seatNames ?? [];
}

/** A seat's player by name when the page knows it (a person's username), else the game's own `fallback`. */
export function personName(seat: number, fallback: string): string {
  return names[seat] || fallback;
}

/** A note for a view this renderer cannot read (not a game view at all): never an exception on the page. */
export function unreadable(game: string, why: string): HTMLElement {
  const root = tableRoot(game, `${game} table`);
  root.append(banner(`This ${game} view cannot be drawn: ${why}.`, "note"));
  return root;
}
