// The rules panel: what the table's (or the replay's) game is, in the
// page's language, from its rule set and rulewords.js.
"use strict";

import { live } from "./play.js";
import { $ } from "./render.js";
import { rep } from "./replay.js";
import { loadRuleWords, ruleSentences } from "./rulewords.js";
import { t } from "./words.js";

export async function drawRules() {
  const box = $("rules-text");
  const rules = document.body.dataset.page === "replay" ? rep.rules : live.rules;
  if (!rules) { box.textContent = t("no-rules"); return; }
  await loadRuleWords();
  const title = Object.assign(document.createElement("h3"), { textContent: t("preset", rules.preset) });
  const list = document.createElement("ul");
  list.append(...ruleSentences(rules).map((s) => Object.assign(document.createElement("li"), { textContent: s })));
  box.replaceChildren(title, list);
}
