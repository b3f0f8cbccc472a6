// The sentences that explain a rule set (static/rules-words.json, which
// docs/presets.md's at-a-glance lines are generated from too), filled from
// the rule set's options (Rules.to_dict()), in the page's language.
"use strict";

import { language } from "./words.js";

let words = null;

export async function loadRuleWords() {
  if (!words) words = (await (await fetch("/static/rules-words.json")).json()).sentences;
  return words;
}

// Whether an option's value meets a condition: a value, "+" (more than 0),
// or "N+" (N or more). tests/docs_tables.py reads the conditions alike.
function meets(value, want) {
  if (want === "+") return Number(value) > 0;
  if (typeof want === "string" && /^\d+\+$/.test(want)) return Number(value) >= Number(want.slice(0, -1));
  return value === want;
}

// The sentences that hold for `rules` ([] until the words are loaded);
// `stake`: only those that explain the stake.
export function ruleSentences(rules, { stake = false } = {}) {
  if (!words || !rules) return [];
  return words.filter((s) => (!stake || s.stake) && Object.entries(s.when || {}).every(([k, v]) => meets(rules[k], v)))
    .map((s) => s[language()].replace(/\{(\w+)\}/g, (_, k) => String(rules[k])));
}
