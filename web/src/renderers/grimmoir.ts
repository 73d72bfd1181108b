/**
 * GrimmoiR: the battlefield of two 2x3 formations facing each other (front rows toward the middle), every
 * character with its strength, wounds, counters, book and exhaustion; each seat's factions, coins, unplaced
 * characters (faces when the view shows them, backs otherwise) and fallen; phase, round and whose turn.
 */

import { CONTENT } from "./content.generated";
import type { RenderInfo } from "./index";
import {
  arr, backs, banner, card, cardRow, chip, h, header, humanize, isObj, line, num, personName, seatPanel, stat, str,
  strs, tableRoot, unreadable, zone, type Obj,
} from "./dom";

function charName(id: string): string {
  return CONTENT.grimmoir.characters[id]?.[0] ?? humanize(id);
}

function faction(id: string): string {
  return CONTENT.grimmoir.characters[id]?.[1] ?? "";
}

function charCard(id: string): HTMLElement {
  const c = CONTENT.grimmoir.characters[id];
  const el = card(id, charName(id), `gm-char gm-f-${faction(id)}`, c ? h("span", { class: "gh-sub" }, `${c[2]} ${c[3]} · str ${c[4]}`) : null);
  if (c?.[5]) el.title = `${c[0]}: ${c[5]}`;
  return el;
}

function player(seat: number): string {
  return personName(seat, `Player ${seat + 1}`);
}

export function render(view: unknown, info: RenderInfo): HTMLElement {
  if (!isObj(view) || !Array.isArray(view.board)) return unreadable("grimmoir", "it has no battlefield");
  const v = view;
  const me = typeof v.seat === "number" ? v.seat : null;
  const phase = str(v.phase);
  const toAct = arr(v.to_act).map((x) => num(x));
  const root = tableRoot("grimmoir", `GrimmoiR table, ${info.seats} players`);
  root.append(
    header("GrimmoiR · Duel", [
      ["Phase", humanize(phase)],
      ["Round", String(num(v.round))],
      ["Initiative", player(num(v.initiative))],
      ...(phase === "display" && str(v.display_position) ? [["Placing", `position ${str(v.display_position)}`] as [string, string]] : []),
    ]),
  );
  const winner = num(v.winner, -1);
  if (winner >= 0 || phase === "over") {
    const lead = winner === 2 ? "Draw" : winner >= 0 ? `${player(winner)} wins` : "Game over";
    root.append(banner(`${lead}${str(v.end_reason) ? ` (${str(v.end_reason)})` : ""}.`, "result"));
  } else if (v.pending_shift !== null && v.pending_shift !== undefined) {
    root.append(banner(`${player(num(v.pending_shift))} chooses which column shifts into the empty centre.`));
  } else {
    root.append(banner(toAct.length ? `${toAct.map(player).join(" and ")} to act (${humanize(phase)}).` : humanize(phase), "turn"));
  }
  // The far side first: the viewer's own side (seat 0 for a spectator) at the bottom, as across a real table.
  const near = me ?? 0;
  const far = 1 - near;
  root.append(seatInfo(v, far, me, toAct));
  root.append(battlefield(v, far, near));
  root.append(seatInfo(v, near, me, toAct));
  return root;
}

function battlefield(v: Obj, far: number, near: number): HTMLElement {
  const board = arr(v.board);
  const field = h("div", { class: "gm-field", role: "group", "aria-label": "battlefield" });
  // Far side: back row on top, front row next to the middle. Near side: front row at the middle, back row below.
  field.append(formation(board[far], far, [1, 0], "gm-far"));
  field.append(h("div", { class: "gm-midline", "aria-hidden": "true" }));
  field.append(formation(board[near], near, [0, 1], "gm-near"));
  return zone("Battlefield", "gm-zone-field", field);
}

function formation(side: unknown, seat: number, rows: number[], cls: string): HTMLElement {
  const slots = arr(side);
  const grid = h("div", { class: `gm-formation ${cls}`, role: "group", "aria-label": `${player(seat)}'s formation` });
  for (const row of rows) {
    for (let col = 0; col < 3; col++) {
      const unit = slots[row * 3 + col];
      const where = `${row === 0 ? "front" : "back"} row, ${["left", "centre", "right"][col]}`;
      grid.append(isObj(unit) ? unitCard(unit, where) : h("div", { class: "gm-slot gm-blank", "aria-label": `${player(seat)} ${where}: empty` }, "—"));
    }
  }
  return grid;
}

function unitCard(u: Obj, where: string): HTMLElement {
  const id = str(u.character);
  const c = CONTENT.grimmoir.characters[id];
  const strength = c ? c[4] : 0;
  const wounds = num(u.wounds);
  const marks: HTMLElement[] = [];
  if (num(u.strengthening)) marks.push(chip(`+${num(u.strengthening)}`, "gm-plus"));
  if (num(u.weakening)) marks.push(chip(`−${num(u.weakening)}`, "gm-minus"));
  if (u.book) marks.push(chip(`book ${str(u.book)}`, "gm-book"));
  if (num(u.pens)) marks.push(chip(`pens ${num(u.pens)}`));
  if (u.exhausted) marks.push(chip("exhausted", "gm-exh"));
  const label = `${charName(id)}, ${where}: ${wounds} wound${wounds === 1 ? "" : "s"}${strength ? ` of strength ${strength}` : ""}${u.exhausted ? ", exhausted" : ""}`;
  const tip = c?.[5] ? `${label}. ${c[5]}` : label;
  return h(
    "div",
    { class: `gm-slot gm-unit gm-f-${faction(id)}${u.exhausted ? " gm-exhausted" : ""}`, "data-card": id, role: "img", "aria-label": label, title: tip },
    h("span", { class: "gm-unit-name" }, charName(id)),
    c ? h("span", { class: "gh-sub" }, `⚔ ${c[2]} ${c[3]}`) : null,
    h("span", { class: "gm-wounds" }, strength ? `♥ ${Math.max(0, strength - wounds)}/${strength}` : `wounds ${wounds}`),
    h("span", { class: "gm-marks" }, marks),
  );
}

function seatInfo(v: Obj, seat: number, me: number | null, toAct: number[]): HTMLElement {
  const mains = arr(v.main_factions);
  const sups = arr(v.supporting_factions);
  const hands = arr(v.hands);
  const hand = hands[seat];
  const handSize = num(arr(v.hand_sizes)[seat]);
  const fallen = strs(arr(v.fallen)[seat]);
  const faceDown = arr(v.face_down_committed)[seat] === true;
  const mine = me === seat;
  const factions = [str(mains[seat]), str(sups[seat])].filter(Boolean);
  return seatPanel(
    player(seat),
    { active: toAct.includes(seat), you: mine, won: num(v.winner, -1) === seat, seat, cls: "gm-seat" },
    h(
      "div",
      { class: "gh-chips" },
      factions.length ? factions.map((f, k) => chip(`${k === 0 ? "Main" : "Support"}: ${humanize(f)}`, `gm-f-${f}`)) : chip("no faction yet"),
      stat("Coins", num(arr(v.coins)[seat])),
      stat("Team", num(arr(v.team_sizes)[seat])),
      arr(v.passed)[seat] === true ? chip("passed") : null,
      num(v.turn, -1) === seat && str(v.phase) === "battle" ? chip("battle turn", "gh-chip-turn") : null,
    ),
    line("Unplaced", Array.isArray(hand) ? cardRow(`${player(seat)}'s unplaced characters`, strs(hand).map(charCard)) : backs(handSize, "unplaced characters")),
    faceDown ? line("Face-down", mine && Array.isArray(v.my_face_down) ? cardRow("your face-down characters", strs(v.my_face_down).map(charCard)) : chip("arrangement committed, face down")) : null,
    line("Fallen", cardRow(`${player(seat)}'s fallen characters`, fallen.map(charCard))),
  );
}
