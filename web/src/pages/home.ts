/** Home: tournaments that are live or open for registration, and public matches being played now. */

import { gameName, liveMatches, listTournaments, type MatchInfo, type Tournament } from "../api";
import { errorNotice, heading, type Page } from "../ui/common";
import { fill, h, humanize, table, when } from "../ui/dom";

const REFRESH_MS = 10000;
const LIVE = ["running", "paused"];
const UPCOMING = ["registration"];

export const homePage: Page = (main) => {
  fill(main, heading("gamehall"), h("p", { class: "lead" }, "Live tournaments, matches to watch and replays."));
  // No sign-in needed: tournaments and public matches are open to anonymous visitors (read-only).
  const body = h("div", { "aria-busy": "true" });
  main.append(body);
  let timer = 0;
  const load = async () => {
    try {
      const [all, matches] = await Promise.all([listTournaments(), liveMatches()]);
      const names = new Map<string, string>();
      for (const id of new Set([...all.map((t) => t.game), ...matches.map((m) => m.game)])) {
        names.set(id, await gameName(id));
      }
      fill(
        body,
        section("Live tournaments", all.filter((t) => LIVE.includes(t.status)), names, "No tournament is being played now."),
        section("Upcoming tournaments", all.filter((t) => UPCOMING.includes(t.status)), names, "No tournament is open for registration."),
        matchesSection(matches, names),
        section("Finished tournaments", all.filter((t) => t.status === "finished").slice(0, 10), names, "None yet."),
      );
    } catch (err) {
      fill(body, errorNotice(err));
    }
    body.setAttribute("aria-busy", "false");
    timer = window.setTimeout(load, REFRESH_MS);
  };
  void load();
  return () => window.clearTimeout(timer);
};

function section(title: string, list: Tournament[], names: Map<string, string>, empty: string): HTMLElement {
  const id = `home-${title.toLowerCase().replace(/\s+/g, "-")}`;
  return h(
    "section",
    { "aria-labelledby": id, id: `${id}-section` },
    h("h2", { id }, title),
    list.length === 0
      ? h("p", { class: "muted" }, empty)
      : table(
          title,
          ["Tournament", "Game", "Format", "Status", "Players", "Registration closes"],
          list.map((t) => [
            h("a", { href: `#/t/${encodeURIComponent(t.id)}` }, t.name || t.id),
            `${names.get(t.game) ?? t.game} · ${t.mode}`,
            humanize(t.format),
            statusBadge(t),
            String(t.entrants.filter((e) => !e.dropped).length),
            when(t.registrationCloses),
          ]),
          {},
          true,
        ),
  );
}

export function statusBadge(t: Tournament): HTMLElement {
  const of = t.roundsPlanned ? ` of ${t.roundsPlanned}` : "";
  const round = t.status === "running" || t.status === "paused" ? ` · round ${t.round}${of}` : "";
  return h("span", { class: `badge badge-${t.status}` }, `${humanize(t.status)}${round}`);
}

function matchesSection(matches: MatchInfo[], names: Map<string, string>): HTMLElement {
  return h(
    "section",
    { "aria-labelledby": "home-matches" },
    h("h2", { id: "home-matches" }, "Matches open to spectators"),
    matches.length === 0
      ? h("p", { class: "muted" }, "No public match is being played now.")
      : table(
          "Matches open to spectators",
          ["Match", "Game", "Players", "Moves", ""],
          matches.map((m) => [
            m.id.slice(0, 8),
            `${names.get(m.game) ?? m.game} · ${m.mode}`,
            m.seats.map((s) => s.name).join(" vs "),
            String(m.version),
            h("a", { href: `#/m/${encodeURIComponent(m.id)}`, "aria-label": `Watch match ${m.id.slice(0, 8)}` }, "Watch"),
          ]),
          {},
          true,
        ),
  );
}
