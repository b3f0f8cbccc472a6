// The puzzle page (/puzzles): the chapters, easiest first, and one puzzle
// played against the server, which checks each move with the solver and
// answers with the defence (docs/browser.md, Puzzles). The cards and the
// hand are the table's (cards.js, hand.js).
"use strict";

import { cardRow, playRow } from "./cards.js";
import { drawHand, moved } from "./hand.js";
import { LANGS, language, setLanguage, t } from "./words.js";

const $ = (id) => document.getElementById(id);

// The player: a random id kept in this browser (no account).
function playerId() {
  let id = localStorage.getItem("ddz-puzzle-player");
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("ddz-puzzle-player", id);
  }
  return id;
}
const PLAYER = playerId();

async function ask(path, body = null) {
  const reply = await fetch(path, body === null ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ player: PLAYER, ...body }),
  });
  const data = await reply.json();
  if (!reply.ok) throw new Error(data.error || reply.statusText);
  return data;
}

function words() {
  document.documentElement.lang = language() === "zh" ? "zh-CN" : "en";
  for (const e of document.querySelectorAll("[data-w]")) e.textContent = t(e.dataset.w);
}

const actionText = (a) => (a === "pass" ? t("pass-word") : a);

// ---- the chapters -------------------------------------------------------------
async function showChapters() {
  $("chapters-page").hidden = false;
  $("puzzle-page").hidden = true;
  const pack = await ask(`/puzzles/pack?player=${PLAYER}`);
  $("my-rating").textContent = t("my-rating", { n: pack.player_rating });
  $("chapters").replaceChildren(...pack.chapters.map((c) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `#${c.id}`;
    a.dataset.testid = "chapter";
    a.textContent = t("chapter", { n: c.number });
    const stars = "★".repeat(c.stars) + "☆".repeat(3 - c.stars);
    li.append(a, ` ${stars} · `, t("chapter-line", { cards: c.cards[0], theirs: c.cards[1], rating: c.rating }));
    return li;
  }));
}

// ---- one puzzle -----------------------------------------------------------------
let state = null;
const pick = {
  selected: new Set(), focus: 0,
  toggle(i) { this.selected.has(i) ? this.selected.delete(i) : this.selected.add(i); this.focus = i; drawMine(); },
  range(a, b, on) {
    for (let i = Math.min(a, b); i <= Math.max(a, b); i++) on ? this.selected.add(i) : this.selected.delete(i);
    this.focus = b; drawMine();
  },
  key(e, i) {
    const n = moved(e.key, i, state.hands[0].length);
    if (n !== null) { this.focus = n; drawMine(); $("hand").querySelector(`[data-index="${n}"]`)?.focus(); e.preventDefault(); }
    else if (e.key === " " || e.key === "Enter") { this.toggle(i); e.preventDefault(); }
  },
};

function drawMine() {
  drawHand($("hand"), state.hands[0], state.solved ? null : pick);
}

function draw(status = "", wrong = false) {
  $("puzzle-page").dataset.moves = state.history.length; // actions so far (tests wait on it)
  $("puzzle-title").textContent = t("chapter", { n: state.number });
  $("defence-hand").replaceChildren(cardRow([...state.hands[1]]));
  $("to-beat-label").hidden = !state.prev;
  $("to-beat").replaceChildren(state.prev ? playRow(state.prev) : t("lead-now"));
  $("pass").disabled = !state.prev || state.solved;
  $("play").disabled = $("hint").disabled = state.solved;
  $("puzzle-status").textContent = status || (state.solved ? t("puzzle-solved") : t("puzzle-turn"));
  $("puzzle-status").classList.toggle("wrong", wrong);
  $("stars").textContent = state.stars ? t("stars-earned", { n: state.stars }) : "";
  $("my-rating").textContent = t("my-rating", { n: state.player_rating });
  drawMine();
}

async function showPuzzle(id, number) {
  $("chapters-page").hidden = true;
  $("puzzle-page").hidden = false;
  $("refutation-box").hidden = true;
  state = { ...(await ask(`/puzzles/${id}?player=${PLAYER}`)), number };
  pick.selected.clear();
  draw();
}

function showRefutation(line) {
  $("refutation").replaceChildren(...line.map(([seat, action]) => {
    const li = document.createElement("li");
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = t(seat === 0 ? "side-you" : "side-defence");
    li.append(who, action === "pass" ? t("pass-word") : playRow(action));
    return li;
  }));
  $("refutation-box").hidden = false;
}

async function send(cards) {
  let r;
  try {
    r = await ask(`/puzzles/${state.id}/move`, { cards });
  } catch (e) {
    $("puzzle-status").textContent = e.message;
    return;
  }
  state = { ...r, number: state.number };
  pick.selected.clear();
  $("refutation-box").hidden = r.result !== "wrong";
  if (r.result === "wrong") {
    showRefutation(r.refutation);
    draw(t("puzzle-wrong", { move: actionText(r.move) }), true);
  } else if (r.result === "solved") {
    draw(`${t("puzzle-solved")} ${t("stars-earned", { n: r.earned })}`);
  } else draw(t("puzzle-right", { reply: actionText(r.reply) }));
}

$("play").onclick = () => {
  const hand = state.hands[0];
  const cards = [...pick.selected].sort((a, b) => a - b).map((i) => hand[i]).join("");
  if (cards) send(cards);
};
$("pass").onclick = () => send("pass");
$("hint").onclick = async () => {
  const r = await ask(`/puzzles/${state.id}/hint`, {});
  state = { ...r, number: state.number };
  draw(t("puzzle-hint", { move: actionText(r.move) }));
};
$("restart").onclick = async () => {
  state = { ...(await ask(`/puzzles/${state.id}/restart`, {})), number: state.number };
  $("refutation-box").hidden = true;
  pick.selected.clear();
  draw();
};
$("lang").onclick = () => {
  setLanguage(LANGS[(LANGS.indexOf(language()) + 1) % LANGS.length]);
  words();
  route();
};

async function route() {
  const id = location.hash.slice(1);
  if (!id) return showChapters();
  const pack = await ask(`/puzzles/pack?player=${PLAYER}`);
  const c = pack.chapters.find((x) => x.id === id);
  return c ? showPuzzle(id, c.number) : showChapters();
}
window.addEventListener("hashchange", route);
words();
route();
