/**
 * The replay viewer: GetReplay's steps, one at a time with a slider (arrow keys step it) and buttons. For
 * a finished match the API gives every seat's view at every step, so each seat's hand is shown beside the
 * spectators' table; for a running match it gives only the caller's own seat history, and says so.
 */

import { gameName, getReplay, seatUsernames, type ReplayInfo } from "../api";
import { rendererFor, renderGeneric, type RenderInfo } from "../renderers/index";
import { errorNotice, heading, type Page } from "../ui/common";
import { fill, h, humanize, notice } from "../ui/dom";
import { outcomeBox } from "./match";

interface CompleteView {
  seats: unknown[];
  spectator: unknown;
}

function isComplete(view: unknown): view is CompleteView {
  return typeof view === "object" && view !== null && Array.isArray((view as CompleteView).seats) && "spectator" in view;
}

export const replayPage: Page = (main, args) => {
  const id = args[0] ?? "";
  fill(main, heading("Replay"));
  // no sign-in needed: a public match's replay is public (the gateway refuses a private one to strangers)
  const body = h("div", { "aria-busy": "true" });
  main.append(body);
  void (async () => {
    try {
      const replay = await getReplay(id);
      await show(body, replay);
    } catch (err) {
      fill(body, errorNotice(err));
    }
    body.setAttribute("aria-busy", "false");
  })();
};

async function show(body: HTMLElement, replay: ReplayInfo): Promise<void> {
  const m = replay.match;
  const name = await gameName(m.game);
  const title = body.ownerDocument.querySelector(".page-title");
  if (title) title.textContent = `Replay: ${name}, ${m.seats.map((s) => s.name).join(" vs ")}`;
  document.title = `${name} replay · gamehall`;
  const info: RenderInfo = { game: m.game, mode: m.mode, seats: m.seatCount, names: seatUsernames(m) };
  const last = replay.steps.length;

  const slider = h("input", { type: "range", id: "step", min: 0, max: last, value: last, step: 1 });
  const position = h("output", { for: "step", id: "step-label" });
  const buttons = (["First", "Previous", "Next", "Last"] as const).map((label) =>
    h("button", { type: "button", "data-step": label.toLowerCase() }, label),
  );
  const stage = h("div", { id: "replay-stage" });
  const tableBox = h("section", { class: "table-box", id: "table", "aria-label": "The table at this step" });
  const hands = h("section", { id: "hands", "aria-labelledby": "hands-title" });
  stage.append(tableBox, hands);

  const go = (k: number) => {
    const step = Math.max(0, Math.min(last, k));
    slider.value = String(step);
    const entry = step === 0 ? null : replay.steps[step - 1];
    const view = entry ? entry.view : replay.initial;
    slider.setAttribute("aria-valuetext", `step ${step} of ${last}`);
    fill(
      position,
      step === 0
        ? `Step 0 of ${last}: the deal, before any move`
        : `Step ${step} of ${last} · move ${entry?.version} · seat ${(entry?.seat ?? 0) + 1} (${m.seats[entry?.seat ?? 0]?.name ?? "?"}): ${entry?.action ? entry.action : "hidden until the match ends"}`,
    );
    tableBox.dataset.step = String(step);
    if (isComplete(view)) {
      fill(tableBox, draw(view.spectator, info));
      fill(
        hands,
        h("h2", { id: "hands-title" }, "Every seat's view (revealed after the end)"),
        h(
          "div",
          { class: "seat-views" },
          view.seats.map((seatView, seat) =>
            h(
              "section",
              { class: "seat-view", "aria-label": `Seat ${seat + 1} view`, "data-seat": seat },
              h("h3", {}, `Seat ${seat + 1}: ${m.seats[seat]?.name ?? ""}`),
              draw(seatView, info),
            ),
          ),
        ),
      );
    } else {
      fill(tableBox, draw(view, info));
      fill(hands);
    }
  };

  slider.addEventListener("input", () => go(Number(slider.value)));
  const [first, previous, next, lastButton] = buttons as [HTMLButtonElement, HTMLButtonElement, HTMLButtonElement, HTMLButtonElement];
  first.addEventListener("click", () => go(0));
  previous.addEventListener("click", () => go(Number(slider.value) - 1));
  next.addEventListener("click", () => go(Number(slider.value) + 1));
  lastButton.addEventListener("click", () => go(last));

  fill(
    body,
    h("p", { class: "meta" }, `${name} · ${humanize(m.mode)} · ${m.seatCount} seats · ${humanize(m.status)}`),
    replay.complete
      ? null
      : notice("info", "This match is still being played: the replay shows only your own seat's history. Everything is revealed when it ends."),
    m.outcome ? outcomeBox(m.outcome, m, false) : null,
    h(
      "div",
      { class: "stepper" },
      h("label", { for: "step" }, "Step"),
      slider,
      h("div", { class: "step-buttons" }, buttons),
      h("p", { "aria-live": "polite" }, position),
    ),
    stage,
  );
  go(last);
}

function draw(view: unknown, info: RenderInfo): HTMLElement {
  try {
    return rendererFor(info.game)(view, info);
  } catch {
    return renderGeneric(view, info);
  }
}
