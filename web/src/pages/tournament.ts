/**
 * A tournament: standings live from WatchStandings (each format's tie-breakers as columns, in the order the
 * format applies them), the bracket for elimination formats or the rounds for Swiss, round robin and pods,
 * and each table's status with a link to watch it (with the broadcast delay) or replay it.
 */

import {
  getTournament,
  knownGameName,
  listGames,
  watchStandings,
  type Pairing,
  type Standings,
  type Tournament,
} from "../api";
import { errorNotice, errorText, follow, heading, type Page } from "../ui/common";
import { fill, formatNumber, h, humanize, notice, playerName, table, when } from "../ui/dom";
import { statusBadge } from "./home";

/** Actions a tournament table's spectators stay behind live play. */
export const BROADCAST_DELAY = 2;

const TIEBREAK_NAMES: Record<string, string> = {
  "buchholz-cut1": "Buchholz cut 1",
  buchholz: "Buchholz",
  "sonneborn-berger": "Sonneborn-Berger",
  "head-to-head": "Head to head",
  // the tie-break counts wins over opponents (a bye is not one), unlike the Wins column: named apart
  wins: "Wins without byes",
};

export const tournamentPage: Page = (main, args) => {
  const id = args[0] ?? "";
  fill(main, heading("Tournament"));
  // no sign-in needed: a tournament's standings, pairings and tables are public (read-only)
  const abort = new AbortController();
  const head = h("div", { class: "tournament-head" });
  const live = h("p", { class: "live", role: "status", id: "live-status" }, "Connecting…");
  const standingsBox = h("section", { "aria-labelledby": "standings-title", id: "standings" });
  const tablesBox = h("section", { id: "tables" });
  const problems = h("div", {});
  main.append(head, live, problems, standingsBox, tablesBox);

  let tournament: Tournament | null = null;
  void listGames()
    .then(() => tournament && renderHead(head, tournament))
    .catch(() => undefined); // the game's name replaces its id once the catalog answers
  let lastRevision = -1;
  let refreshing: Promise<void> | null = null;
  let pending = false;

  const refreshTournament = async () => {
    if (refreshing) {
      pending = true; // coalesce: one more fetch after the one in flight
      return;
    }
    refreshing = (async () => {
      do {
        pending = false;
        try {
          tournament = await getTournament(id);
          renderTables(tablesBox, tournament);
          renderHead(head, tournament);
        } catch (err) {
          fill(problems, errorNotice(err));
        }
      } while (pending && !abort.signal.aborted);
    })();
    await refreshing;
    refreshing = null;
  };

  void follow(
    () => watchStandings(id, abort.signal),
    (standings) => {
      fill(problems);
      if (standings.revision !== lastRevision) {
        lastRevision = standings.revision;
        renderStandings(standingsBox, standings);
        void refreshTournament();
      }
      const ended = standings.status === "finished" || standings.status === "cancelled";
      fill(live, ended ? `Final standings (${standings.status}).` : `Live · updated ${new Date().toLocaleTimeString()}`);
      live.dataset.revision = String(standings.revision);
    },
    (err, retrying) => {
      fill(problems, errorNotice(err));
      fill(live, retrying ? "Connection lost; reconnecting…" : errorText(err));
    },
    abort.signal,
  );
  return () => abort.abort();
};

function renderHead(box: HTMLElement, t: Tournament): void {
  document.title = `${t.name || "Tournament"} · gamehall`;
  const title = box.ownerDocument.querySelector(".page-title");
  if (title) title.textContent = t.name || "Tournament";
  const active = t.entrants.filter((e) => !e.dropped).length;
  fill(
    box,
    h(
      "p",
      { class: "meta" },
      `${knownGameName(t.game)} · ${t.mode} · ${humanize(t.format)} · `,
      statusBadge(t),
      ` · ${active} players`,
    ),
    t.status === "registration"
      ? h("p", {}, `Registration open until ${when(t.registrationCloses)}.`)
      : null,
    countdown(t),
  );
}

/** Until when the next stage: registration's close (a clock that ticks), or, while a round is played, how many
 * of its tables are still playing (the next round is paired as soon as they all finish). */
function countdown(t: Tournament): HTMLElement | null {
  if (t.status === "registration" && t.registrationCloses) {
    const closes = t.registrationCloses.getTime();
    const clock = h("p", { id: "countdown", class: "countdown", role: "timer", "aria-live": "off" });
    let shown = false; // the clock stops once its page redraws it (a new one replaces it) or is left
    const tick = () => {
      if (shown && !clock.isConnected) return;
      shown ||= clock.isConnected;
      const left = Math.max(0, Math.round((closes - Date.now()) / 1000));
      const d = Math.floor(left / 86400);
      const hms = [Math.floor((left % 86400) / 3600), Math.floor((left % 3600) / 60), left % 60].map((n) => String(n).padStart(2, "0")).join(":");
      clock.textContent = left > 0 ? `Registration closes in ${d ? `${d} d ` : ""}${hms}` : "Registration has closed: starting soon.";
      if (left > 0) window.setTimeout(tick, 1000 - (Date.now() % 1000));
    };
    tick();
    return clock;
  }
  if (t.status !== "running" && t.status !== "paused") return null;
  const current = t.pairings.filter((p) => p.round === t.round && p.players.length > 1);
  const playing = current.filter((p) => !p.ranks.length).length;
  const last = t.roundsPlanned && t.round >= t.roundsPlanned;
  const next = last ? "the final standings" : `round ${t.round + 1}`;
  return h(
    "p",
    { id: "countdown", class: "countdown", role: "status" },
    t.status === "paused"
      ? `Paused in round ${t.round}.`
      : playing
        ? `Round ${t.round}${t.roundsPlanned ? ` of ${t.roundsPlanned}` : ""}: ${playing} of ${current.length} ${current.length === 1 ? "table" : "tables"} still playing; ${next} as soon as ${playing === 1 ? "it finishes" : "they finish"}.`
        : `Round ${t.round} is over: ${next} is on its way.`,
  );
}

function tiebreakLabel(name: string): string {
  return TIEBREAK_NAMES[name] ?? humanize(name);
}

function renderStandings(box: HTMLElement, s: Standings): void {
  const caption = s.round ? `Standings after round ${s.round}${s.roundsPlanned ? ` of ${s.roundsPlanned}` : ""}` : "Standings";
  const head = ["Rank", "Player", "Points", ...s.tiebreakOrder.map(tiebreakLabel), "Games", "Wins"];
  const rows = s.rows.map((r) => [
    String(r.rank),
    r.dropped ? `${playerName(r.player, r.name)} (dropped)` : playerName(r.player, r.name),
    formatNumber(r.points),
    ...s.tiebreakOrder.map((name) => formatNumber(r.tiebreaks[name] ?? 0)),
    String(r.games),
    String(r.wins),
  ]);
  fill(
    box,
    h("h2", { id: "standings-title" }, "Standings"),
    s.tiebreakOrder.length
      ? h("p", { class: "muted" }, `Ties are broken by ${s.tiebreakOrder.map(tiebreakLabel).join(", then ")}.`)
      : null,
    table(caption, head, rows, { class: "standings", "data-revision": s.revision }),
  );
}

function tableStatus(p: Pairing): { text: string; link: HTMLElement | null } {
  const watch = (label: string) =>
    h(
      "a",
      { href: `#/m/${encodeURIComponent(p.matchId)}?delay=${BROADCAST_DELAY}`, "aria-label": `${label} table ${p.table} of round ${p.round}` },
      label,
    );
  const replay = () =>
    h("a", { href: `#/r/${encodeURIComponent(p.matchId)}`, "aria-label": `Replay table ${p.table} of round ${p.round}` }, "Replay");
  if (p.players.length === 1) return { text: "Bye", link: null };
  if (p.ranks.length) {
    const how = p.adjudicated ? "adjudicated" : p.forfeitReason ? `forfeit (${p.forfeitReason})` : "finished";
    return { text: humanize(how), link: p.matchId ? replay() : null };
  }
  if (!p.matchId) return { text: "Waiting for its match", link: null };
  return { text: "Playing", link: watch("Watch") };
}

/** Username by player id, from the tournament's entrants. */
type Names = Map<string, string>;

function namesOf(t: Tournament): Names {
  return new Map(t.entrants.map((e) => [e.player, e.name]));
}

function result(p: Pairing, names: Names): string {
  if (!p.ranks.length) return "—";
  const best = Math.min(...p.ranks);
  const winners = p.players.filter((_, i) => p.ranks[i] === best);
  return winners.length === p.players.length ? "Draw" : `${winners.map((id) => playerName(id, names.get(id))).join(", ")} won`;
}

function players(p: Pairing, names: Names): HTMLElement {
  const best = p.ranks.length ? Math.min(...p.ranks) : null;
  const list = h("ul", { class: "players" });
  p.players.forEach((player, i) => {
    const won = best !== null && p.ranks[i] === best && p.ranks.some((r) => r !== best);
    list.append(h("li", won ? { class: "winner" } : {}, playerName(player, names.get(player)), won ? h("span", { class: "sr-only" }, " (winner)") : null));
  });
  return list;
}

function rounds(t: Tournament): Map<number, Pairing[]> {
  const byRound = new Map<number, Pairing[]>();
  for (const p of t.pairings) {
    if (!byRound.has(p.round)) byRound.set(p.round, []);
    byRound.get(p.round)?.push(p);
  }
  for (const list of byRound.values()) list.sort((a, b) => a.table - b.table);
  return byRound;
}

function renderTables(box: HTMLElement, t: Tournament): void {
  const byRound = rounds(t);
  const names = namesOf(t);
  if (byRound.size === 0) {
    fill(box, h("h2", {}, "Tables"), notice("info", "Pairings appear when the tournament starts."));
    return;
  }
  if (t.format.includes("elimination")) {
    fill(box, h("h2", { id: "bracket-title" }, "Bracket"), bracket(byRound, names));
    return;
  }
  const sections = [...byRound.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([round, list]) =>
      h(
        "section",
        { class: "round", "data-round": round },
        table(
          `Round ${round}${round === t.round && t.status !== "finished" ? " (current)" : ""}`,
          ["Table", "Players", "Result", "Status", ""],
          list.map((p) => {
            const status = tableStatus(p);
            return [String(p.table), players(p, names), result(p, names), status.text, status.link];
          }),
        ),
      ),
    );
  fill(box, h("h2", {}, "Rounds"), ...sections);
}

function bracket(byRound: Map<number, Pairing[]>, names: Names): HTMLElement {
  // Drawn as a bracket: one column per round, each round's tables in pairs joined by a line to the table of the
  // next round their winners meet at, which sits level with the middle of its pair (CSS: .bracket-*).
  const columns = [...byRound.entries()].sort((a, b) => a[0] - b[0]);
  const last = columns.length - 1;
  return h(
    "div",
    { class: "bracket", role: "list", "aria-label": "Bracket by round" },
    columns.map(([round, list], index) => {
      const sorted = [...list].sort((a, b) => a.table - b.table);
      const box = (p: Pairing) => {
        const status = tableStatus(p);
        return h(
          "div",
          { class: "bracket-match", "data-round": round, "data-table": p.table },
          h("p", { class: "muted" }, `Table ${p.table}`),
          players(p, names),
          h("p", {}, status.text, " ", status.link),
        );
      };
      const groups: HTMLElement[] = [];
      for (let k = 0; k < sorted.length; k += 2) {
        const pair = sorted.slice(k, k + 2);
        const joined = index < last && pair.length === 2;
        groups.push(h("div", { class: `bracket-pair${joined ? " bracket-joined" : ""}` }, pair.map(box)));
      }
      return h(
        "section",
        { class: `bracket-round${index > 0 ? " bracket-fed" : ""}`, role: "listitem", "aria-label": `Round ${round}` },
        h("h3", {}, index === last && sorted.length === 1 ? `Round ${round} (final)` : `Round ${round}`),
        h("div", { class: "bracket-slots" }, groups),
      );
    }),
  );
}
