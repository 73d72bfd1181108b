/**
 * The operator console: create a tournament (registration opens now or at a chosen time), then register
 * entrants, check them in, start, pause, resume, drop a player, repair a round and adjudicate a pairing.
 * Every button is one public RPC with the signed-in token: the gateway decides who may, and its refusal is
 * shown as it came (status and message).
 */

import {
  adjudicate,
  checkIn,
  createTournament,
  currentAccount,
  dropPlayer,
  getTournament,
  listGames,
  listTournaments,
  registerEntrant,
  tournamentAction,
  type GameInfo,
  type Tournament,
} from "../api";
import { errorNotice, heading, signInPrompt, signedIn, type Page } from "../ui/common";
import { fill, h, humanize, notice, playerName, table, when } from "../ui/dom";
import { statusBadge } from "./home";

const FORMATS = ["swiss", "single-elimination", "double-elimination", "round-robin", "pods"];
const BOTS = ["random", "easy", "normal", "hard", "expert"];

let fieldCount = 0;
function field(label: string, control: HTMLElement, help = ""): HTMLElement {
  const id = control.id || `field-${++fieldCount}`;
  control.id = id;
  const helpId = help ? `${id}-help` : "";
  if (helpId) control.setAttribute("aria-describedby", helpId);
  return h("p", { class: "field" }, h("label", { for: id }, label), control, help ? h("small", { id: helpId }, help) : null);
}

export const consolePage: Page = (main, args) => {
  fill(main, heading("Operator console"));
  const account = currentAccount();
  if (!signedIn() || !account) {
    main.append(signInPrompt("use the operator console"));
    return;
  }
  main.append(
    account.role === "operator"
      ? h("p", { class: "muted" }, `Signed in as ${account.username} (operator).`)
      : notice("info", `Signed in as ${account.username} (${account.role}). The server refuses operator actions to accounts without the operator role.`),
  );
  const output = h("div", { id: "console-result", "aria-live": "polite" });
  const manage = h("section", { id: "manage", "aria-labelledby": "manage-title" });
  const create = h("section", { id: "create", "aria-labelledby": "create-title" });
  main.append(output, manage, create);
  const say = (node: HTMLElement) => fill(output, node);
  void renderManage(manage, args[0] ?? "", say);
  void renderCreate(create, say);
};

async function renderCreate(box: HTMLElement, say: (n: HTMLElement) => void): Promise<void> {
  let games: GameInfo[] = [];
  try {
    games = await listGames();
  } catch (err) {
    fill(box, h("h2", { id: "create-title" }, "Create a tournament"), errorNotice(err));
    return;
  }
  const name = h("input", { id: "t-name", required: true, maxlength: 100, value: "" });
  const game = h("select", { id: "t-game" }, games.map((g) => h("option", { value: g.id }, g.name)));
  const mode = h("select", { id: "t-mode" });
  const syncModes = () => {
    const chosen = games.find((g) => g.id === game.value);
    fill(mode, (chosen?.modes ?? []).map((m) => h("option", { value: m.id }, `${m.name} (${m.seats.join("/")} seats)`)));
  };
  game.addEventListener("change", syncModes);
  syncModes();
  const format = h("select", { id: "t-format" }, FORMATS.map((f) => h("option", { value: f }, humanize(f))));
  const rounds = h("input", { id: "t-rounds", type: "number", min: 0, max: 64, value: 0 });
  const seats = h("input", { id: "t-seats", type: "number", min: 0, max: 16, value: 0 });
  const maxPlayers = h("input", { id: "t-max", type: "number", min: 0, max: 100000, value: 0 });
  const checkInBox = h("input", { id: "t-checkin", type: "checkbox" });
  const opens = h("input", { id: "t-opens", type: "datetime-local" });
  const closes = h("input", { id: "t-closes", type: "datetime-local" });
  const noShow = h("input", { id: "t-noshow", type: "number", min: 0, max: 604800, value: 0 });
  const perMove = h("input", { id: "t-permove", type: "number", min: 0, max: 86400, value: 0 });
  const form = h(
    "form",
    { class: "card grid-form" },
    field("Name", name),
    field("Game", game),
    field("Mode", mode),
    field("Format", format),
    field("Rounds", rounds, "Swiss and pods; 0: from the number of players"),
    field("Seats per match", seats, "0: 2 (more only for pods)"),
    field("Most players", maxPlayers, "0: no limit"),
    h("p", { class: "field check" }, checkInBox, h("label", { for: "t-checkin" }, "Players must check in")),
    field("Registration opens", opens, "Empty: open registration now"),
    field("Registration closes", closes, "Empty: a week after it opens"),
    field("No-show after (seconds)", noShow, "0: 120 s"),
    field("Seconds per move", perMove, "0: no clock"),
    h("p", {}, h("button", { type: "submit" }, "Create tournament")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const t = await createTournament({
        name: name.value.trim(),
        game: game.value,
        mode: mode.value,
        format: format.value,
        rounds: Number(rounds.value) || 0,
        seats: Number(seats.value) || 0,
        maxPlayers: Number(maxPlayers.value) || 0,
        requireCheckIn: checkInBox.checked,
        registrationOpens: opens.value ? new Date(opens.value) : null,
        registrationCloses: closes.value ? new Date(closes.value) : null,
        noShowSeconds: Number(noShow.value) || 0,
        perMoveSeconds: Number(perMove.value) || 0,
      });
      say(notice("ok", `Created “${t.name}”; registration ${t.registrationOpens && t.registrationOpens > new Date() ? `opens ${when(t.registrationOpens)}` : "is open"}.`));
      location.hash = `#/console/${encodeURIComponent(t.id)}`;
    } catch (err) {
      say(errorNotice(err));
    }
  });
  fill(box, h("h2", { id: "create-title" }, "Create a tournament"), form);
}

async function renderManage(box: HTMLElement, id: string, say: (n: HTMLElement) => void): Promise<void> {
  const title = h("h2", { id: "manage-title" }, "Manage a tournament");
  let list: Tournament[] = [];
  try {
    list = await listTournaments();
  } catch (err) {
    fill(box, title, errorNotice(err));
    return;
  }
  const picker = h(
    "select",
    { id: "manage-pick" },
    h("option", { value: "" }, "Choose a tournament…"),
    list.map((t) => h("option", { value: t.id, selected: t.id === id }, `${t.name || t.id} — ${t.status}`)),
  );
  picker.addEventListener("change", () => {
    location.hash = picker.value ? `#/console/${encodeURIComponent(picker.value)}` : "#/console";
  });
  const panel = h("div", { id: "manage-panel" });
  fill(box, title, field("Tournament", picker), panel);
  if (!id) return;
  try {
    drawPanel(panel, await getTournament(id), say);
  } catch (err) {
    fill(panel, errorNotice(err));
  }
}

/** What each action needs of the tournament's state: a button is enabled only when its RPC can succeed. */
const NEEDS: Record<string, string[]> = {
  start: ["registration"],
  pause: ["running"],
  resume: ["paused"],
  repair: ["running", "paused"],
  register: ["registration"],
  checkIn: ["registration"],
  drop: ["registration", "running", "paused"],
  adjudicate: ["running", "paused"],
};

function drawPanel(panel: HTMLElement, t: Tournament, say: (n: HTMLElement) => void): void {
  const act = (label: string, run: () => Promise<Tournament>, needs = "") => {
    const allowed = !needs || (NEEDS[needs] ?? []).includes(t.status);
    const button = h(
      "button",
      {
        type: "button",
        "data-action": label.toLowerCase().replace(/\s+/g, "-"),
        disabled: !allowed,
        title: allowed ? null : `Not while the tournament is ${t.status}`,
      },
      label,
    );
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const updated = await run();
        say(notice("ok", `${label}: done. The tournament is ${updated.status}.`, { "data-status": "OK" }));
        const option = document.querySelector<HTMLOptionElement>(`#manage-pick option[value="${CSS.escape(updated.id)}"]`);
        if (option) option.textContent = `${updated.name || updated.id} — ${updated.status}`;
        drawPanel(panel, updated, say);
      } catch (err) {
        say(errorNotice(err));
      } finally {
        button.disabled = !allowed;
      }
    });
    return button;
  };

  const difficulty = h("select", { id: "bot-level" }, BOTS.map((b) => h("option", { value: b, selected: b === "easy" }, b)));
  const botCount = h("input", { id: "bot-count", type: "number", min: 1, max: 64, value: 1 });
  const addBots = act("Add bots", async () => {
    for (let k = 0; k < Math.max(1, Number(botCount.value) || 1); k++) await registerEntrant(t.id, { bot: difficulty.value });
    return getTournament(t.id);
  }, "register");
  // a player by username (what people know each other by); an account id still works (ids have no other form)
  const accountId = h("input", { id: "entrant-account", maxlength: 64, autocomplete: "off", placeholder: "username" });
  const addAccount = act("Register player", async () => {
    const who = accountId.value.trim();
    const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(who);
    await registerEntrant(t.id, isId ? { accountId: who } : { username: who });
    return getTournament(t.id);
  }, "register");

  const entrants = table(
    `Entrants (${t.entrants.length})`,
    ["Seed", "Player", "Checked in", "Status", "Actions"],
    t.entrants.map((e) => [
      String(e.seed || "—"),
      h("span", { title: e.player }, playerName(e.player, e.name)),
      e.checkedIn ? "yes" : "no",
      e.dropped ? "dropped" : "in",
      h(
        "span",
        { class: "row-actions" },
        e.checkedIn || e.dropped ? null : act(`Check in ${playerName(e.player, e.name)}`, () => checkIn(t.id, e.player), "checkIn"),
        e.dropped ? null : act(`Drop ${playerName(e.player, e.name)}`, () => dropPlayer(t.id, e.player), "drop"),
      ),
    ]),
  );

  const names = new Map(t.entrants.map((e) => [e.player, e.name]));
  const open = t.pairings.filter((p) => p.round === t.round && p.players.length > 1);
  const pairing = h(
    "select",
    { id: "adj-pairing" },
    open.map((p) => h("option", { value: p.id }, `Round ${p.round}, table ${p.table}: ${p.players.map((id) => playerName(id, names.get(id))).join(" vs ")}${p.ranks.length ? " (has a result)" : ""}`)),
  );
  const ranks = h("input", { id: "adj-ranks", inputmode: "numeric", placeholder: "1,2", pattern: "\\s*\\d+(\\s*,\\s*\\d+)*\\s*" });
  const adjudicateButton = act("Adjudicate", () =>
    adjudicate(t.id, pairing.value, ranks.value.split(",").map((x) => Number(x.trim())).filter((x) => Number.isFinite(x))),
    open.length ? "adjudicate" : "none",
  );

  fill(
    panel,
    h(
      "p",
      { class: "meta", id: "manage-status", "data-status": t.status },
      `${t.name} · ${t.game} · ${humanize(t.format)} · `,
      statusBadge(t),
      " · ",
      h("a", { href: `#/t/${encodeURIComponent(t.id)}` }, "Public page"),
    ),
    h(
      "div",
      { class: "toolbar", role: "group", "aria-label": "Tournament actions" },
      act("Start", () => tournamentAction("start", t.id), "start"),
      act("Pause", () => tournamentAction("pause", t.id), "pause"),
      act("Resume", () => tournamentAction("resume", t.id), "resume"),
      act("Repair round", () => tournamentAction("repair", t.id), "repair"),
    ),
    h(
      "div",
      { class: "columns" },
      h("section", { class: "card", "aria-labelledby": "add-title" }, h("h3", { id: "add-title" }, "Register entrants"), field("Bot difficulty", difficulty), field("How many bots", botCount), addBots, field("Player (username or account id)", accountId), addAccount),
      h(
        "section",
        { class: "card", "aria-labelledby": "adj-title" },
        h("h3", { id: "adj-title" }, "Adjudicate a pairing"),
        open.length ? field("Pairing (current round)", pairing) : h("p", { class: "muted" }, "No pairing in the current round."),
        field("Ranks per seat", ranks, "1 is best; equal ranks tie, e.g. 1,2 or 1,1"),
        adjudicateButton,
      ),
    ),
    entrants,
  );
}
