/**
 * Leaderboards (no sign-in needed): one per game and mode, ordered by rating (mu - 3 sigma), a page at a time.
 *   #/leaderboard                      the first game's first mode
 *   #/leaderboard/<game>/<mode>?size=N a chosen one (N entries a page, 20 by default)
 */

import { leaderboard, listGames, type GameInfo } from "../api";
import { errorNotice, heading, type Page } from "../ui/common";
import { fill, formatNumber, h, playerName, table } from "../ui/dom";

const PAGE = 20;

export const leaderboardPage: Page = (main, args, query) => {
  fill(main, heading("Leaderboards"));
  const size = Math.max(1, Math.min(100, Number(query.get("size") ?? PAGE) || PAGE));
  const body = h("div", { "aria-busy": "true" });
  main.append(body);
  void (async () => {
    let games: GameInfo[];
    try {
      games = await listGames();
    } catch (err) {
      fill(body, errorNotice(err));
      return;
    }
    const game = games.find((g) => g.id === args[0]) ?? games[0];
    if (!game) {
      fill(body, h("p", { class: "muted" }, "No game is hosted here."));
      return;
    }
    const mode = game.modes.find((m) => m.id === args[1]) ?? game.modes[0];
    const picker = h(
      "select",
      { id: "board-pick" },
      games.flatMap((g) => g.modes.map((m) => h("option", { value: `${g.id}/${m.id}`, selected: g.id === game.id && m.id === mode?.id }, `${g.name} · ${m.name}`))),
    );
    picker.addEventListener("change", () => {
      location.hash = `#/leaderboard/${picker.value.split("/").map(encodeURIComponent).join("/")}${size !== PAGE ? `?size=${size}` : ""}`;
    });
    const rows = h("div", { id: "board" });
    const pager = h("div", { class: "toolbar", role: "group", "aria-label": "Pages" });
    fill(body, h("p", { class: "field inline" }, h("label", { for: "board-pick" }, "Game and mode "), picker), rows, pager);
    body.setAttribute("aria-busy", "false");
    const tokens = [""]; // the token of each page seen so far: Previous goes back without the server's help
    let at = 0;
    const show = async () => {
      rows.setAttribute("aria-busy", "true");
      try {
        const page = await leaderboard(game.id, mode?.id ?? "", size, tokens[at]);
        if (page.next) tokens[at + 1] = page.next;
        fill(
          rows,
          page.entries.length === 0 && at === 0
            ? h("p", { class: "muted" }, "Nobody has played a rated match of this mode yet.")
            : table(
                `${game.name} · ${mode?.name ?? ""}: page ${at + 1}`,
                ["Rank", "Player", "Rating", "Matches"],
                page.entries.map((e) => [
                  String(e.rank),
                  playerName(e.accountId, e.username),
                  h("span", { title: `mu ${formatNumber(e.mu)}, sigma ${formatNumber(e.sigma)}` }, formatNumber(e.ordinal)),
                  String(e.matches),
                ]),
                { class: "leaderboard" },
              ),
        );
        const previous = h("button", { type: "button", disabled: at === 0 }, "Previous page");
        const next = h("button", { type: "button", disabled: !page.next }, "Next page");
        previous.addEventListener("click", () => {
          at -= 1;
          void show();
        });
        next.addEventListener("click", () => {
          at += 1;
          void show();
        });
        fill(pager, previous, next);
      } catch (err) {
        fill(rows, errorNotice(err));
      }
      rows.setAttribute("aria-busy", "false");
    };
    await show();
  })();
};
