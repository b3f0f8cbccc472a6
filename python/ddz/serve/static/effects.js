// What a play feels like: a short banner for a bomb, a rocket, a plane, a
// spring or an anti-spring, and optional sounds made here with Web Audio
// (no sound file is fetched). Sounds are off until the player turns them on;
// motion follows the system's prefers-reduced-motion (style.css).
"use strict";

import { cardsOf, playOf } from "./cards.js";
import { isPlay } from "./scene.js";
import { t } from "./words.js";

const BANNER_MS = 1600;
const CHAIN = "3456789TJQKA";

export const effects = { last: null, audio: null };

export const soundOn = () => localStorage.getItem("ddz-sound") === "on";
export function setSound(on) {
  localStorage.setItem("ddz-sound", on ? "on" : "off");
  if (on) beep("turn");
}

// The kind of moment a play is, for its banner: "rocket", "bomb", "plane" or null.
// Read from the cards themselves (a wild card's reading when it has one).
export function moment(action) {
  if (!isPlay(action)) return null;
  const ranks = cardsOf(action.split("=")[1] || playOf(action).cards.join("")).map((c) => c[0]);
  if (ranks.length >= 2 && ranks.every((r) => r === "X" || r === "D")) return ranks.length === 2 ? "rocket" : "king-bomb";
  if (ranks.length >= 4 && ranks.every((r) => r === ranks[0])) return "bomb";
  const counts = {};
  for (const r of ranks) counts[r] = (counts[r] || 0) + 1;
  let run = 0;
  let best = 0;
  for (const r of CHAIN) {
    run = counts[r] >= 3 ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best >= 2 ? "plane" : null;
}

// Compare two views of the same deal and announce what happened between them.
export function announce(before, view, me) {
  const o = view.observation;
  const fresh = o.history.slice(before.observation.history.length);
  let kind = null;
  for (const [, action] of fresh) kind = moment(action) || kind;
  if (o.phase === "over" && o.result) {
    for (const [name] of o.result.events || []) if (name === "spring" || name === "anti-spring") kind = name;
  }
  if (kind) banner(kind);
  if (!soundOn()) return;
  if (kind) beep(kind === "plane" ? "plane" : kind.includes("spring") ? "win" : "bomb");
  else if (fresh.some(([, a]) => isPlay(a))) beep("card");
  if (o.phase === "over" && before.observation.phase !== "over") beep(o.result && o.result.winners.includes(me) ? "win" : "lose");
  else if (me !== null && o.to_act === me && (o.legal_actions || []).length && before.observation.to_act !== me) beep("turn");
}

export function banner(kind) {
  const b = document.getElementById("banner");
  effects.last = { kind, at: Date.now() };
  b.textContent = t(`banner-${kind}`);
  b.dataset.kind = kind;
  b.hidden = false;
  b.classList.remove("show");
  void b.offsetWidth; // restart the animation
  b.classList.add("show");
  clearTimeout(banner.timer);
  banner.timer = setTimeout(() => { b.hidden = true; }, BANNER_MS);
}

// A few tones: each a list of [frequency Hz, start s, length s, wave].
const TONES = {
  card: [[660, 0, 0.05, "triangle"]],
  turn: [[880, 0, 0.08, "sine"], [1320, 0.09, 0.1, "sine"]],
  bomb: [[110, 0, 0.35, "sawtooth"], [70, 0.05, 0.4, "square"]],
  plane: [[440, 0, 0.1, "triangle"], [660, 0.1, 0.1, "triangle"], [880, 0.2, 0.15, "triangle"]],
  win: [[523, 0, 0.12, "sine"], [659, 0.12, 0.12, "sine"], [784, 0.24, 0.25, "sine"]],
  lose: [[392, 0, 0.15, "sine"], [330, 0.15, 0.25, "sine"]],
};

function beep(name) {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  const ctx = effects.audio || (effects.audio = new Ctx());
  const now = ctx.currentTime;
  for (const [hz, start, length, wave] of TONES[name] || []) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(0.15, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}
