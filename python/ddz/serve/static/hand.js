// The bottom seat's hand: cards in rows that fit the width, each a button
// selected by click or by keyboard (arrows move, Space selects).
"use strict";

import { cardFace, cardsOf } from "./cards.js";
import { t } from "./words.js";

// Cards overlap, but never so much that a card's middle is hidden: a click
// (or a test's) at its centre lands on it. More cards make more rows.
const MIN_STEP = 0.55;
const MAX_STEP = 0.8;
const ROW_STEP = 0.58;

function rows(n, width, cardWidth) {
  if (n <= 1) return [n, cardWidth];
  const fits = Math.max(1, Math.floor((width - cardWidth) / (cardWidth * MIN_STEP)) + 1);
  const count = Math.ceil(n / fits);
  const perRow = Math.ceil(n / count);
  const step = Math.min(cardWidth * MAX_STEP, (width - cardWidth) / Math.max(1, perRow - 1));
  return [perRow, step];
}

// Draw `text` (the hand) into `box`; `pick` (null: not selectable) is
// {selected: Set of indices, focus, toggle(i), key(event, i)}.
export function drawHand(box, text, pick) {
  const cards = cardsOf(text || "");
  box.replaceChildren();
  box.hidden = text === null || text === undefined; // a spectator has none; an empty hand stays
  if (!cards.length) return;
  const probe = cardFace(cards[0], { tag: "button" });
  box.append(probe);
  const cardWidth = probe.getBoundingClientRect().width || 40;
  const height = probe.getBoundingClientRect().height || 56;
  probe.remove();
  const [perRow, step] = rows(cards.length, box.clientWidth - 8, cardWidth);
  box.title = pick ? t("keys-help") : "";
  let row = null;
  cards.forEach((card, i) => {
    if (i % perRow === 0) {
      row = document.createElement("div");
      row.className = "hand-row";
      row.style.marginTop = i ? `${-(height * (1 - ROW_STEP))}px` : "0";
      box.append(row);
    }
    const b = cardFace(card, { tag: pick ? "button" : "span" });
    b.dataset.index = i;
    if (i % perRow) b.style.marginLeft = `${step - cardWidth}px`;
    if (pick) {
      b.type = "button";
      const on = pick.selected.has(i);
      b.classList.toggle("selected", on);
      b.setAttribute("aria-pressed", String(on));
      b.tabIndex = i === Math.min(pick.focus, cards.length - 1) ? 0 : -1;
      b.onclick = () => pick.toggle(i);
      b.onkeydown = (e) => pick.key(e, i);
    }
    row.append(b);
  });
}

// The index the arrow keys move focus to, or null for another key.
export function moved(key, i, n) {
  if (key === "ArrowLeft" || key === "ArrowUp") return Math.max(0, i - 1);
  if (key === "ArrowRight" || key === "ArrowDown") return Math.min(n - 1, i + 1);
  if (key === "Home") return 0;
  if (key === "End") return n - 1;
  return null;
}
