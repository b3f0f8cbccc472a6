// Roles and marks in words: the badges on the seats and the sentences in the
// middle, read generically from an observation's role fields through the
// schema words.js makes of the engine's declarations. Nothing here knows a
// preset.
"use strict";

import { cardFace, cardRow, cardsOf } from "./cards.js";
import { label, roleHelp, roleSchema, t } from "./words.js";

// The fields every observation has; every other field is a role.
export const COMMON_FIELDS = new Set(["seat", "preset", "phase", "to_act", "hand", "hand_sizes",
  "kitty", "seen_hands", "history", "to_beat", "events", "result", "legal_actions",
  // the result's own fields, read with the roles at the end of a deal
  "winners", "scores", "multiplier"]);

export const roleKeys = (fields) => Object.keys(fields).filter((k) => !COMMON_FIELDS.has(k));

function sentence(...parts) {
  const p = document.createElement("p");
  p.className = "fact";
  p.append(...parts);
  return p;
}

// A sentence with the role's tooltip (what it means), marked as having one.
function told(key, schema, p) {
  const help = roleHelp(key, schema.doc);
  if (help) { p.title = help; p.classList.add("has-help"); }
  return p;
}

// {badges: [[...], ...] per seat, facts: [<p>...]} for `fields` (an
// observation, with the result's fields merged in once it is over) as seat
// `me` (null: a spectator) knows them; `nameOf(seat)` names a seat.
export function readRoles(preset, fields, players, me, nameOf) {
  const badges = Array.from({ length: players }, () => []);
  const facts = [];
  const badge = (seat, key, text, card, tone = key, help = "") => {
    if (Number.isInteger(seat) && seat >= 0 && seat < players) badges[seat].push({ key, text, card, tone, help });
  };
  for (const key of roleKeys(fields)) {
    const value = fields[key];
    const schema = roleSchema(preset, key);
    if (value === null || value === undefined) continue;
    if (!schema) { console.warn("ddz: no schema for role", key); continue; }
    const name = schema.label ? label(schema.label) : "";
    const fact = (...parts) => facts.push(told(key, schema, sentence(...parts)));
    const help = roleHelp(key, schema.doc);
    switch (schema.type) {
      case "seat":
        badge(value, key, name, null, key, help);
        if (schema.others) for (let s = 0; s < players; s++) if (s !== value) badge(s, `${key}:others`, label(schema.others), null, "farmer");
        break;
      case "seats":
        for (const s of value) badge(s, key, name, null, key, help);
        break;
      case "seat_card":
        badge(value.seat, key, name, value.card, key, help);
        break;
      case "sides":
        for (const [side, seats] of Object.entries(value)) for (const s of seats) badge(s, key, label(schema.values[side]), null, `${key}-${side}`);
        break;
      case "word": {
        const word = label(schema.values[value]);
        facts.push(sentence(t("role-of", { label: name, value: word })));
        if (schema.self && me !== null) badge(me, key, word, null, value);
        break;
      }
      case "count":
        if (value === 0 && schema.hideZero) break; // "Bid: 0" before anyone bids says nothing
        fact(t("role-of", { label: name, value: String(value) }));
        break;
      case "flag": {
        const words = value ? schema.yes || schema.label : schema.no;
        if (words) facts.push(sentence(label(words)));
        break;
      }
      case "card":
        fact(t("role-of", { label: name, value: "" }), cardFace(value));
        break;
      case "cards":
        facts.push(sentence(t("role-of", { label: name, value: "" }), cardRow(cardsOf(value), { cls: "mini" })));
        break;
      case "claims":
        for (const [seat, cards] of value) {
          facts.push(sentence(t("grab-by", { name: nameOf(seat), label: name, cards: "" }), cardRow(cardsOf(cards), { cls: "mini" })));
        }
        break;
      case "seat_reason": {
        const seat = typeof value === "object" ? value.seat : null;
        const reason = t("win", typeof value === "object" ? value.reason : value);
        const who = seat === null ? "" : nameOf(seat);
        facts.push(sentence(t("win-by", { name: who, label: name, reason }).trim()));
        break;
      }
      case "alias":
        break;
      default:
        console.warn("ddz: no way to show a role of type", schema.type);
    }
  }
  return { badges: badges.map(tidy(preset)), facts };
}

// A seat's badges less the ones another of its badges makes redundant, and
// the opponents' badge ("farmer") where the seat has a role of its own.
const tidy = (preset) => (list) => {
  const covered = new Set();
  for (const b of list) for (const k of (roleSchema(preset, b.key) || {}).sub || []) covered.add(k);
  const own = list.some((b) => !b.key.endsWith(":others"));
  const seen = new Set();
  return list.filter((b) => {
    if (covered.has(b.key) || (own && b.key.endsWith(":others"))) return false;
    const id = b.text + (b.card || "");
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
};

export function badgeEl({ text, card, tone, help }) {
  const b = document.createElement("span");
  b.className = `badge ${tone.replace(/[^a-z]+/g, "-")}`;
  b.textContent = text;
  if (help) b.title = help;
  if (card) b.append(cardFace(card));
  return b;
}
