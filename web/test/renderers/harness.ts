/**
 * Test page script for the renderer test (tests/e2e/web/test_renderers.py): draws one fixture with the game's
 * registered renderer into #table and reports what the picture shows, for the test to check against the view.
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
  scrollWidth: number;
}

function draw(doc: Fixture): Report {
  const host = document.getElementById("table");
  if (!host) throw new Error("no #table");
  host.replaceChildren();
  try {
    const el = rendererFor(doc.game)(doc.view, { game: doc.game, mode: doc.mode, seats: doc.seats });
    host.append(el);
  } catch (e) {
    return { error: String(e instanceof Error ? e.stack ?? e.message : e), renderer: null, text: "", cards: [], cardNames: [], labels: [], scrollWidth: 0 };
  }
  const root = host.firstElementChild;
  return {
    error: null,
    renderer: root?.getAttribute("data-renderer") ?? null,
    text: host.innerText,
    cards: [...host.querySelectorAll("[data-card]")].map((n) => n.getAttribute("data-card") ?? ""),
    cardNames: [...host.querySelectorAll("[data-card]")].map((n) => n.getAttribute("aria-label") ?? ""),
    labels: [...host.querySelectorAll("[aria-label]")].map((n) => n.getAttribute("aria-label") ?? ""),
    scrollWidth: document.documentElement.scrollWidth,
  };
}

/** Every fixture in one call (one round trip from the test): the reports in order. */
function drawAll(docs: Fixture[]): Report[] {
  return docs.map(draw);
}

Object.assign(window, { draw, drawAll });
