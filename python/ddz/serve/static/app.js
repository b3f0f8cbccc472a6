// The browser table: one seat against the server's bots. Plain JS, no build
// step, nothing loaded from other hosts. The server is authoritative: this
// page only shows the views it is sent and posts the actions clicked.
"use strict";

const SUITS = { d: ["♦", true], c: ["♣", false], h: ["♥", true], s: ["♠", false] };
const JOKERS = { X: "🃏x", D: "🃏D", L: "L" };
const STANDARD = new Set(["seat", "preset", "phase", "to_act", "hand", "hand_sizes", "kitty",
  "seen_hands", "history", "to_beat", "events", "result", "legal_actions"]);

const $ = (id) => document.getElementById(id);
const state = { id: null, token: null, seat: 0, ws: null, view: null, selected: new Set(), bots: {} };
window.ddz = state; // for the page's tests, and for the curious

// ---- cards --------------------------------------------------------------------
// "9h9d5sX" -> ["9h", "9d", "5s", "X"]: a rank, then a suit letter if it has one.
function cardsOf(text) {
  const out = [];
  for (let i = 0; i < text.length; i++) {
    let c = text[i];
    if (i + 1 < text.length && "dchs".includes(text[i + 1])) c += text[++i];
    out.push(c);
  }
  return out;
}
const ranksOf = (cards) => cards.map((c) => c[0]).sort().join("");
function label(card) {
  if (JOKERS[card]) return [JOKERS[card], card === "D"];
  const rank = card[0] === "T" ? "10" : card[0];
  const [suit, red] = card[1] ? SUITS[card[1]] : ["", false];
  return [rank + suit, red];
}
const playCards = (action) => action.split("=")[0]; // "5678L=45678" -> "5678L"

// ---- talking to the server ---------------------------------------------------------
async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (state.token) headers.Authorization = "Bearer " + state.token;
  const reply = await fetch(path, { method, headers, body: body && JSON.stringify(body) });
  const data = await reply.json();
  if (!reply.ok) throw new Error(data.error || reply.statusText);
  return data;
}
const newKey = () => (crypto.randomUUID ? crypto.randomUUID() : Date.now() + "-" + Math.random());

async function act(action, extra = {}) {
  $("message").textContent = "";
  try {
    show(await api("POST", `/tables/${state.id}/actions`, { action, key: newKey(), ...extra }));
  } catch (e) {
    $("message").textContent = e.message;
  }
}

function connect() {
  if (state.ws) state.ws.close();
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/tables/${state.id}/ws`);
  state.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({ token: state.token }));
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "view") show(msg);
    else if (msg.type === "error") { $("message").textContent = msg.error; forget(); }
  };
  ws.onclose = () => {
    // Reconnect: the server sends the current view again.
    if (state.ws === ws && state.view && !state.view.closed) setTimeout(connect, 1000);
  };
}

function remember() {
  localStorage.setItem("ddz-table", JSON.stringify({ id: state.id, token: state.token, seat: state.seat, bots: state.bots }));
}
function forget() {
  localStorage.removeItem("ddz-table");
  state.id = state.token = state.view = null;
  if (state.ws) { const ws = state.ws; state.ws = null; ws.close(); }
  $("table").hidden = true;
}

async function newTable(event) {
  event.preventDefault();
  const preset = $("preset").value;
  const players = Number($("preset").selectedOptions[0].dataset.players);
  const seat = Number($("seat").value);
  const bots = {};
  for (let s = 0; s < players; s++) if (s !== seat) bots[s] = $("bot-kind").value;
  const body = { preset, bots };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  try {
    forget();
    const made = await api("POST", "/tables", body);
    Object.assign(state, { id: made.id, token: made.tokens[seat], seat, bots, view: null });
    remember();
    connect();
  } catch (e) {
    $("message").textContent = e.message;
    $("table").hidden = false;
  }
}

// ---- showing a view -----------------------------------------------------------------
function show(view) {
  if (state.view && view.version < state.view.version) return; // an older push
  const fresh = !state.view || view.version !== state.view.version;
  state.view = view;
  if (fresh) state.selected.clear();
  $("table").hidden = false;
  const o = view.observation;
  const mine = o.legal_actions !== undefined;
  $("phase").textContent = `${o.preset} · deal ${view.deal + 1} · ${o.phase}`;
  $("turn").textContent = o.phase === "over" ? "" : mine ? "your turn" : `seat ${o.to_act} to act`;
  $("turn").className = mine ? "yours" : "";
  $("table-id").textContent = `table ${view.table}, you are seat ${view.seat}`;
  showSeats(o);
  $("trick").textContent = o.to_beat ? `to beat: ${o.to_beat} (seat ${lastPlayer(o)})` : o.phase === "play" ? "a new trick: lead" : "";
  showInfo(o);
  showHand(o);
  showControls(o);
  showResult(view);
  $("history").replaceChildren(...o.history.slice().reverse().slice(0, 40).map(([s, a]) => {
    const li = document.createElement("li");
    li.textContent = `seat ${s}: ${a}`;
    return li;
  }));
}

function lastPlayer(o) {
  for (let i = o.history.length - 1; i >= 0; i--) if (o.history[i][1] !== "pass") return o.history[i][0];
  return "?";
}

function showSeats(o) {
  const boxes = o.hand_sizes.map((n, s) => {
    const div = document.createElement("div");
    div.className = "seat" + (s === o.to_act && o.phase !== "over" ? " to-act" : "");
    div.dataset.seat = s;
    const last = [...o.history].reverse().find(([who]) => who === s);
    const who = s === state.seat ? "you" : state.bots[s] ? `bot (${state.bots[s]})` : "player";
    const role = o.landlord === s ? " · landlord" : "";
    div.innerHTML = `<div><b>seat ${s}</b> ${who}${role}</div><div>${n} cards left</div>`;
    const line = document.createElement("div");
    line.className = "last";
    line.textContent = last ? last[1] : "";
    div.append(line);
    return div;
  });
  $("seats").replaceChildren(...boxes);
}

function multiplier(o) {
  if (o.result) return o.result.multiplier;
  let m = 1;
  for (const [, effect] of o.events) {
    if (typeof effect === "number") m *= effect;
    else if (typeof effect === "string" && effect.startsWith("+")) m += Number(effect.slice(1));
  }
  return m;
}

function showInfo(o) {
  $("multiplier").textContent = multiplier(o);
  $("events").textContent = o.events.length ? "(" + o.events.map(([n, e]) => `${n} ${e}`).join(", ") + ")" : "";
  $("kitty").textContent = o.kitty ? `kitty: ${o.kitty}` : "";
  // Roles and marks: whatever the preset's flow tells this seat.
  $("roles").replaceChildren(...Object.entries(o).filter(([k, v]) => !STANDARD.has(k) && v !== null).map(([k, v]) => {
    const div = document.createElement("div");
    div.className = "role";
    div.textContent = `${k.replace(/_/g, " ")}: ${typeof v === "object" ? JSON.stringify(v) : v}`;
    return div;
  }));
  $("shown").textContent = Object.entries(o.seen_hands).map(([s, h]) => `seat ${s} shows ${h}`).join("; ");
}

function showHand(o) {
  const cards = cardsOf(o.hand);
  $("hand").replaceChildren(...cards.map((card, i) => {
    const [text, red] = label(card);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "card" + (red ? " red" : "") + (state.selected.has(i) ? " selected" : "");
    b.dataset.card = card;
    b.dataset.index = i;
    b.textContent = text;
    b.onclick = () => {
      state.selected.has(i) ? state.selected.delete(i) : state.selected.add(i);
      b.classList.toggle("selected");
      $("choices").replaceChildren();
    };
    return b;
  }));
}

function legal() { return (state.view && state.view.observation.legal_actions) || []; }

function showControls(o) {
  const mine = legal();
  const playing = o.phase === "play" && mine.length > 0;
  $("play").disabled = !playing;
  $("hint").disabled = !playing || mine.every((a) => a === "pass");
  $("choices").replaceChildren();
  const decisions = playing ? mine.filter((a) => a === "pass") : mine;
  $("decisions").replaceChildren(...decisions.map((a) => button(a, "decision", () => act(a))));
}

function button(text, cls, onclick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.dataset.action = text;
  b.textContent = text;
  b.onclick = onclick;
  return b;
}

function selectedCards() {
  const cards = cardsOf(state.view.observation.hand);
  return [...state.selected].sort((a, b) => a - b).map((i) => cards[i]);
}

// Play the selected cards: the legal plays with the same ranks, and the
// readings of one text, are offered as buttons when there is more than one.
function play() {
  const picked = selectedCards();
  if (!picked.length) { $("message").textContent = "select the cards to play first"; return; }
  const ranks = ranksOf(picked);
  const fits = legal().filter((a) => a !== "pass" && ranksOf(cardsOf(playCards(a))) === ranks);
  const extra = { cards: picked.join("") };
  const options = [];
  for (const a of fits) {
    const readings = (state.view.readings || {})[a];
    if (readings) for (const r of readings) options.push([`${a} (${r.kind} ${r.rank})`, a, { ...extra, ...r }]);
    else options.push([a, a, extra]);
  }
  if (!options.length) { $("message").textContent = `${picked.join(" ")} is not a legal play now`; return; }
  if (options.length === 1) { act(options[0][1], options[0][2]); return; }
  $("choices").replaceChildren(...options.map(([text, a, ex]) => button(text, "choice", () => act(a, ex))));
}

// Select the cards of the suggested play (the first legal play: smallest first).
function hint() {
  const first = legal().find((a) => a !== "pass");
  if (!first) return;
  const cards = cardsOf(state.view.observation.hand);
  state.selected.clear();
  for (const r of cardsOf(playCards(first)).map((c) => c[0])) {
    const i = cards.findIndex((c, j) => c[0] === r && !state.selected.has(j));
    if (i >= 0) state.selected.add(i);
  }
  showHand(state.view.observation);
}

function showResult(view) {
  const o = view.observation;
  $("result").hidden = !o.result;
  if (!o.result) return;
  const won = o.result.winners.includes(view.seat);
  $("outcome").textContent = won ? "You win" : "You lose";
  const rows = [["", ...o.hand_sizes.map((_, s) => `seat ${s}`)],
    ["this deal", ...o.result.scores], ["running total", ...view.scores]];
  $("scores").replaceChildren(...rows.map((row, i) => {
    const tr = document.createElement("tr");
    for (const cell of row) {
      const td = document.createElement(i ? "td" : "th");
      td.textContent = cell;
      tr.append(td);
    }
    return tr;
  }));
}

// ---- start ------------------------------------------------------------------------------
async function start() {
  const presets = await api("GET", "/presets");
  $("preset").replaceChildren(...presets.map((p) => {
    const opt = document.createElement("option");
    opt.value = p.name;
    opt.textContent = p.name;
    opt.dataset.players = p.players;
    return opt;
  }));
  const seats = () => {
    const n = Number($("preset").selectedOptions[0].dataset.players);
    $("seat").replaceChildren(...Array.from({ length: n }, (_, s) => new Option(String(s), String(s))));
  };
  $("preset").onchange = seats;
  seats();
  $("setup").onsubmit = newTable;
  $("play").onclick = play;
  $("hint").onclick = hint;
  $("clear").onclick = () => { state.selected.clear(); showHand(state.view.observation); };
  $("next").onclick = async () => {
    try { show(await api("POST", `/tables/${state.id}/next`)); } catch (e) { $("message").textContent = e.message; }
  };
  $("leave").onclick = async () => {
    try { await api("POST", `/tables/${state.id}/close`); } catch (e) { /* already closed */ }
    forget();
  };
  const saved = JSON.parse(localStorage.getItem("ddz-table") || "null");
  if (saved) { Object.assign(state, saved); connect(); }
}
start();
