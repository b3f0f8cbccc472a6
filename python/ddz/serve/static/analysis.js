// The engine's analysis of a finished deal on its replay page (POST
// /replay/{table}/{deal}/analysis, docs/bots.md#analysis): a win-rate line
// per side over the deal's decisions (at each decision, the side's chance
// as the seat that decided judged it, from what that seat could see; the
// sides are the deal's winners and losers), mistakes and blunders marked on that
// timeline, and at a marked step what was best and what was played. The
// page computes no judgement: it draws the server's.
"use strict";

import { api } from "./net.js";
import { $ } from "./render.js";
import { actionWords, t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const MARKED = new Set(["mistake", "blunder"]);
const W = 300;
const H = 80;

// source: {table, deal} of the replay, or null (a local record has no analysis).
export const an = { source: null, data: null, byFrame: new Map(), frames: [], winners: [] };

export function resetAnalysis(source, frames, result) {
  Object.assign(an, { source, data: null, byFrame: new Map(), frames, winners: (result && result.winners) || [] });
  $("analyse").hidden = !source;
  $("analyse").disabled = false;
  $("analysis").hidden = true;
  $("winrate-graph").replaceChildren();
  $("analysis-marks").replaceChildren();
  $("analysis-note").textContent = "";
}

export async function loadAnalysis(go) {
  if (!an.source) return;
  $("analyse").disabled = true;
  $("analysis").hidden = false;
  $("analysis-note").textContent = t("analysing");
  try {
    an.data = await api("POST", `/replay/${an.source.table}/${an.source.deal}/analysis`);
  } catch (e) {
    $("analysis-note").textContent = e.message;
    $("analyse").disabled = false;
    return;
  }
  // A decision numbered n is the action that led to the replay's frame n + 1.
  an.byFrame = new Map(an.data.decisions.map((d) => [d.number + 1, d]));
  drawAnalysis(go);
}

function words(action, frame) {
  // Auction words ("pass", "bid:2") in the page's language; cards as the engine writes them.
  return /^[a-z]/.test(action) ? actionWords(action, an.frames[frame - 1].phase) : action;
}

const x = (frame) => (W * frame) / Math.max(1, an.frames.length - 1);
const y = (wp) => H - H * wp;

function node(name, attrs) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

// Called again on every step (and language change): the graph's cursor and the step's line.
export function drawAnalysis(go) {
  if (!an.data) return;
  const svg = $("winrate-graph");
  svg.setAttribute("viewBox", `-4 -4 ${W + 8} ${H + 8}`);
  const parts = [node("line", { x1: 0, x2: W, y1: y(0.5), y2: y(0.5), class: "even" })];
  const side = (seat) => (an.winners.includes(seat) ? "won" : "lost");
  const sides = ["won", "lost"].filter((k) => an.data.decisions.some((d) => side(d.seat) === k));
  for (const k of sides) {
    const points = an.data.decisions.filter((d) => side(d.seat) === k).map((d) => `${x(d.number + 1)},${y(d.wp)}`);
    parts.push(node("polyline", { points: points.join(" "), class: `side side-${k}`, "data-side": k }));
  }
  for (const d of an.data.decisions) {
    const dot = node("circle", { cx: x(d.number + 1), cy: y(d.wp), r: MARKED.has(d.judgement) ? 4 : 2, class: `side-${side(d.seat)} ${d.judgement || ""}`, "data-decision": d.number });
    const title = node("title", {});
    title.textContent = `${t("seat", { n: d.seat + 1 })}: ${words(d.played, d.number + 1)} ${d.wp.toFixed(2)}`;
    dot.append(title);
    dot.addEventListener("click", () => go(d.number + 1));
    parts.push(dot);
  }
  const at = Number($("slider").value);
  parts.push(node("line", { x1: x(at), x2: x(at), y1: 0, y2: H, class: "cursor" }));
  svg.replaceChildren(...parts);
  const seats = [...new Set(an.data.decisions.map((d) => d.seat))].sort((a, b) => a - b);
  const legend = sides.map((k) => {
    const key = document.createElement("span");
    key.className = `legend side-${k}`;
    const names = seats.filter((s) => side(s) === k).map((s) => t("seat", { n: s + 1 })).join(", ");
    key.textContent = `● ${t(`side-${k}`, { seats: names })}`;
    return key;
  });
  $("analysis-marks").replaceChildren(...legend, ...an.data.decisions.filter((d) => MARKED.has(d.judgement)).map((d) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `mark ${d.judgement}`;
    b.dataset.testid = "analysis-mark";
    // Chess's "?" and "??" would read as a missing word here: a cross per degree instead.
    b.textContent = `${d.number + 1} ${d.judgement === "blunder" ? "✗✗" : "✗"}`;
    b.title = t(d.judgement);
    b.setAttribute("aria-label", `${t(d.judgement)}: ${t("step-of", { i: d.number + 1, n: an.frames.length - 1 })}`);
    b.onclick = () => go(d.number + 1);
    return b;
  }));
  const d = an.byFrame.get(at);
  const acc = Object.entries(an.data.accuracy).map(([s, a]) => `${t("seat", { n: Number(s) + 1 })} ${Math.round(a)}`).join(" · ");
  $("analysis-note").textContent = d && MARKED.has(d.judgement)
    ? `${t(d.judgement)}: ${t("best-played", { best: words(d.candidates[0].action, at), bwp: d.best_wp.toFixed(2), played: words(d.played, at), pwp: d.wp.toFixed(2) })}`
    : `${t("accuracy")}: ${acc}`;
}
