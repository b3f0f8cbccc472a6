// Drawing a scene (scene.js) on the round table: the seats around it with
// the bottom seat nearest, the trick in the middle, kitty, stake, facts,
// history and the result. The live table and the replay both draw here.
"use strict";

import { backs, cardRow, cardsOf, countBadge, playRow } from "./cards.js";
import { badgeEl } from "./roles.js";
import { isPlay } from "./scene.js";
import { actionWords, eventWords, t } from "./words.js";

export const $ = (id) => document.getElementById(id);

// Where the other seats sit, counted in turn order from the bottom seat
// (1 = next to act after it, on its right, as play goes round anticlockwise).
// top is read left to right, the sides top to bottom.
const PLACES = {
  1: { top: [1] },
  2: { right: [1], left: [2] },
  3: { right: [1], top: [2], left: [3] },
  4: { right: [1], top: [3, 2], left: [4] },
  5: { right: [2, 1], top: [3], left: [4, 5] },
};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// An action in front of a seat: the cards, or the decision in words.
export function actionEl(action, phase, cls = "last-cards") {
  if (isPlay(action)) return playRow(action, cls);
  return el("span", "said", actionWords(action, phase));
}

function seatEl(seat, scene, bottom) {
  const box = el("section", "seat");
  box.dataset.testid = `seat-${seat.seat}`;
  box.dataset.seat = seat.seat;
  if (seat.turn) box.classList.add("turn");
  if (bottom) box.classList.add("bottom");
  const who = el("div", "who");
  who.append(el("b", "name", seat.name));
  if (seat.kind) who.append(el("span", "kind", seat.kind));
  if (seat.turn) who.append(el("span", "thinking", seat.seat === scene.me ? t("your-turn") : t("thinking")));
  const open = seat.open && !(bottom && scene.hand);
  if (open || bottom) who.append(countBadge(seat.count));
  box.append(who);
  if (seat.badges.length) {
    const badges = el("div", "badges");
    badges.append(...seat.badges.map(badgeEl));
    box.append(badges);
  }
  // The cards it holds: face up when shown (or at the end), else a fan of backs.
  const left = el("div", "left");
  if (open) left.append(cardRow(cardsOf(seat.open), { cls: "open" }));
  else if (!bottom) left.append(backs(seat.count), countBadge(seat.count));
  else if (!scene.hand) left.append(backs(seat.count));
  if (left.childNodes.length) box.append(left);
  const last = el("div", "last");
  if (seat.last) last.append(actionEl(seat.last, scene.phase));
  box.append(last);
  return box;
}

function drawSeats(scene) {
  const groups = { top: $("seats-top"), left: $("seats-left"), right: $("seats-right") };
  for (const g of Object.values(groups)) g.replaceChildren();
  const places = PLACES[scene.players - 1] || {};
  for (const [where, order] of Object.entries(places)) {
    groups[where].append(...order.map((k) => seatEl(scene.seats[(scene.bottom + k) % scene.players], scene, false)));
  }
  $("seat-bottom").replaceChildren(seatEl(scene.seats[scene.bottom], scene, true));
  $("felt").dataset.players = scene.players;
}

function drawTrick(scene) {
  const trick = $("trick");
  trick.replaceChildren();
  trick.hidden = scene.over;
  if (scene.trick) {
    trick.append(playRow(scene.trick.text, "trick-cards"));
    const by = scene.trick.by;
    if (by !== null) trick.append(el("div", "by", by === scene.me ? t("played-by-you") : t("played-by", { name: scene.nameOf(by) })));
  } else if (scene.leader !== null) {
    trick.append(el("div", "by", scene.leader === scene.me ? t("you-lead") : t("leads", { name: scene.nameOf(scene.leader) })));
  } else if (!scene.over) {
    trick.append(el("div", "by", t("phase", scene.phase)));
  }
}

function drawTop(scene) {
  const where = [t("preset", scene.preset)];
  if (scene.deal !== null) where.push(t("deal", { n: scene.deal + 1 }));
  where.push(t("phase", scene.phase));
  $("where").textContent = where.join(" · ");
  const turn = $("turn");
  turn.classList.toggle("mine", scene.toAct !== null && scene.toAct === scene.me);
  turn.textContent = scene.toAct === null ? "" : scene.toAct === scene.me ? t("your-turn") : t("turn-of", { name: scene.nameOf(scene.toAct) });
  $("multiplier").textContent = `×${scene.multiplier}`;
  const kitty = $("kitty");
  const { cards, size } = scene.kitty;
  kitty.replaceChildren(cards ? cardRow(cardsOf(cards), { cls: "mini" }) : backs(size, 12));
  kitty.dataset.open = cards ? "yes" : "no";
  $("kitty-box").hidden = !cards && !size;
}

function drawFacts(scene) {
  const facts = $("facts");
  facts.replaceChildren(...scene.facts);
  if (scene.events.length) facts.append(el("p", "fact events", `${t("events")}: ${scene.events.map(eventWords).join(" · ")}`));
}

// The history, oldest first and numbered from 1, plays drawn as cards.
function drawHistory(scene) {
  $("history").replaceChildren(...scene.history.map(([seat, action]) => {
    const li = el("li");
    li.append(el("span", "who", scene.nameOf(seat)), actionEl(action, null, "mini"));
    return li;
  }));
}

function drawResult(scene) {
  const box = $("result");
  box.hidden = !scene.result;
  if (!scene.result) return;
  const r = scene.result;
  const names = r.winners.map(scene.nameOf).join(t("list-sep"));
  const outcome = scene.me === null ? t("winners-are", { names }) : r.winners.includes(scene.me) ? t("you-win") : t("you-lose");
  $("outcome").textContent = outcome;
  $("outcome").className = scene.me !== null && r.winners.includes(scene.me) ? "won" : "";
  const head = el("tr");
  head.append(el("th"), el("th", "", t("this-deal")));
  if (scene.scores) head.append(el("th", "", t("total")));
  const rows = r.scores.map((score, s) => {
    const tr = el("tr");
    if (r.winners.includes(s)) tr.className = "winner";
    tr.append(el("th", "", scene.nameOf(s)), el("td", "", signed(score)));
    if (scene.scores) tr.append(el("td", "", signed(scene.scores[s])));
    return tr;
  });
  $("scores").replaceChildren(head, ...rows);
  $("result-events").textContent = `×${r.multiplier}: ${r.events.length ? r.events.map(eventWords).join(" · ") : t("no-events")}`;
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

export function draw(scene) {
  drawTop(scene);
  drawSeats(scene);
  drawTrick(scene);
  drawFacts(scene);
  drawHistory(scene);
  drawResult(scene);
  $("facts").hidden = scene.over;
}
