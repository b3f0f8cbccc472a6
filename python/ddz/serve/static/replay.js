// A finished deal replayed with every hand open: step back and forth, or
// drag the slider. Each frame is the engine's (GET /tables/{id}/replay,
// POST /replays): the page only draws them.
"use strict";

import { drawAnalysis, loadAnalysis, resetAnalysis } from "./analysis.js";
import { banner, moment } from "./effects.js";
import { drawHand } from "./hand.js";
import { api } from "./net.js";
import { loadRuleWords } from "./rulewords.js";
import { $, draw } from "./render.js";
import { replayScene } from "./scene.js";
import { declareRoles, t } from "./words.js";

export const rep = { data: null, at: 0, bottom: 0, bots: {}, timer: null, rules: null, fresh: 0 };

// source: {table, deal} | {local: key} | {record: text}
export async function openReplay(source) {
  document.body.dataset.page = "replay";
  stopAuto();
  let data;
  if (source.record !== undefined) data = await api("POST", "/replays", { raw: source.record });
  else if (source.local !== undefined) data = await api("GET", `/replays/${encodeURIComponent(source.local)}`);
  else {
    data = await api("GET", `/tables/${source.table}/replay?deal=${source.deal}`);
    const summary = await api("GET", `/tables/${source.table}`).catch(() => null);
    rep.bots = summary ? Object.fromEntries(Object.entries(summary.bots).map(([s, k]) => [Number(s), k])) : {};
    rep.rules = await api("GET", `/tables/${source.table}/rules`).catch(() => null);
  }
  if (source.table === undefined) {
    rep.bots = {};
    rep.rules = null;
    try { rep.rules = source.record !== undefined ? JSON.parse(source.record).rules || null : null; } catch (e) { rep.rules = null; }
  }
  declareRoles(data.preset, data.roles);
  await loadRuleWords().catch(() => null);
  Object.assign(rep, { data, at: 0, bottom: 0 });
  const slider = $("slider");
  slider.min = 0;
  slider.max = data.frames.length - 1;
  slider.value = 0;
  resetAnalysis(source.table !== undefined ? source : null, data.frames, data.result);
  redrawReplay();
}

export function redrawReplay() {
  if (!rep.data) return;
  const n = rep.data.frames.length - 1;
  $("view-from").replaceChildren(...Array.from({ length: rep.data.players }, (_, s) => new Option(t("seat", { n: s + 1 }), String(s))));
  $("view-from").value = String(rep.bottom);
  const scene = replayScene(rep.data, rep.at, rep.bottom, rep.bots, rep.fresh);
  scene.rules = rep.rules;
  rep.fresh = 0;
  draw(scene);
  drawHand($("hand"), scene.hand, null, null, { compact: true });
  $("slider").value = rep.at;
  $("step").textContent = t("step-of", { i: rep.at, n });
  const frame = rep.data.frames[rep.at];
  const previous = rep.data.frames[rep.at - 1];
  $("waiting").textContent = previous && previous.deal !== frame.deal ? t("redeal") : "";
  $("auto").textContent = rep.timer ? t("pause") : t("auto-play");
  drawAnalysis(go);
}

function go(i) {
  const to = Math.max(0, Math.min(rep.data.frames.length - 1, i));
  // One step forward is a play happening: animated and announced as at a table.
  rep.fresh = to === rep.at + 1 ? 1 : 0;
  if (rep.fresh) {
    const kind = moment(rep.data.frames[to].action[1]);
    if (kind) banner(kind);
  }
  rep.at = to;
  redrawReplay();
}

function stopAuto() {
  clearInterval(rep.timer);
  rep.timer = null;
}

export function bindReplay() {
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(rep.at - 1);
  $("forward").onclick = () => go(rep.at + 1);
  $("last").onclick = () => go(Infinity);
  $("analyse").onclick = () => loadAnalysis(go);
  $("slider").oninput = (e) => go(Number(e.target.value));
  $("view-from").onchange = (e) => { rep.bottom = Number(e.target.value); redrawReplay(); };
  $("auto").onclick = () => {
    if (rep.timer) stopAuto();
    else rep.timer = setInterval(() => (rep.at >= rep.data.frames.length - 1 ? (stopAuto(), redrawReplay()) : go(rep.at + 1)), 700);
    redrawReplay();
  };
  document.addEventListener("keydown", (e) => {
    if (document.body.dataset.page !== "replay" || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowLeft") go(rep.at - 1);
    else if (e.key === "ArrowRight") go(rep.at + 1);
  });
}
