// Drawing a scene (scene.js) on the round table: the seats around it with
// the bottom seat nearest, the trick in the middle, kitty, stake, facts,
// history and the result. The live table and the replay both draw here.
"use strict";

import { backs, cardRow, cardsOf, countBadge, playRow, rankText } from "./cards.js";
import { badgeEl } from "./roles.js";
import { ruleSentences } from "./rulewords.js";
import { isPlay } from "./scene.js";
import { actionWords, eventHelp, eventWords, t } from "./words.js";

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
export function actionEl(action, phase, cls = "last-cards", suited = null) {
  if (isPlay(action)) return playRow(action, cls, suited);
  return el("span", "said", actionWords(action, phase));
}

function seatEl(seat, scene, bottom) {
  const box = el("section", "seat");
  box.dataset.testid = `seat-${seat.seat}`;
  box.dataset.seat = seat.seat;
  if (seat.turn) box.classList.add("turn");
  if (bottom) box.classList.add("bottom");
  const who = el("div", "who");
  const name = el("b", "name", seat.name);
  if (seat.kind) name.title = seat.kind;
  who.append(name);
  if (seat.kind) who.append(el("span", "kind", seat.kind));
  if (seat.autoplay) who.append(el("span", "auto-badge", t("autoplay-on")));
  if (seat.turn) {
    // A bot "thinks"; a person's (or a replay's) turn is just the turn.
    const bot = (Boolean(scene.bots && scene.bots[seat.seat]) || seat.autoplay) && scene.deal !== null;
    who.append(el("span", "thinking", seat.seat === scene.me ? t("your-turn") : bot ? t("thinking") : t("to-act")));
  }
  if (seat.clock) who.append(clockEl(seat.clock));
  const open = seat.open && !(bottom && scene.hand);
  if (open) box.classList.add("open-hand");
  who.append(countBadge(seat.count));
  if (seat.warn) {
    const w = el("span", "warn", t(seat.warn === 1 ? "one-left" : "two-left"));
    w.dataset.testid = `warn-${seat.seat}`;
    w.title = seat.warn === 1 ? t("card-left") : t("cards-left", { n: 2 });
    who.append(w);
  }
  box.append(who);
  if (seat.badges.length) {
    const badges = el("div", "badges");
    badges.append(...seat.badges.map(badgeEl));
    box.append(badges);
  }
  // The cards it holds: face up when shown (or at the end), else a fan of backs.
  const left = el("div", "left");
  if (open) left.append(cardRow(cardsOf(seat.open), { cls: "open", from: seat.kitty ? cardsOf(seat.kitty) : null }));
  else if (!bottom) left.append(backs(seat.count));
  else if (!scene.hand) left.append(backs(seat.count));
  if (left.childNodes.length) box.append(left);
  const last = el("div", "last");
  if (seat.last) {
    const shown = actionEl(seat.last, seat.lastPhase, "last-cards", seat.lastCards);
    if (seat.fresh) shown.classList.add("fresh");
    last.append(shown);
  }
  box.append(last);
  return box;
}

// The turn clock: the seconds left, counted down by the page from the
// server's deadline (the server acts when it passes, not the page).
function clockEl(clock) {
  const c = el("span", "clock");
  c.dataset.testid = "clock";
  c.dataset.deadline = String(clock.local);
  c.title = t("clock-help", { n: clock.seconds });
  tickClock(c);
  return c;
}

export function tickClock(c) {
  const left = Math.max(0, Math.ceil((Number(c.dataset.deadline) - Date.now()) / 1000));
  c.textContent = String(left);
  c.classList.toggle("low", left <= 5);
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
    const cards = playRow(scene.trick.text, "trick-cards", scene.trick.cards);
    if (scene.trick.fresh) cards.classList.add("fresh");
    trick.append(cards);
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
  $("multiplier").title = scene.events && scene.events.length ? scene.events.map(eventWords).join(" · ") : t("no-events");
  const kitty = $("kitty");
  const { cards, size } = scene.kitty;
  kitty.replaceChildren(cards ? cardRow(cardsOf(cards), { cls: "mini" }) : backs(size, 12));
  kitty.dataset.open = cards ? "yes" : "no";
  $("kitty-box").hidden = !cards && !size;
}

function drawFacts(scene) {
  const facts = $("facts");
  facts.replaceChildren(...scene.facts);
  if (scene.events.length) {
    const p = el("p", "fact events", `${t("events")}: `);
    p.append(...stakeParts(scene.events));
    facts.append(p);
  }
}

// The stake's parts, each with a tooltip saying what it is.
function stakeParts(events) {
  const out = [];
  events.forEach((e, i) => {
    if (i) out.push(" · ");
    const part = el("span", "part", eventWords(e));
    part.title = eventHelp(e[0]);
    out.push(part);
  });
  return out;
}

// The card counter (记牌器): each rank and the copies still out (in no
// seat's sight: neither in this hand nor played), from the server's view.
const COUNTER_ORDER = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "X", "D", "L"];
function drawCounter(scene) {
  const box = $("counter");
  const shown = Boolean(scene.counter) && !scene.over && counterOn();
  box.hidden = !shown;
  $("counter-toggle").hidden = !scene.counter;
  $("counter-toggle").setAttribute("aria-pressed", String(counterOn()));
  if (!shown) return;
  const keys = Object.keys(scene.counter).sort((a, b) => COUNTER_ORDER.indexOf(a) - COUNTER_ORDER.indexOf(b));
  box.title = t("counter-help");
  box.replaceChildren(el("span", "counter-name", t("counter")), ...keys.map((k) => {
    const cell = el("span", "cell");
    const n = scene.counter[k];
    if (!n) cell.classList.add("gone");
    cell.dataset.rank = k;
    cell.append(el("b", "", k === "X" ? t("small-joker-short") : k === "D" ? t("big-joker-short") : k === "L" ? t("wild-mark") : rankText(k)),
      el("span", "", String(n)));
    return cell;
  }));
}

export const counterOn = () => localStorage.getItem("ddz-counter") !== "off";

// The history, oldest first and numbered from 1, plays drawn as cards.
function drawHistory(scene) {
  const suited = scene.suited || {};
  $("history").replaceChildren(...scene.history.map(([seat, action], i) => {
    const li = el("li");
    li.append(el("span", "who", scene.nameOf(seat)), actionEl(action, null, "mini", suited[i] || null));
    return li;
  }));
}

function drawResult(scene) {
  const box = $("result");
  box.hidden = !scene.result;
  if (!scene.result) return;
  const r = scene.result;
  const names = r.winners.map(scene.nameOf).join(t("list-sep"));
  const one = r.winners.length === 1;
  const outcome = scene.me === null ? t(one ? "winner-is" : "winners-are", { names }) : r.winners.includes(scene.me) ? t("you-win") : t("you-lose");
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
  // Why the stake is what it is: its parts, or why nothing changed it.
  const why = $("result-events");
  why.replaceChildren(`${t("stake-was", { n: r.multiplier })} `);
  if (r.events.length) why.append(...stakeParts(r.events));
  else why.append(t("no-events"));
  // Nothing changed the stake: the rule set's own words say what would have.
  const notes = r.events.length ? [] : ruleSentences(scene.rules, { stake: true });
  if (notes.length) why.append(el("span", "note", ` (${notes.join(" ")})`));
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

export function draw(scene) {
  drawCounter(scene);
  drawTop(scene);
  drawSeats(scene);
  drawTrick(scene);
  drawFacts(scene);
  drawHistory(scene);
  drawResult(scene);
  $("facts").hidden = scene.over;
  $("felt").dataset.over = scene.over ? "yes" : "no";
  document.body.dataset.over = scene.over ? "yes" : "no";
}
