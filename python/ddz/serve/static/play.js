// The live table: a seat's (or a spectator's) view as pushes bring it, the
// hand to pick from, and every decision as buttons. The server is the
// authority: the page sends what was clicked and shows the views it gets.
"use strict";

import { cardsOf, playOf, rankText } from "./cards.js";
import { announce } from "./effects.js";
import { drawHand, moved } from "./hand.js";
import { loadRuleWords } from "./rulewords.js";
import { api, forgetSeat, heldSeat, newKey, subscribe } from "./net.js";
import { $, draw, tickClock } from "./render.js";
import { isPlay, liveScene } from "./scene.js";
import { actionWords, declareRoles, t } from "./words.js";

export const live = {
  id: null, token: null, seat: null, view: null, bots: {}, rules: null, finalHands: null,
  selected: new Set(), focus: 0, hints: null, hintAt: -1, reading: null, feed: null,
  fresh: 0, clock: null, passTimer: null, mine: {},
};

// A forced pass (nothing can beat the play) is sent by itself when the seat
// asks for it (a toggle kept in this browser), after this pause so it is seen.
const AUTO_PASS_MS = 600;
export const autoPassOn = () => localStorage.getItem("ddz-auto-pass") === "on";

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
export async function openTable(tableId, { watch = false } = {}) {
  closeTable();
  const held = watch ? null : heldSeat(tableId);
  Object.assign(live, { id: tableId, token: held && held.token, seat: held ? held.seat : null, view: null, finalHands: null, mine: {} });
  document.body.dataset.page = "table";
  try {
    const [summary, rules, roles] = await Promise.all([api("GET", `/tables/${tableId}`),
      api("GET", `/tables/${tableId}/rules`), api("GET", `/tables/${tableId}/roles`)]);
    declareRoles(summary.preset, roles);
    live.bots = Object.fromEntries(Object.entries(summary.bots).map(([s, k]) => [Number(s), k]));
    live.rules = rules;
    live.room = summary.room || {};
    await loadRuleWords().catch(() => null); // for the result's words on the stake
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
  const before = live.view;
  // The same view again (the reply and its push): nothing to draw, and the
  // hand and buttons stay the elements a player may be pressing.
  const room = (v) => JSON.stringify([v.table, v.closed, v.clock, v.autoplay, v.counter]);
  if (!fresh && room(before) === room(view)) return;
  live.view = view;
  if (fresh) {
    // What happened since the last view: animated, announced, heard.
    const same = before && before.table === view.table && before.deal === view.deal;
    const was = same ? before.observation.history.length : view.observation.history.length;
    live.fresh = Math.max(0, view.observation.history.length - was);
    if (same) announce(before, view, live.seat);
    // The clock's deadline on this machine's clock: the server's, unless the
    // two clocks disagree by more than the turn itself (then from now).
    const c = view.clock;
    if (c) {
      const local = Math.abs(c.deadline_ms - Date.now()) > c.seconds * 1000 + 2000 ? Date.now() + c.seconds * 1000 : c.deadline_ms;
      live.clock = { ...c, local };
    } else live.clock = null;
  }
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
  draw(liveScene(live.view, { bots: live.bots, rules: live.rules, finalHands: final, fresh: live.fresh, clock: live.clock,
    mine: live.mine[live.view.deal] || {} }));
  live.fresh = 0; // animate a play once, not again on a resize or a language change
  drawMyHand();
  drawControls();
  drawInvites();
}

// The clock counts down between pushes.
setInterval(() => { for (const c of document.querySelectorAll(".clock[data-deadline]")) tickClock(c); }, 250);

function drawMyHand() {
  const o = live.view.observation;
  const mine = legal().length > 0 && o.phase === "play";
  // The kitty's cards are marked while the hand that took them is whole.
  const kittySize = o.kitty ? cardsOf(o.kitty).length : 0;
  const whole = live.rules && o.kitty && cardsOf(o.hand || "").length === live.rules.hand_size + kittySize;
  drawHand($("hand"), o.hand, mine ? { selected: live.selected, focus: live.focus, toggle, range, key } : null, whole ? o.kitty : null);
}

function toggle(i) {
  range(i, i, !live.selected.has(i));
  focusCard();
}

// Cards from..to (either order) selected (`on`) or not, as a drag leaves them.
function range(from, to, on) {
  for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
    if (on) live.selected.add(i);
    else live.selected.delete(i);
  }
  live.focus = to;
  live.reading = null;
  $("choices").replaceChildren();
  drawMyHand();
  drawControls();
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
  // Nothing can beat the play: the pass is the only choice, said so at once.
  const forced = playing && mine.every((a) => a === "pass");
  const decisions = playing ? mine.filter((a) => a === "pass") : mine;
  // The same buttons stay (a push of the same view must not swap them under a click).
  const label = (a) => (forced ? t("cant-beat") : actionWords(a, o.phase));
  const key = JSON.stringify([live.view.version, decisions.map(label)]);
  if ($("decisions").dataset.key !== key) {
    $("decisions").dataset.key = key;
    $("decisions").replaceChildren(...decisions.map((a) => {
      const b = button(label(a), a, () => act(a));
      if (forced) b.classList.add("main", "forced");
      return b;
    }));
  }
  $("hint").hidden = $("play").hidden = $("clear").hidden = !playing || forced;
  if ((live.room || {}).hints === "off") $("hint").hidden = true;
  $("play").disabled = !playing || options().length === 0;
  $("hint").disabled = !playing || mine.every((a) => a === "pass");
  $("next").hidden = !over || live.seat === null || live.view.closed;
  const link = $("replay-link");
  link.hidden = !over;
  link.href = `/replay/${live.view.table}/${live.view.deal}`;
  const waitingFor = o.to_act === live.seat ? t("you") : t("seat", { n: o.to_act + 1 });
  $("waiting").textContent = !over && !mine.length ? t("turn-of", { name: waitingFor }) : "";
  $("why").textContent = playing && !forced ? whyNot() : "";
  drawSeatTools(over);
  clearTimeout(live.passTimer);
  if (forced && autoPassOn()) {
    const version = live.view.version;
    live.passTimer = setTimeout(() => { if (live.view.version === version) act("pass"); }, AUTO_PASS_MS);
  }
}

// The seat's own switches: 托管 (the server's) and the forced pass (this browser's).
function drawSeatTools(over) {
  const seated = live.seat !== null && !over && !live.view.closed;
  const auto = $("autoplay");
  const known = Array.isArray(live.view.autoplay);
  auto.hidden = !seated || !known;
  const on = known && live.view.autoplay.includes(live.seat);
  auto.setAttribute("aria-pressed", String(on));
  auto.textContent = on ? t("autoplay-cancel") : t("autoplay");
  auto.title = t("autoplay-help");
  const pass = $("auto-pass");
  pass.hidden = !seated;
  pass.setAttribute("aria-pressed", String(autoPassOn()));
}

async function setAutoplay() {
  const on = live.view.autoplay && live.view.autoplay.includes(live.seat);
  try {
    const got = await api("POST", `/tables/${live.id}/autoplay`, { body: { on: !on }, token: live.token });
    if (got && got.observation) show(got);
  } catch (e) { toast(t("error-prefix", { message: e.message })); }
}

// Why the selected cards cannot be played now, in words ("" when they can,
// or when nothing is selected).
function whyNot() {
  if (!live.selected.size || options().length) return "";
  const cards = handCards();
  const picked = [...live.selected].sort((a, b) => a - b).map((i) => rankText(cards[i][0])).join(" ");
  const o = live.view.observation;
  if (!o.to_beat) return t("why-not-kind", { cards: picked });
  const beat = playOf(o.to_beat).cards.map((c) => rankText(c[0])).join(" ");
  const sameSize = cardsOf(o.to_beat.split("=")[0]).length === live.selected.size;
  return t(sameSize ? "why-not-beat" : "why-not-kind-follow", { cards: picked, beat });
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
  if (!found.length) { toast(whyNot() || t("not-legal")); return; }
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
  // A search hint says how often the search expects the seat's side to win after it.
  if (advice.wp != null) toast(t("hint-wp", { pct: Math.round(advice.wp * 100) }));
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
  // The physical cards of this seat's own play, to draw its suits (the
  // history the server sends holds ranks only): {deal: {history index: cards}}.
  const picked = [...live.selected].sort((a, b) => a - b).map((i) => handCards()[i]).join("");
  const at = live.view.observation.history.length;
  const deal = live.view.deal;
  try {
    const view = await api("POST", `/tables/${live.id}/actions`, { body: { action, key: newKey(), ...extra }, token: live.token });
    const entry = view.observation.history[at];
    const kept = picked && isPlay(action) && entry && entry[0] === live.seat && entry[1] === action;
    if (kept) live.mine[deal] = { ...(live.mine[deal] || {}), [at]: picked };
    show(view);
    if (kept && live.view.version === view.version) redraw(); // its push may have come first
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
  $("autoplay").onclick = setAutoplay;
  $("auto-pass").onclick = () => {
    localStorage.setItem("ddz-auto-pass", autoPassOn() ? "off" : "on");
    if (live.view) drawControls();
  };
  $("play").onclick = play;
  $("hint").onclick = hint;
  $("clear").onclick = clear;
  $("next").onclick = nextDeal;
}
