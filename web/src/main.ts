/**
 * gamehall's web pages: one page app with hash routes, over the public API (api.ts).
 *   #/            home: live and upcoming tournaments, matches open to spectators
 *   #/t/<id>      a tournament: live standings, bracket or rounds, each table's status
 *   #/m/<id>      a match, live, with the broadcast delay (?delay=N actions)
 *   #/r/<id>      a finished match's replay
 *   #/leaderboard the leaderboards, per game and mode
 *   #/console     the operator console
 *   #/login       sign in or create an account
 */

import "./style.css";
import { currentAccount, logOut } from "./api";
import { consolePage } from "./pages/console";
import { homePage } from "./pages/home";
import { leaderboardPage } from "./pages/leaderboard";
import { loginPage } from "./pages/login";
import { matchPage } from "./pages/match";
import { replayPage } from "./pages/replay";
import { tournamentPage } from "./pages/tournament";
import type { Cleanup, Page } from "./ui/common";
import { h, fill } from "./ui/dom";

const routes: Record<string, Page> = {
  "": homePage,
  t: tournamentPage,
  m: matchPage,
  r: replayPage,
  leaderboard: leaderboardPage,
  console: consolePage,
  login: loginPage,
};

let cleanup: Cleanup | void;

function route(): void {
  const main = document.getElementById("main") as HTMLElement;
  const [path, search] = location.hash.replace(/^#\/?/, "").split("?", 2) as [string, string | undefined];
  const [name = "", ...args] = path.split("/").filter(Boolean).map(decodeURIComponent);
  const page = routes[name];
  if (cleanup) cleanup();
  cleanup = undefined;
  main.replaceChildren();
  if (!page) {
    fill(main, h("h1", {}, "Not found"), h("p", {}, h("a", { href: "#/" }, "Back to the home page")));
    return;
  }
  cleanup = page(main, args, new URLSearchParams(search ?? ""));
  markCurrent(name);
  const title = main.querySelector<HTMLElement>(".page-title");
  (title ?? main).focus({ preventScroll: false });
}

function markCurrent(name: string): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>("#nav a")) {
    const target = link.getAttribute("href")?.replace(/^#\/?/, "") ?? "";
    if (target === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

function renderAccount(): void {
  const slot = document.getElementById("nav-account");
  if (!slot) return;
  const account = currentAccount();
  if (!account) {
    fill(slot, h("a", { href: `#/login?next=${encodeURIComponent(location.hash || "#/")}` }, "Sign in"));
    return;
  }
  const out = h("button", { type: "button", class: "link-button" }, "Sign out");
  out.addEventListener("click", async () => {
    out.disabled = true;
    await logOut(); // revoked on the server, forgotten here (forgotten here even if the server is unreachable)
    window.dispatchEvent(new Event("gamehall:session"));
    location.hash = "#/";
  });
  fill(slot, h("span", { class: "who" }, `${account.username} (${account.role})`), " ", out);
}

window.addEventListener("hashchange", route);
window.addEventListener("gamehall:session", renderAccount);
renderAccount();
route();
