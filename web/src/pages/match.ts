/**
 * The match spectator: the caller's view, live from WatchMatch, `delay` actions behind play (the broadcast
 * delay the gateway applies to spectators), drawn by the game's renderer (renderers/index.ts). Only what
 * the stream carried is shown; a broken stream resumes after the last version shown.
 */

import { gameName, getMatch, seatUsernames, watchMatch, type GameEventInfo, type MatchInfo, type Outcome, type ViewUpdate } from "../api";
import { rendererFor, renderGeneric, type RenderInfo } from "../renderers/index";
import { errorNotice, errorText, follow, heading, type Page } from "../ui/common";
import { fill, formatNumber, h, humanize, notice } from "../ui/dom";
import { BROADCAST_DELAY } from "./tournament";

const DELAYS = [0, 1, 2, 3, 5, 10];
const EVENTS_SHOWN = 12;

export const matchPage: Page = (main, args, query) => {
  const id = args[0] ?? "";
  const delay = Math.max(0, Math.min(1000, Number(query.get("delay") ?? BROADCAST_DELAY) || 0));
  fill(main, heading("Match"));
  // no sign-in needed: anyone may watch a public match as a spectator (the gateway refuses a private one)
  const abort = new AbortController();
  const meta = h("div", { class: "match-meta" });
  const live = h("p", { class: "live", role: "status", id: "live-status" }, "Connecting…");
  const problems = h("div", {});
  const tableBox = h("section", { class: "table-box", id: "table", "aria-label": "The table", "data-version": "" });
  const turn = h("p", { id: "to-act" });
  const result = h("div", { id: "outcome" });
  const events = h("ol", { class: "events", id: "events", "aria-label": "Latest events" });
  // One compact strip above the table (what, who, the delay, where play stands) so the table itself is in view
  // on a laptop's first screen; the result sits in the strip's place once the match is over.
  main.append(
    h("div", { class: "match-strip" }, meta, h("div", { class: "match-live" }, live, delayPicker(id, delay)), turn),
    problems,
    result,
    tableBox,
    h("section", { "aria-labelledby": "events-title" }, h("h2", { id: "events-title" }, "Events"), events),
  );

  let match: MatchInfo | null = null;
  let lastVersion = 0;
  void (async () => {
    try {
      match = await getMatch(id);
      void renderMeta(meta, match);
    } catch (err) {
      fill(problems, errorNotice(err));
      return;
    }
    const info: RenderInfo = { game: match.game, mode: match.mode, seats: match.seatCount, names: seatUsernames(match) };
    await follow(
      () => watchMatch(id, delay, lastVersion, abort.signal),
      (update) => {
        fill(problems);
        lastVersion = update.version;
        drawTable(tableBox, update, info);
        fill(turn, update.outcome ? "" : toActText(update, match as MatchInfo));
        addEvents(events, update.events, update.version, match);
        if (update.outcome) {
          fill(result, outcomeBox(update.outcome, match as MatchInfo));
          fill(live, `Finished at move ${update.version}.`);
        } else {
          fill(live, delay ? `Live, ${delay} ${delay === 1 ? "move" : "moves"} behind play · move ${update.version}` : `Live · move ${update.version}`);
        }
      },
      (err, retrying) => {
        fill(problems, errorNotice(err));
        fill(live, retrying ? "Connection lost; reconnecting…" : errorText(err));
      },
      abort.signal,
    );
  })();
  return () => abort.abort();
};

function delayPicker(id: string, delay: number): HTMLElement {
  const select = h("select", { id: "delay" });
  const values = DELAYS.includes(delay) ? DELAYS : [...DELAYS, delay].sort((a, b) => a - b);
  for (const value of values) {
    select.append(h("option", { value, selected: value === delay }, value === 0 ? "none (live)" : `${value} moves`));
  }
  select.addEventListener("change", () => {
    location.hash = `#/m/${encodeURIComponent(id)}?delay=${select.value}`;
  });
  return h("p", { class: "field inline" }, h("label", { for: "delay" }, "Broadcast delay "), select);
}

async function renderMeta(box: HTMLElement, m: MatchInfo): Promise<void> {
  const name = await gameName(m.game);
  const title = box.ownerDocument.querySelector(".page-title");
  if (title) title.textContent = `${name}: ${m.seats.map((s) => s.name).join(" vs ")}`;
  document.title = `${name} match · gamehall`;
  fill(
    box,
    h("p", { class: "meta" }, `${name} · ${humanize(m.mode)} · ${m.seatCount} seats · match ${m.id.slice(0, 8)}`),
    h("ul", { class: "seats", "aria-label": "Players" }, m.seats.map((s) => h("li", {}, h("strong", {}, `Seat ${s.seat + 1}`), ` ${s.name}`))),
  );
}

function drawTable(box: HTMLElement, update: ViewUpdate, info: RenderInfo): void {
  let picture: HTMLElement;
  try {
    picture = rendererFor(info.game)(update.view, info);
  } catch (err) {
    picture = h("div", {}, notice("info", `This game's picture failed (${String(err)}); showing the view as text.`), renderGeneric(update.view, info));
  }
  box.dataset.version = String(update.version);
  fill(box, picture);
}

function seatName(m: MatchInfo, seat: number): string {
  return m.seats.find((s) => s.seat === seat)?.name ?? `seat ${seat + 1}`;
}

function toActText(update: ViewUpdate, m: MatchInfo): string {
  if (!update.toAct.length) return "";
  return `To act: ${update.toAct.map((s) => `seat ${s + 1} (${seatName(m, s)})`).join(", ")}`;
}

function ordinal(n: number): string {
  return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}

export function outcomeBox(outcome: Outcome, m: MatchInfo, replayLink = true): HTMLElement {
  const order = outcome.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank);
  return h(
    "section",
    { class: "card outcome", "aria-labelledby": "outcome-title" },
    h("h2", { id: "outcome-title" }, "Result"),
    h(
      "ol",
      { class: "ranking" },
      order.map(({ rank, seat }) =>
        h(
          "li",
          {},
          `${ordinal(rank)}: ${seatName(m, seat)} (seat ${seat + 1})`,
          outcome.scores.length > seat ? ` · score ${formatNumber(outcome.scores[seat] ?? 0)}` : "",
        ),
      ),
    ),
    outcome.reason ? h("p", {}, `Ended: ${outcome.reason}.`) : null,
    replayLink ? h("p", {}, h("a", { href: `#/r/${encodeURIComponent(m.id)}` }, "Open the replay")) : null,
  );
}

/** Event fields that hold a seat number (0-based on the wire): shown 1-based with the player's name, as the
 * header, the result and the replay number seats. */
const SEAT_FIELDS = /^(seat|seats|winner|winners|loser|losers|player|players|by|proposer|target|actor|to_act|first)$/;

function seatText(m: MatchInfo | null, seat: number): string {
  return m ? `${seatName(m, seat)} (seat ${seat + 1})` : `seat ${seat + 1}`;
}

function describe(data: unknown, m: MatchInfo | null): string {
  if (data === null || data === undefined) return "";
  if (typeof data !== "object") return String(data);
  return Object.entries(data as Record<string, unknown>)
    .map(([k, v]) => {
      if (SEAT_FIELDS.test(k) && typeof v === "number" && Number.isInteger(v) && v >= 0) return `${humanize(k)}: ${seatText(m, v)}`;
      if (SEAT_FIELDS.test(k) && Array.isArray(v) && v.every((x) => typeof x === "number")) {
        return `${humanize(k)}: ${v.map((x) => seatText(m, x as number)).join(", ")}`;
      }
      return `${humanize(k)}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`;
    })
    .join(", ");
}

function addEvents(list: HTMLElement, events: GameEventInfo[], version: number, m: MatchInfo | null): void {
  for (const e of events) {
    const text = describe(e.data, m);
    list.prepend(h("li", {}, h("span", { class: "muted" }, `Move ${version}: `), h("strong", {}, humanize(e.kind)), text ? ` — ${text}` : ""));
  }
  while (list.children.length > EVENTS_SHOWN) list.lastElementChild?.remove();
}
