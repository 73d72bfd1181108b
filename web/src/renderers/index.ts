/**
 * Registry of per-game spectator renderers: `rendererFor(gameId)` gives the game's own picture of the
 * table, or the generic fallback (a labelled, readable outline of the view) for a game without one.
 *
 * Contract for a game's renderer module `web/src/renderers/<game-id>.ts`:
 *   export function render(view: unknown, info: RenderInfo): HTMLElement
 * `view` is the spectator (or, in a replay after the end, the revealed) view exactly as the API sent it,
 * already JSON-parsed; the renderer must show only what is in it. Register it in `renderers` below.
 */

import { render as renderGrimmWorld } from "./grimm-world";
import { render as renderGrimmoir } from "./grimmoir";
import { render as renderGrimslingers } from "./grimslingers";
import { useNames } from "./dom";
import { render as renderTinyEpicQuest } from "./tiny-epic-quest";

export interface RenderInfo {
  /** Game id, e.g. "grimslingers". */
  game: string;
  /** Game mode id as the catalog names it. */
  mode: string;
  /** Number of seats at the table. */
  seats: number;
  /** The people's names by seat ("" for a bot or an unknown seat): pictures show players by name. */
  names?: string[];
}

export type Renderer = (view: unknown, info: RenderInfo) => HTMLElement;

/** Game id -> renderer. Add `import { render as renderX } from "./x";` and an entry per game. */
const renderers: Record<string, Renderer> = {
  grimslingers: renderGrimslingers,
  grimmoir: renderGrimmoir,
  "tiny-epic-quest": renderTinyEpicQuest,
  "grimm-world": renderGrimmWorld,
};

/** The renderer for a game id, or the generic fallback when the game has none. */
export function rendererFor(gameId: string): Renderer {
  const draw = renderers[gameId];
  if (!draw) return renderGeneric;
  return (view, info) => {
    useNames(info.names);
    try {
      return draw(view, info);
    } finally {
      useNames([]);
    }
  };
}

/** Generic fallback: the view as a nested definition list (keys and values as text, never as HTML). */
export function renderGeneric(view: unknown, info: RenderInfo): HTMLElement {
  const root = document.createElement("section");
  root.className = "table table-generic";
  root.setAttribute("aria-label", `${info.game} table (${info.seats} seats)`);
  root.appendChild(outline(view, 0));
  return root;
}

function outline(value: unknown, depth: number): HTMLElement {
  if (value === null || typeof value !== "object") {
    const span = document.createElement("span");
    span.className = "value";
    span.textContent = value === null || value === undefined ? "—" : String(value);
    return span;
  }
  if (depth > 6) {
    const span = document.createElement("span");
    span.textContent = "…";
    return span;
  }
  if (Array.isArray(value)) {
    const list = document.createElement("ol");
    list.className = "generic-list";
    for (const item of value) {
      const li = document.createElement("li");
      li.appendChild(outline(item, depth + 1));
      list.appendChild(li);
    }
    if (value.length === 0) {
      const li = document.createElement("li");
      li.textContent = "(none)";
      list.appendChild(li);
    }
    return list;
  }
  const dl = document.createElement("dl");
  dl.className = "generic-map";
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const dt = document.createElement("dt");
    dt.textContent = key.replace(/_/g, " ");
    const dd = document.createElement("dd");
    dd.appendChild(outline(item, depth + 1));
    dl.append(dt, dd);
  }
  return dl;
}
