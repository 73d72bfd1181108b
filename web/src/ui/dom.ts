/** Element building for the pages: text is always text (never parsed as HTML), attributes are plain strings. */

export type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    // The pages' Content-Security-Policy (style-src 'self', no 'unsafe-inline') drops every style attribute:
    // a value a picture depends on goes through setVars (the CSSOM, which the policy allows) and the stylesheet.
    if (name === "style") throw new Error("a style attribute is blocked by the CSP: use a class or setVars()");
    el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Set CSS custom properties (`--fill: 30%`) on an element through the CSSOM: allowed under the pages' strict
 * CSP, where a `style` attribute is not. The stylesheet says what each property drives. */
export function setVars<E extends HTMLElement>(el: E, vars: Record<string, string | number>): E {
  for (const [name, value] of Object.entries(vars)) el.style.setProperty(name, String(value));
  return el;
}

/** Replace an element's children. */
export function fill(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

/** A table in a scrolling wrapper (phone width), with a caption (for screen readers only when a heading
 * above already says it). */
export function table(
  caption: string,
  head: string[],
  rows: Child[][],
  attrs: Attrs = {},
  captionHidden = false,
): HTMLElement {
  return h(
    "div",
    { class: "table-wrap", tabindex: 0, role: "region", "aria-label": caption },
    h(
      "table",
      attrs,
      h("caption", captionHidden ? { class: "sr-only" } : {}, caption),
      h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c))))),
    ),
  );
}

/** How a player is shown: its username when known, else a bot entrant's "Bot n (difficulty)" or a short id. */
export function playerName(id: string, name = ""): string {
  if (name) return name;
  const bot = /^bot-([a-z]+)-(\d+)$/.exec(id);
  if (bot) return `Bot ${bot[2]} (${bot[1]})`;
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

export function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

export function humanize(name: string): string {
  const words = name.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function when(date: Date | null): string {
  return date ? date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "—";
}

/** A message region: role=status for results, role=alert for errors (read out by screen readers). */
export function notice(kind: "ok" | "error" | "info", text: string, attrs: Attrs = {}): HTMLElement {
  return h("p", { class: `notice notice-${kind}`, role: kind === "error" ? "alert" : "status", ...attrs }, text);
}
