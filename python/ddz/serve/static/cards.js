// Cards as the page draws them: inline SVG suits and jokers, no font glyphs.
// Card text is the engine's: a rank (3-9 T J Q K A 2), a suit letter after
// it when it has one (d c h s), jokers X (small) and D (big), laizi L.
"use strict";

import { t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const SUIT_PATHS = {
  h: "M10 18C4.5 13.5 1 10.2 1 6.6A4.6 4.6 0 0 1 10 4.6a4.6 4.6 0 0 1 9 2C19 10.2 15.5 13.5 10 18z",
  d: "M10 1l7.5 9-7.5 9-7.5-9z",
  s: "M10 1C7 5.2 1.5 8.4 1.5 12.3a4 4 0 0 0 7.3 2.2L7.5 19h5l-1.3-4.5a4 4 0 0 0 7.3-2.2C18.5 8.4 13 5.2 10 1z",
  c: "M10 1.5a4.1 4.1 0 0 0-3.1 6.8A4.1 4.1 0 1 0 8.8 14L7.5 19h5l-1.3-5a4.1 4.1 0 1 0 1.9-5.7A4.1 4.1 0 0 0 10 1.5z",
};
const STAR = "M10 1l2.6 5.9 6.4.6-4.9 4.2 1.5 6.3L10 14.7 4.4 18l1.5-6.3L1 7.5l6.4-.6z";
const BURST = "M10 0l2 6 6-2-4 5 6 3-6 1 2 6-6-4-6 4 2-6-6-1 6-3-4-5 6 2z";
const RED = new Set(["h", "d"]);

// "9h9d5sX" -> ["9h", "9d", "5s", "X"]
export function cardsOf(text) {
  const out = [];
  for (const c of text || "") {
    if ("dchs".includes(c) && out.length) out[out.length - 1] += c;
    else out.push(c);
  }
  return out;
}

// A play's text: "5678L=45678" -> the cards played, and for each wild card the
// rank it stood for (the ranks of the reading the cards themselves lack).
export function playOf(text) {
  const [played, reading] = text.split("=");
  const cards = cardsOf(played);
  if (!reading) return { cards, stands: [] };
  const left = cardsOf(reading).map((c) => c[0]);
  for (const c of cards) {
    const i = c[0] === "L" ? -1 : left.indexOf(c[0]);
    if (i >= 0) left.splice(i, 1);
  }
  return { cards, stands: left };
}

export const rankText = (rank) => (rank === "T" ? "10" : rank);

function svg(path, cls) {
  const el = document.createElementNS(SVG, "svg");
  el.setAttribute("viewBox", "0 0 20 20");
  el.setAttribute("class", cls);
  el.setAttribute("aria-hidden", "true");
  const p = document.createElementNS(SVG, "path");
  p.setAttribute("d", path);
  el.append(p);
  return el;
}

function cardName(card, stands) {
  if (card === "X") return t("small-joker");
  if (card === "D") return t("big-joker");
  if (card === "L") return stands ? t("stands-for", { rank: rankText(stands) }) : t("wild");
  return card[1] ? `${rankText(card[0])} ${t(`suit_${card[1]}`)}` : rankText(card[0]);
}

// One card face. `stands`: the rank a played wild card stood for. The
// corner (rank over suit, or a joker's label read downwards) is the part a
// neighbour never covers: rows overlap by at most CORNER of a card's width.
export function cardFace(card, { tag = "span", stands = null } = {}) {
  const el = document.createElement(tag);
  el.className = "card";
  el.dataset.card = card;
  el.title = cardName(card, stands);
  el.setAttribute("aria-label", el.title);
  const corner = document.createElement("span");
  corner.className = "corner";
  const rank = document.createElement("span");
  rank.className = "rank";
  let mark;
  if (card === "X" || card === "D") {
    el.classList.add("joker", card === "D" ? "big" : "small");
    rank.textContent = t(card === "D" ? "big-joker-mark" : "small-joker-mark");
    rank.classList.add("joker-word");
    mark = STAR;
  } else if (card === "L") {
    el.classList.add("wild");
    mark = BURST;
    rank.textContent = stands ? rankText(stands) : t("wild-mark");
  } else {
    rank.textContent = rankText(card[0]);
    if (card[0] === "T") rank.classList.add("ten");
    if (card[1]) {
      mark = SUIT_PATHS[card[1]];
      if (RED.has(card[1])) el.classList.add("red");
    }
  }
  corner.append(rank);
  if (mark && !el.classList.contains("joker")) corner.append(svg(mark, "pip"));
  el.append(corner);
  if (mark) el.append(svg(mark, "face"));
  else {
    // A play as the history tells it has ranks only (no suit was sent): the
    // rank again in the middle, in full ink, where a suit would be.
    el.classList.add("plain");
    const big = document.createElement("span");
    big.className = "big-rank";
    big.textContent = rank.textContent;
    el.append(big);
  }
  return el;
}

// Cards side by side, overlapping; wild cards take the ranks they stood for
// in order. `from` marks the cards that came from the kitty (a multiset of
// card texts, used up as they are matched).
export function cardRow(cards, { cls = "", stands = [], from = null } = {}) {
  const row = document.createElement("span");
  row.className = `cards ${cls}`.trim();
  const kitty = from ? [...from] : [];
  let wild = 0;
  for (const c of cards) {
    const face = cardFace(c, { stands: c === "L" ? stands[wild++] || null : null });
    const k = kitty.indexOf(c);
    if (k >= 0) { kitty.splice(k, 1); markKitty(face); }
    row.append(face);
  }
  return row;
}

// A card that joined the landlord's hand from the kitty.
export function markKitty(face) {
  face.classList.add("from-kitty");
  face.title = `${face.title} · ${t("from-kitty")}`;
}

// A play's cards: `suited` (when known: the physical cards played) replaces
// the rank-only text, keeping the reading's wild ranks.
export const playRow = (text, cls, suited = null) => {
  const { cards, stands } = playOf(text);
  return cardRow(suited ? withSuits(cards, cardsOf(suited)) : cards, { cls, stands });
};

// A rank-only play's cards in its own order, each given the suit of a
// physical card of that rank (jokers and wild cards stay as they are).
export function withSuits(cards, physical) {
  const left = [...physical];
  return cards.map((c) => {
    if (c.length > 1 || !"3456789TJQKA2".includes(c)) return c;
    const k = left.findIndex((p) => p[0] === c && p.length > 1);
    return k < 0 ? c : left.splice(k, 1)[0];
  });
}

// Face-down cards: a fan of backs (at most `shown` of them) and the count.
export function backs(count, shown = 8) {
  const fan = document.createElement("span");
  fan.className = "backs";
  for (let i = 0; i < Math.min(count, shown); i++) {
    const b = document.createElement("span");
    b.className = "back";
    fan.append(b);
  }
  return fan;
}

// The count of cards left, as a number, with its words for tooltips and readers.
export function countBadge(count) {
  const n = document.createElement("span");
  n.className = "count";
  n.textContent = String(count);
  n.title = count === 1 ? t("card-left") : t("cards-left", { n: count });
  n.setAttribute("aria-label", n.title);
  return n;
}
