// The bottom seat's hand: cards in rows that fit the width, each a button
// selected by a tap, by dragging (or swiping) across a range, or by keyboard
// (arrows move, Space selects).
"use strict";

import { cardFace, cardsOf, markKitty } from "./cards.js";
import { t } from "./words.js";

// Each card shows at least TAP px of its width and of its height, a finger's
// target (the 44 px of the platforms' guidelines), and never less than its
// corner: a tap (or a test's click) at the middle of what shows lands on it.
// More cards make more rows.
const TAP = 44;
const MAX_STEP = 0.8;
const ROW_STEP = 0.5; // of a card's height, or TAP px when that is more

function rows(n, width, cardWidth, tap) {
  if (n <= 1) return [n, cardWidth];
  const least = Math.min(cardWidth, Math.max(tap, cardWidth * 0.5));
  const fits = Math.max(1, Math.floor((width - cardWidth) / least) + 1);
  const count = Math.ceil(n / fits);
  const perRow = Math.ceil(n / count);
  const step = Math.min(cardWidth * MAX_STEP, (width - cardWidth) / Math.max(1, perRow - 1));
  return [perRow, step];
}

// Draw `text` (the hand) into `box`; `pick` (null: not selectable) is
// {selected: Set of indices, focus, toggle(i), range(from, to, on), key(event, i)};
// `kitty`: the kitty's cards when they joined this hand (marked); `compact`:
// a hand only to look at (a replay's), with no tap target to keep.
export function drawHand(box, text, pick, kitty = null, { compact = false } = {}) {
  const cards = cardsOf(text || "");
  box.replaceChildren();
  box.hidden = text === null || text === undefined; // a spectator has none; an empty hand stays
  box.classList.toggle("picking", Boolean(pick));
  if (!cards.length) return;
  const probe = cardFace(cards[0], { tag: "button" });
  box.append(probe);
  const cardWidth = probe.getBoundingClientRect().width || 40;
  const height = probe.getBoundingClientRect().height || 56;
  probe.remove();
  const tap = compact ? 0 : TAP;
  const [perRow, step] = rows(cards.length, box.clientWidth - 8, cardWidth, tap);
  box.title = pick ? t("keys-help") : "";
  const fromKitty = kitty ? cardsOf(kitty) : [];
  let row = null;
  cards.forEach((card, i) => {
    if (i % perRow === 0) {
      row = document.createElement("div");
      row.className = "hand-row";
      row.style.marginTop = i ? `${-(height - Math.min(height, Math.max(tap, height * ROW_STEP)))}px` : "0";
      box.append(row);
    }
    const b = cardFace(card, { tag: pick ? "button" : "span" });
    b.dataset.index = i;
    const k = fromKitty.indexOf(card);
    if (k >= 0) { fromKitty.splice(k, 1); markKitty(b); }
    if (i % perRow) b.style.marginLeft = `${step - cardWidth}px`;
    if (pick) {
      b.type = "button";
      const on = pick.selected.has(i);
      b.classList.toggle("selected", on);
      b.setAttribute("aria-pressed", String(on));
      b.tabIndex = i === Math.min(pick.focus, cards.length - 1) ? 0 : -1;
      // Pointer taps and drags are handled on the box; a click with no
      // pointer behind it (Space or Enter on the focused card) toggles here.
      b.onclick = (e) => { if (e.detail === 0) pick.toggle(i); };
      b.onkeydown = (e) => pick.key(e, i);
    }
    row.append(b);
  });
  if (pick) dragging(box, pick);
}

// A press on a card starts a stroke; every card the pointer crosses until it
// is lifted takes the first card's new state (selected or not), so a drag or
// a swipe across a range selects (or unselects) the range. A press and lift
// on one card is a tap: it toggles that card.
function dragging(box, pick) {
  const indexAt = (x, y) => {
    const el = document.elementFromPoint(x, y);
    const card = el && el.closest("#hand .card");
    return card && box.contains(card) ? Number(card.dataset.index) : null;
  };
  let stroke = null;
  box.onpointerdown = (e) => {
    const i = indexAt(e.clientX, e.clientY);
    if (i === null || e.button > 0) return;
    stroke = { from: i, to: i, on: !pick.selected.has(i), id: e.pointerId };
    paint(box, pick, stroke);
    e.preventDefault(); // no text selection, no native drag
  };
  box.onpointermove = (e) => {
    if (!stroke || e.pointerId !== stroke.id) return;
    const i = indexAt(e.clientX, e.clientY);
    if (i !== null && i !== stroke.to) { stroke.to = i; paint(box, pick, stroke); }
  };
  const end = (e) => {
    if (!stroke || e.pointerId !== stroke.id) return;
    const s = stroke;
    stroke = null;
    pick.range(s.from, s.to, s.on);
  };
  box.onpointerup = end;
  box.onpointercancel = () => { stroke = null; };
  box.style.touchAction = "none"; // a swipe selects rather than scrolls
}

// Show a stroke in progress without redrawing the hand.
function paint(box, pick, stroke) {
  const [lo, hi] = [Math.min(stroke.from, stroke.to), Math.max(stroke.from, stroke.to)];
  for (const c of box.querySelectorAll(".card")) {
    const i = Number(c.dataset.index);
    const on = i >= lo && i <= hi ? stroke.on : pick.selected.has(i);
    c.classList.toggle("selected", on);
    c.setAttribute("aria-pressed", String(on));
  }
}

// The index the arrow keys move focus to, or null for another key.
export function moved(key, i, n) {
  if (key === "ArrowLeft" || key === "ArrowUp") return Math.max(0, i - 1);
  if (key === "ArrowRight" || key === "ArrowDown") return Math.min(n - 1, i + 1);
  if (key === "Home") return 0;
  if (key === "End") return n - 1;
  return null;
}
