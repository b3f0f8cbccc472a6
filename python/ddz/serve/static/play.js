// The live table: a seat's (or a spectator's) view as pushes bring it, the
// hand to pick from, and every decision as buttons. The server is the
// authority: the page sends what was clicked and shows the views it gets.
"use strict";

import { cardsOf, playOf, rankText } from "./cards.js";
import { drawHand, moved } from "./hand.js";
import { api, forgetSeat, heldSeat, newKey, subscribe } from "./net.js";
import { $, draw } from "./render.js";
import { liveScene } from "./scene.js";
import { actionWords, declareRoles, t } from "./words.js";

export const live = {
  id: null, token: null, seat: null, view: null, bots: {}, rules: null, finalHands: null,
  selected: new Set(), focus: 0, hints: null, hintAt: -1, reading: null, feed: null,
};

const ranks = (cards) => cards.map((c) => c[0]).sort().join("");
const legal = () => (live.view && live.view.observation.legal_actions) || [];
const handCards = () => cardsOf((live.view && live.view.observation.hand) || "");

export function toast(text) {
  const m = $("message");
  m.textContent = text;
  m.hidden = !text;
  clearTimeout(toast.timer);
  if (text) toast.timer = setTimeout(() => { m.hidden = true; }, 4000);
}

// ---- opening and leaving ---------------------------------------------------------
export async function openTable(tableId) {
  closeTable();
  const held = heldSeat(tableId);
  Object.assign(live, { id: tableId, token: held && held.token, seat: held ? held.seat : null, view: null, finalHands: null });
  document.body.dataset.page = "table";
  try {
    const [summary, rules, roles] = await Promise.all([api("GET", `/tables/${tableId}`),
      api("GET", `/tables/${tableId}/rules`), api("GET", `/tables/${tableId}/roles`)]);
    declareRoles(summary.preset, roles);
    live.bots = Object.fromEntries(Object.entries(summary.bots).map(([s, k]) => [Number(s), k]));
    live.rules = rules;
  } catch (e) {
    toast(t("error-prefix", { message: e.message }));
    return;
  }
  live.feed = subscribe(tableId, live.token, show, (error) => {
    toast(t("error-prefix", { message: error }));
    if (live.token) { forgetSeat(tableId); live.token = null; live.seat = null; openTable(tableId); }
  });
}

export function closeTable() {
  if (live.feed) live.feed.stop();
  live.feed = null;
  live.id = null;
}

// ---- a view arrives ------------------------------------------------------------------
function show(view) {
  if (live.view && view.table === live.view.table && view.version < live.view.version) return; // an old push
  const fresh = !live.view || view.version !== live.view.version;
  live.view = view;
  if (fresh) {
    live.selected.clear();
    live.hints = null;
    live.hintAt = -1;
    live.reading = null;
    $("choices").replaceChildren();
  }
  if (view.closed && live.feed) { live.feed.closed(); toast(t("closed")); }
  const over = view.observation.phase === "over";
  if (!over) live.finalHands = null;
  else if (!live.finalHands || live.finalHands.deal !== view.deal) {
    live.finalHands = { deal: view.deal, pending: true };
    api("GET", `/tables/${view.table}/hands?deal=${view.deal}`).then((hands) => {
      live.finalHands = { ...hands, deal: view.deal };
      if (live.view && live.view.table === view.table && live.view.deal === view.deal) redraw();
    }).catch((e) => toast(e.message));
  }
  redraw();
}

export function redraw() {
  if (!live.view) return;
  const final = live.finalHands && !live.finalHands.pending ? live.finalHands : null;
  draw(liveScene(live.view, { bots: live.bots, rules: live.rules, finalHands: final }));
  drawMyHand();
  drawControls();
  drawInvites();
}

function drawMyHand() {
  const mine = legal().length > 0 && live.view.observation.phase === "play";
  drawHand($("hand"), live.view.observation.hand, mine ? { selected: live.selected, focus: live.focus, toggle, key } : null);
}

function toggle(i) {
  if (live.selected.has(i)) live.selected.delete(i);
  else live.selected.add(i);
  live.focus = i;
  live.reading = null;
  $("choices").replaceChildren();
  drawMyHand();
  drawControls();
  focusCard();
}

function focusCard() {
  const card = $("hand").querySelector(`[data-index="${live.focus}"]`);
  if (card) card.focus();
}

function key(event, i) {
  const to = moved(event.key, i, handCards().length);
  if (to !== null) { event.preventDefault(); live.focus = to; drawMyHand(); focusCard(); return; }
  if (event.key === "Enter") { event.preventDefault(); play(); }
  else if (event.key === "h" || event.key === "H") { event.preventDefault(); hint(); }
  else if (event.key === "Escape") { event.preventDefault(); clear(); }
}

// ---- the controls -----------------------------------------------------------------------
function button(text, action, onclick, cls = "decision") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  if (action !== null) b.dataset.action = action;
  b.textContent = text;
  b.onclick = onclick;
  return b;
}

function drawControls() {
  const o = live.view.observation;
  const mine = legal();
  const playing = o.phase === "play" && mine.length > 0;
  const over = o.phase === "over";
  const decisions = playing ? mine.filter((a) => a === "pass") : mine;
  $("decisions").replaceChildren(...decisions.map((a) => button(actionWords(a, o.phase), a, () => act(a))));
  $("hint").hidden = $("play").hidden = $("clear").hidden = !playing;
  $("play").disabled = !playing || options().length === 0;
  $("hint").disabled = !playing || mine.every((a) => a === "pass");
  $("next").hidden = !over || live.seat === null || live.view.closed;
  const link = $("replay-link");
  link.hidden = !over;
  link.href = `/replay/${live.view.table}/${live.view.deal}`;
  $("waiting").textContent = !over && !mine.length ? t("turn-of", { name: o.to_act === live.seat ? t("you") : t("seat", { n: o.to_act + 1 }) }) : "";
}

// The legal plays the selected cards make: [label, action, extra] for each reading.
function options() {
  const cards = handCards();
  const picked = [...live.selected].sort((a, b) => a - b).map((i) => cards[i]);
  if (!picked.length) return [];
  const want = ranks(picked);
  const extra = { cards: picked.join("") };
  const out = [];
  for (const action of legal()) {
    if (action === "pass" || ranks(playOf(action).cards) !== want) continue;
    const readings = (live.view.readings || {})[action];
    const shown = action.includes("=") ? t("as-ranks", { ranks: cardsOf(action.split("=")[1]).map(rankText).join(" ") }) : null;
    if (readings) {
      for (const r of readings) out.push([[t("kind", r.kind), shown].filter(Boolean).join(", "), action, { ...extra, ...r }]);
    } else {
      out.push([shown || t("play"), action, extra]);
    }
  }
  if (live.reading) {
    const chosen = out.filter(([, a, r]) => a === live.reading.action && r.kind === live.reading.kind && r.rank === live.reading.rank);
    if (chosen.length === 1) return chosen;
  }
  return out;
}

function play() {
  if (!live.selected.size) { toast(t("pick-cards")); return; }
  const found = options();
  if (!found.length) { toast(t("not-legal")); return; }
  if (found.length === 1) { act(found[0][1], found[0][2]); return; }
  const choices = $("choices");
  choices.replaceChildren(...found.map(([text, action, extra]) => button(text, action, () => act(action, extra), "choice")));
  choices.prepend(Object.assign(document.createElement("span"), { textContent: t("which-reading") }));
}

// Select the next advised play (the server orders them with Rules.hint).
async function hint() {
  const o = live.view.observation;
  const version = live.view.version;
  if (!live.hints || live.hints.version !== version) {
    try {
      live.hints = await api("GET", `/tables/${live.id}/hints`, { token: live.token });
    } catch (e) { toast(e.message); return; }
    if (live.view.version !== version) return;
    live.hintAt = -1;
  }
  const list = live.hints.hints;
  if (!list.length) return;
  live.hintAt = (live.hintAt + 1) % list.length;
  const advice = list[live.hintAt];
  const cards = cardsOf(o.hand);
  live.selected.clear();
  for (const r of cardsOf(advice.cards).map((c) => c[0])) {
    const i = cards.findIndex((c, j) => c[0] === r && !live.selected.has(j));
    if (i >= 0) live.selected.add(i);
  }
  live.reading = advice;
  live.focus = Math.min(...live.selected);
  $("choices").replaceChildren();
  drawMyHand();
  drawControls();
}

function clear() {
  live.selected.clear();
  live.reading = null;
  $("choices").replaceChildren();
  drawMyHand();
  drawControls();
}

async function act(action, extra = {}) {
  toast("");
  try {
    show(await api("POST", `/tables/${live.id}/actions`, { body: { action, key: newKey(), ...extra }, token: live.token }));
  } catch (e) {
    toast(t("error-prefix", { message: e.message }));
  }
}

async function nextDeal() {
  try {
    show(await api("POST", `/tables/${live.id}/next`, { token: live.token }));
  } catch (e) {
    toast(t("error-prefix", { message: e.message }));
  }
}

// ---- invitations ------------------------------------------------------------------------
function drawInvites() {
  const box = $("invites");
  const held = heldSeat(live.id);
  const others = (held && held.others) || {};
  const rows = [];
  const row = (text, url, extra) => {
    const div = document.createElement("div");
    div.className = "invite";
    const p = document.createElement("p");
    p.textContent = text;
    const input = Object.assign(document.createElement("input"), { value: url, readOnly: true });
    const copy = button(t("copy"), null, async () => {
      input.select();
      try { await navigator.clipboard.writeText(url); copy.textContent = t("copied"); } catch (e) { document.execCommand("copy"); }
    }, "copy");
    div.append(p, input, copy, ...(extra ? [extra] : []));
    rows.push(div);
  };
  for (const [seat, token] of Object.entries(others)) {
    const s = Number(seat);
    const offer = button(t("offer-seat"), null, () => offerSeat(s, token, offer), "offer");
    row(t("invite-seat", { seat: t("seat", { n: s + 1 }) }), `${location.origin}/t/${live.id}#token=${token}`, offer);
  }
  if (!Object.keys(others).length) rows.push(Object.assign(document.createElement("p"), { textContent: t("no-invites") }));
  row(t("spectator-link"), `${location.origin}/t/${live.id}`);
  box.replaceChildren(...rows);
}

async function offerSeat(seat, token, b) {
  const offered = b.dataset.offered === "yes";
  try {
    await api(offered ? "DELETE" : "POST", `/tables/${live.id}/offers/${seat}`, { token });
    b.dataset.offered = offered ? "no" : "yes";
    b.textContent = offered ? t("offer-seat") : t("withdraw-seat");
  } catch (e) { toast(t("error-prefix", { message: e.message })); }
}

export function bindTable() {
  $("play").onclick = play;
  $("hint").onclick = hint;
  $("clear").onclick = clear;
  $("next").onclick = nextDeal;
}
