// Talking to the server (same host only), and the seats this browser holds.
"use strict";

export class Refusal extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function api(method, path, { body, token, raw } = {}) {
  const headers = {};
  if (body !== undefined || raw !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const reply = await fetch(path, { method, headers, body: raw !== undefined ? raw : body && JSON.stringify(body) });
  const data = await reply.json().catch(() => ({}));
  if (!reply.ok) throw new Refusal(reply.status, data.error || reply.statusText);
  return data;
}

export const newKey = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

// A table's pushes: `onView` for each view, `onError` for a refusal. The
// server sends the current view on every (re)connection.
export function subscribe(tableId, token, onView, onError) {
  let ws = null;
  let stopped = false;
  const open = () => {
    ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/tables/${tableId}/ws`);
    ws.onopen = () => ws.send(JSON.stringify(token ? { token } : { spectator: true }));
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === "view") onView(msg);
      else if (msg.type === "error") { stopped = true; onError(msg.error); }
    };
    ws.onclose = (event) => {
      if (stopped) return;
      // 4000 and up: the server refused (4000 + the HTTP status): trying again would not help.
      if (event.code >= 4000) { stopped = true; onError(event.reason || String(event.code)); return; }
      setTimeout(() => !stopped && open(), 1000);
    };
  };
  open();
  return {
    stop() { stopped = true; if (ws) ws.close(); },
    closed() { stopped = true; },
  };
}

// Seats this browser holds: {tableId: {seat, token, others: {seat: token}}}.
const SEATS = "ddz-seats";
const read = () => JSON.parse(localStorage.getItem(SEATS) || "{}");

export const heldSeat = (tableId) => read()[tableId] || null;

export function holdSeat(tableId, seat, token, others = {}) {
  const all = read();
  all[tableId] = { seat, token, others: { ...((all[tableId] || {}).others || {}), ...others } };
  localStorage.setItem(SEATS, JSON.stringify(all));
  localStorage.setItem("ddz-current", tableId);
}

export function forgetSeat(tableId) {
  const all = read();
  delete all[tableId];
  localStorage.setItem(SEATS, JSON.stringify(all));
  if (localStorage.getItem("ddz-current") === tableId) localStorage.removeItem("ddz-current");
}

export const currentTable = () => localStorage.getItem("ddz-current");
