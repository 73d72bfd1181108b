/**
 * Test page script for the renderer test (tests/e2e/web/test_renderers.py): draws fixtures with their games'
 * registered renderers into #table and reports what each picture shows, for the test to check against the view.
 */

import { rendererFor } from "../../src/renderers/index";

interface Fixture {
  game: string;
  mode: string;
  seats: number;
  view: unknown;
}

interface Report {
  error: string | null;
  renderer: string | null;
  text: string;
  cards: string[];
  cardNames: string[];
  labels: string[];
  /** How wide the picture's content is (more than the page width: it overflows sideways). */
  scrollWidth: number;
  /** How tall the picture is drawn (px). */
  height: number;
  /** Each bar as drawn: its value and maximum (aria) and the fill's share of the bar's width. */
  meters: { label: string; value: number; max: number; drawn: number }[];
  /** Tiny Epic Quest's map cards: the grid row and column they are meant for, and where they are drawn. */
  mapCards: { row: number; col: number; x: number; y: number; w: number; h: number }[];
  /** Grimm World's battlefield: its width in spaces and each cell's box, in the view's order. */
  grid: { cols: number; rows: number; width: number; height: number; cells: { x: number; y: number; w: number; h: number }[] } | null;
}

function box_(el: Element): { x: number; y: number; w: number; h: number } {
  const r = el.getBoundingClientRect();
  return { x: Math.round(r.left), y: Math.round(r.top), w: Math.round(r.width), h: Math.round(r.height) };
}

function picture(doc: Fixture): HTMLElement | string {
  try {
    return rendererFor(doc.game)(doc.view, { game: doc.game, mode: doc.mode, seats: doc.seats });
  } catch (e) {
    return String(e instanceof Error ? (e.stack ?? e.message) : e);
  }
}

function gridOf(grid: Element | null): Report["grid"] {
  if (!grid) return null;
  const label = grid.getAttribute("aria-label") ?? "";
  const m = /(\d+) by (\d+)/.exec(label);
  const r = grid.getBoundingClientRect();
  return {
    cols: m ? Number(m[1]) : 0,
    rows: m ? Number(m[2]) : 0,
    width: Math.round(r.width),
    height: Math.round(r.height),
    cells: [...grid.querySelectorAll(".gw-cell")].map(box_),
  };
}

function report(box: HTMLElement, failure: string | null): Report {
  const attr = (sel: string, name: string) => [...box.querySelectorAll(sel)].map((n) => n.getAttribute(name) ?? "");
  return {
    error: failure,
    renderer: box.firstElementChild?.getAttribute("data-renderer") ?? null,
    text: box.textContent ?? "",
    cards: attr("[data-card]", "data-card"),
    cardNames: attr("[data-card]", "aria-label"),
    labels: attr("[aria-label]", "aria-label"),
    scrollWidth: box.scrollWidth,
    height: Math.round(box.getBoundingClientRect().height),
    meters: [...box.querySelectorAll(".gh-meter")].map((m) => {
      const bar = m.querySelector(".gh-meter-bar")?.getBoundingClientRect();
      const fill = m.querySelector(".gh-meter-fill")?.getBoundingClientRect();
      return {
        label: m.getAttribute("aria-label") ?? "",
        value: Number(m.getAttribute("aria-valuenow")),
        max: Number(m.getAttribute("aria-valuemax")),
        drawn: bar && fill && bar.width > 0 ? fill.width / bar.width : -1,
      };
    }),
    mapCards: [...box.querySelectorAll(".teq-card")].map((c) => ({
      row: Number(c.getAttribute("data-row")),
      col: Number(c.getAttribute("data-col")),
      ...box_(c),
    })),
    grid: gridOf(box.querySelector(".gw-grid")),
  };
}

/** Draw every fixture at once, each in a box of the page's width, then read them all after one layout. */
function drawAll(docs: Fixture[]): Report[] {
  const host = document.getElementById("table");
  if (!host) throw new Error("no #table");
  host.replaceChildren();
  const boxes = docs.map((doc) => {
    const box = document.createElement("div");
    const drawn = picture(doc);
    if (typeof drawn !== "string") box.append(drawn);
    host.append(box);
    return { box, failure: typeof drawn === "string" ? drawn : null };
  });
  const out = boxes.map(({ box, failure }) => report(box, failure));
  host.replaceChildren();
  return out;
}

/** Draw one fixture alone (for a screenshot). */
function draw(doc: Fixture): Report {
  const host = document.getElementById("table");
  if (!host) throw new Error("no #table");
  const drawn = picture(doc);
  host.replaceChildren();
  if (typeof drawn !== "string") host.append(drawn);
  return report(host, typeof drawn === "string" ? drawn : null);
}

function channel(c: number): number {
  const v = c / 255;
  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

function rgba(css: string): number[] {
  const m = css.match(/rgba?\(([^)]+)\)/);
  return m ? m[1].split(/[ ,/]+/).filter(Boolean).map(Number) : [0, 0, 0, 0];
}

function luminance([r, g, b]: number[]): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** Text whose colour is below WCAG AA contrast (4.5:1, 3:1 for large text) against the nearest opaque background. */
function contrastIssues(): string[] {
  const host = document.getElementById("table");
  if (!host) return ["no #table"];
  const issues: string[] = [];
  for (const el of host.querySelectorAll<HTMLElement>("*")) {
    const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? "").trim());
    if (!own) continue;
    const style = getComputedStyle(el);
    let bg: HTMLElement | null = el;
    let back = [255, 255, 255, 1];
    while (bg) {
      const c = rgba(getComputedStyle(bg).backgroundColor);
      if (c[3] === undefined || c[3] > 0.5) {
        back = c;
        break;
      }
      bg = bg.parentElement;
    }
    const fore = luminance(rgba(style.color));
    const behind = luminance(back);
    const ratio = (Math.max(fore, behind) + 0.05) / (Math.min(fore, behind) + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) issues.push(`${ratio.toFixed(2)}:1 "${(el.textContent ?? "").trim().slice(0, 30)}" (${el.className})`);
  }
  return issues;
}

/** Every Content-Security-Policy violation on the page (the test fails on any). */
const violations: string[] = [];
document.addEventListener("securitypolicyviolation", (e) => {
  violations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sample.slice(0, 60)})`);
});

Object.assign(window, { draw, drawAll, contrastIssues, violations });
