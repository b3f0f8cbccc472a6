// The lobby: a new table (preset, bots, seats for people, the turn clock,
// the bots' pace, the card counter), the tables in three lists (open: seats
// to take; being played: to watch; finished), and a record file to replay.
"use strict";

import { api, currentTable, heldSeat, holdSeat } from "./net.js";
import { $ } from "./render.js";
import { t } from "./words.js";

const lobby = { presets: [], bots: [], tables: [], onError: console.error };

function option(value, text, data = {}) {
  const o = new Option(text, value);
  Object.assign(o.dataset, data);
  return o;
}

export async function loadLobby() {
  const [presets, bots, tables] = await Promise.all([api("GET", "/presets"), api("GET", "/bots"), api("GET", "/lobby")]);
  Object.assign(lobby, { presets, bots: bots.bots, tables: tables.tables });
  drawLobby();
}

// Fill the form (keeping what was chosen) and the list of tables, in the current language.
export function drawLobby() {
  const keep = { preset: $("preset").value, bots: $("bots").value, seat: $("seat").value, people: $("people").value };
  $("preset").replaceChildren(...lobby.presets.map((p) => option(p.name, t("preset", p.name), { players: p.players })));
  if (keep.preset) $("preset").value = keep.preset;
  $("bots").replaceChildren(...lobby.bots.map((k) => option(k, t("bot", k))));
  if (keep.bots) $("bots").value = keep.bots;
  seatChoices(keep);
  const resume = currentTable();
  $("resume").hidden = !resume || !heldSeat(resume);
  $("resume").href = resume ? `/t/${resume}` : "/";
  drawTables();
}

// A table's list: the server's status when it sends one ("open", "playing",
// "finished"), else open until its deal is over.
const statusOf = (table) => table.status || (table.closed || table.phase === "over" ? "finished" : "open");

function drawTables() {
  const lists = { open: [], playing: [], finished: [] };
  for (const table of lobby.tables) (lists[statusOf(table)] || lists.open).push(tableRow(table));
  $("open-tables").replaceChildren(...lists.open);
  $("playing-tables").replaceChildren(...lists.playing);
  $("finished-tables").replaceChildren(...lists.finished);
  $("no-tables").hidden = lists.open.length > 0;
  for (const [name, id] of [["playing", "playing-tables"], ["finished", "finished-tables"]]) {
    $(id).hidden = $(id).previousElementSibling.hidden = !lists[name].length;
  }
}

// The open tables again (the form is left as it is, mid-choice or not).
export async function refreshTables() {
  lobby.tables = (await api("GET", "/lobby")).tables;
  drawTables();
}

function players() {
  const chosen = $("preset").selectedOptions[0];
  return chosen ? Number(chosen.dataset.players) : 3;
}

function seatChoices(keep = {}) {
  const n = players();
  $("seat").replaceChildren(...Array.from({ length: n }, (_, s) => option(String(s), t("seat", { n: s + 1 }))));
  $("people").replaceChildren(...Array.from({ length: n }, (_, k) => option(String(k + 1), String(k + 1))));
  if (keep.seat && Number(keep.seat) < n) $("seat").value = keep.seat;
  if (keep.people && Number(keep.people) <= n) $("people").value = keep.people;
}

function tableRow(table) {
  const li = document.createElement("li");
  const head = document.createElement("div");
  head.className = "table-head";
  head.append(Object.assign(document.createElement("b"), { textContent: t("preset", table.preset) }),
    ` · ${t("deal", { n: table.deal + 1 })} · ${t("phase", table.phase)} `,
    // Watching opens the spectators' view, even in a browser holding a seat there.
    Object.assign(document.createElement("a"), { href: `/t/${table.id}?watch`, textContent: t("watch"), className: "watch" }));
  const seats = document.createElement("div");
  seats.className = "lobby-seats";
  for (const s of table.seats) {
    const span = document.createElement("span");
    span.className = "lobby-seat";
    const name = t("seat", { n: s.seat + 1 });
    if (s.bot) span.textContent = `${name}: ${t("bot", s.bot)}`;
    else if (s.offered) {
      span.textContent = `${name}: ${t("seat-free")} `;
      const take = Object.assign(document.createElement("button"), { type: "button", textContent: t("take"), className: "take" });
      take.onclick = () => takeSeat(table.id, s.seat).catch(lobby.onError);
      span.append(take);
    } else span.textContent = `${name}: ${s.connected ? t("seat-taken") : t("seat-waiting")}`;
    seats.append(span);
  }
  li.append(head, seats);
  return li;
}

async function takeSeat(tableId, seat) {
  const got = await api("POST", `/tables/${tableId}/offers/${seat}/take`);
  holdSeat(tableId, got.seat, got.token);
  location.assign(`/t/${tableId}`);
}

async function newTable(event) {
  event.preventDefault();
  const n = players();
  const seat = Number($("seat").value);
  const people = Number($("people").value);
  const humans = new Set(Array.from({ length: people }, (_, k) => (seat + k) % n));
  const bots = {};
  for (let s = 0; s < n; s++) if (!humans.has(s)) bots[s] = $("bots").value;
  const body = {
    preset: $("preset").value, bots,
    turn_seconds: Number($("clock-seconds").value),
    bot_delay_ms: Number($("pace").value),
    card_counter: $("counter-choice").checked,
  };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const made = await api("POST", "/tables", { body });
  const others = Object.fromEntries(Object.entries(made.tokens).filter(([s]) => Number(s) !== seat));
  holdSeat(made.id, seat, made.tokens[seat], others);
  return made.id;
}

export function bindLobby(onCreated, onRecord, onError) {
  lobby.onError = onError;
  $("preset").onchange = () => seatChoices();
  $("setup").onsubmit = (e) => newTable(e).then(onCreated, onError);
  const drop = $("drop");
  const read = (file) => file && file.text().then(onRecord, onError);
  drop.ondragover = (e) => { e.preventDefault(); drop.classList.add("over"); };
  drop.ondragleave = () => drop.classList.remove("over");
  drop.ondrop = (e) => { e.preventDefault(); drop.classList.remove("over"); read(e.dataTransfer.files[0]); };
  $("record-file").onchange = (e) => read(e.target.files[0]);
}
