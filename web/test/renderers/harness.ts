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
}

function picture(doc: Fixture): HTMLElement | string {
  try {
    return rendererFor(doc.game)(doc.view, { game: doc.game, mode: doc.mode, seats: doc.seats });
  } catch (e) {
    return String(e instanceof Error ? (e.stack ?? e.message) : e);
  }
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

Object.assign(window, { draw, drawAll });
