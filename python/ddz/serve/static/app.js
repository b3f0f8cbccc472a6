// The browser table: which page an address opens, and the words of the
// static parts. Plain ES modules, no build step, nothing from other hosts.
//   /                     the lobby
//   /t/{table}            a table: the seat this browser holds, else watching
//   /t/{table}#token=...  an invitation: takes the seat the token opens
//   /t/{table}?watch      a table as its spectators see it
//   /replay/{table}/{n}   a finished deal's replay
//   /replay?local=KEY     the record `ddz replay FILE` was started with
//   /replay               a record file to drop
"use strict";

import { bindLobby, drawLobby, loadLobby, refreshTables } from "./lobby.js";
import { api, holdSeat } from "./net.js";
import { effects, setSound, soundOn } from "./effects.js";
import { bindTable, closeTable, live, openTable, redraw, toast } from "./play.js";
import { drawRules } from "./rules.js";
import { $ } from "./render.js";
import { bindReplay, openReplay, redrawReplay, rep } from "./replay.js";
import { language, setLanguage, t } from "./words.js";

const LOBBY_REFRESH_MS = 5000;

window.ddz = { live, rep, effects }; // for the page's tests, and for the curious

// Static text: elements with data-w="key" get t(key).
function words() {
  document.title = t("title");
  for (const e of document.querySelectorAll("[data-w]")) e.textContent = t(e.dataset.w);
  for (const e of document.querySelectorAll("[data-w-title]")) e.title = t(e.dataset.wTitle);
  $("seed").placeholder = t("seed-hint");
  $("sound").setAttribute("aria-pressed", String(soundOn()));
}

function redrawAll() {
  words();
  if (!$("rules-panel").hidden) drawRules();
  const page = document.body.dataset.page;
  if (page === "lobby") drawLobby();
  else if (page === "table") redraw();
  else if (page === "replay") redrawReplay();
}

async function route() {
  const path = location.pathname;
  const table = /^\/t\/([\w-]+)$/.exec(path);
  const replay = /^\/replay\/([\w-]+)\/(\d+)$/.exec(path);
  if (table) {
    const token = new URLSearchParams(location.hash.slice(1)).get("token");
    if (token) {
      // An invitation: trade the link's token for a new one (the link, and
      // whoever else holds it, then opens nothing), keep it, and drop it from the address.
      const taken = await api("POST", `/tables/${table[1]}/rekey`, { token });
      holdSeat(table[1], taken.seat, taken.token);
      history.replaceState(null, "", `/t/${table[1]}`);
    }
    // ?watch: the spectators' view, whatever seat this browser holds there
    await openTable(table[1], { watch: new URLSearchParams(location.search).has("watch") });
  } else if (replay) {
    await openReplay({ table: replay[1], deal: Number(replay[2]) });
  } else if (path === "/replay" && new URLSearchParams(location.search).get("local")) {
    await openReplay({ local: new URLSearchParams(location.search).get("local") });
  } else {
    closeTable();
    document.body.dataset.page = path === "/replay" ? "drop" : "lobby";
    await loadLobby();
  }
}

function fail(e) {
  toast(t("error-prefix", { message: e.message || String(e) }));
}

function start() {
  setLanguage(language());
  words();
  bindTable();
  bindReplay();
  bindLobby((id) => { history.pushState(null, "", `/t/${id}`); route().catch(fail); },
    (record) => { history.pushState(null, "", "/replay"); openReplay({ record }).catch(fail); }, fail);
  // A record file dropped anywhere on the page replays it.
  document.addEventListener("dragover", (e) => e.preventDefault());
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    const file = e.dataTransfer && e.dataTransfer.files[0];
    if (file) file.text().then((record) => { history.pushState(null, "", "/replay"); return openReplay({ record }); }).catch(fail);
  });
  $("lang").onclick = () => { setLanguage(language() === "zh" ? "en" : "zh"); redrawAll(); };
  $("show-history").onclick = () => openDrawer("history-panel");
  $("show-rules").onclick = () => { drawRules(); openDrawer("rules-panel"); };
  $("sound").onclick = () => { setSound(!soundOn()); words(); };
  $("counter-toggle").onclick = () => {
    localStorage.setItem("ddz-counter", localStorage.getItem("ddz-counter") === "off" ? "on" : "off");
    redrawAll();
  };
  $("show-invite").onclick = () => openDrawer("invite-panel");
  $("close-drawer").onclick = () => { $("drawer").hidden = true; };
  window.addEventListener("popstate", () => route().catch(fail));
  window.addEventListener("resize", () => redrawAll());
  setInterval(() => {
    if (document.body.dataset.page === "lobby") refreshTables().catch(() => {});
  }, LOBBY_REFRESH_MS);
  route().catch(fail);
}

function openDrawer(panel) {
  for (const p of ["history-panel", "invite-panel", "rules-panel"]) $(p).hidden = p !== panel;
  $("drawer").hidden = false;
}

start();
