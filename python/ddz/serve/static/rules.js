// The rules panel: what the table's game is, in the page's language, made
// from its rule set (Rules.to_dict(), GET /tables/{id}/rules) and the
// sentences of rules-words.json, the file docs/presets.md's at-a-glance
// lines are generated from too (tests/docs_tables.py).
"use strict";

import { live } from "./play.js";
import { $ } from "./render.js";
import { rep } from "./replay.js";
import { language, t } from "./words.js";

let words = null;

// Whether a rule set's value meets a condition: a value, "+" (more than 0),
// or "N+" (N or more).
function meets(value, want) {
  if (want === "+") return Number(value) > 0;
  if (typeof want === "string" && /^\d+\+$/.test(want)) return Number(value) >= Number(want.slice(0, -1));
  return value === want;
}

export function sentences(rules, all, lang) {
  return all.filter((s) => Object.entries(s.when || {}).every(([k, v]) => meets(rules[k], v)))
    .map((s) => s[lang].replace(/\{(\w+)\}/g, (_, k) => String(rules[k])));
}

export async function drawRules() {
  const box = $("rules-text");
  const rules = document.body.dataset.page === "replay" ? rep.rules : live.rules;
  if (!rules) { box.textContent = ""; return; }
  if (!words) words = await (await fetch("/static/rules-words.json")).json();
  const title = Object.assign(document.createElement("h3"), { textContent: t("preset", rules.preset) });
  const list = document.createElement("ul");
  list.append(...sentences(rules, words.sentences, language()).map((s) => Object.assign(document.createElement("li"), { textContent: s })));
  box.replaceChildren(title, list);
}
