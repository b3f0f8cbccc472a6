// A scene: what the table shows, made from a seat's (or the spectators') view
// or from a replay's frame, so one drawing serves both. Only reading here:
// every value comes from the server's views and frames.
"use strict";

import { cardsOf } from "./cards.js";
import { readRoles } from "./roles.js";
import { t } from "./words.js";

const PLAY = /^[0-9TJQKAXDLdchs=]+$/;
export const isPlay = (action) => PLAY.test(action);

// The seat of the last play in a history (the one to beat).
export function lastPlayer(history) {
  for (let i = history.length - 1; i >= 0; i--) if (isPlay(history[i][1])) return history[i][0];
  return null;
}

// Each seat's label in front of it: in the auction its latest decision; in
// play only what it did in the current trick (none once a new trick starts),
// so last trick's passes and the auction's words never linger into play.
export function lastActions(history, players, phase, toBeat) {
  const last = Array(players).fill(null);
  const first = history.findIndex(([, a]) => isPlay(a));
  if (phase !== "play" && phase !== "over") {
    for (const [seat, action] of history) last[seat] = action;
    return last;
  }
  if (first < 0 || (phase === "play" && !toBeat)) return last;
  let lead = first;
  let passes = 0;
  for (let i = first; i < history.length; i++) {
    if (!isPlay(history[i][1])) passes++;
    else {
      if (passes >= players - 1) lead = i;
      passes = 0;
    }
  }
  for (const [seat, action] of history.slice(lead)) last[seat] = action;
  return last;
}

// The auction phase a decision belongs to, from its own word, or for a bare
// "pass" from the nearest decision around it (a pass among bids is "No bid"
// even once the doubling has begun); `current` when nothing tells.
const PHASE_OF = [[/^bid:|^call$/, "bid"], [/^grab$/, "grab"], [/kick$/, "kick"], [/double$/, "double"],
  [/^(no-)?show$/, "show"], [/^(keep|reveal)$/, "reveal"], [/^side:/, "choose_side"], [/solo$|^call-friend$/, "call"]];
const phaseOf = (action) => (PHASE_OF.find(([re]) => re.test(action)) || [null, null])[1];
export function decisionPhase(history, i, current) {
  for (let d = 0; d < history.length; d++) {
    for (const j of d ? [i - d, i + d] : [i]) {
      const p = j >= 0 && j < history.length && !isPlay(history[j][1]) ? phaseOf(history[j][1]) : null;
      if (p) return p;
    }
  }
  return current;
}

// The seats whose latest action is among the last `fresh` entries of the history
// (what just happened, to animate), with their place in it.
export function freshSeats(history, fresh) {
  return new Set(history.slice(history.length - fresh).map(([seat]) => seat));
}

export function seatName(seat, me) {
  return seat === me ? t("you") : t("seat", { n: seat + 1 });
}

// The physical cards of each play in a history, where known: {index: cards}.
// A live view has none (the server sends plays by rank) unless its history
// entries carry them third; a replay works them out from its frames' hands.
export function suitedOf(history) {
  const out = {};
  history.forEach((entry, i) => { if (entry[2]) out[i] = entry[2]; });
  return out;
}

// `fields` are the observation (with the result's fields merged in at the end);
// `open[s]` the cards of seat s shown face up, or null.
function build({ preset, fields, players, me, bottom, bots, open, hand, kitty, history, deal, scores, stake, selectable,
  fresh = 0, suited = null, clock = null, autoplay = [], counter = null, handSize = null, rules = null }) {
  const over = fields.phase === "over";
  const nameOf = (s) => seatName(s, me);
  const roles = readRoles(preset, { ...fields, ...(fields.result || {}) }, players, me, nameOf);
  const last = lastActions(history, players, fields.phase, fields.to_beat);
  const lastAt = Array(players).fill(-1);
  history.forEach(([s], i) => { if (last[s] !== null) lastAt[s] = i; });
  const cardsAt = suited || suitedOf(history);
  const newSeats = freshSeats(history, fresh);
  const kittySize = kitty.cards ? kitty.cards.replace(/[dchs]/g, "").length : 0;
  const seats = fields.hand_sizes.map((count, s) => ({
    seat: s,
    name: nameOf(s),
    kind: bots[s] ? t("bot", bots[s]) : s === me ? null : t("person"),
    count,
    open: open[s] || null,
    last: last[s],
    lastPhase: lastAt[s] < 0 || fields.phase === "play" || fields.phase === "over" ? fields.phase : decisionPhase(history, lastAt[s], fields.phase),
    lastCards: lastAt[s] >= 0 ? cardsAt[lastAt[s]] || null : null,
    fresh: newSeats.has(s) && last[s] !== null,
    badges: roles.badges[s],
    turn: !over && fields.to_act === s,
    // 报单 / 报双: one or two cards left, in play
    warn: fields.phase === "play" && count > 0 && count <= 2 ? count : 0,
    clock: clock && clock.seat === s && !over ? clock : null,
    autoplay: autoplay.includes(s),
    // the kitty's cards are marked while the hand that took them is whole
    kitty: kitty.cards && handSize !== null && count === handSize + kittySize ? kitty.cards : null,
  }));
  const by = lastPlayer(history);
  let trickAt = -1;
  for (let i = history.length - 1; i >= 0 && trickAt < 0; i--) if (isPlay(history[i][1])) trickAt = i;
  return {
    preset, players, me, bottom, deal, phase: fields.phase, over, seats, hand, selectable,
    toAct: over ? null : fields.to_act,
    trick: !over && fields.to_beat ? { text: fields.to_beat, by, cards: cardsAt[trickAt] || null, fresh: trickAt >= history.length - fresh } : null,
    leader: !over && fields.phase === "play" && !fields.to_beat ? fields.to_act : null,
    kitty,
    multiplier: stake, // the server's: the engine reads the events
    events: fields.result ? fields.result.events : fields.events,
    facts: roles.facts,
    history,
    result: fields.result,
    scores,
    nameOf,
    counter,
    rules,
    bots,
    suited: cardsAt,
  };
}

// A live view: `extra` holds the table's bots, its rules and, once the deal
// is over, the cards every seat kept (GET /tables/{id}/hands).
export function liveScene(view, { bots, rules, finalHands, fresh = 0, clock = null, mine = {} }) {
  const o = view.observation;
  const me = view.seat;
  const players = o.hand_sizes.length;
  const over = o.phase === "over";
  const open = Array.from({ length: players }, (_, s) =>
    over && finalHands ? finalHands.hands[s] : (o.seen_hands || {})[s] || null);
  const kittyCards = o.kitty || (over && finalHands ? finalHands.kitty : null);
  return build({
    preset: o.preset, fields: o, players, me, bottom: me === null ? 0 : me, bots, open,
    hand: me === null ? null : o.hand,
    kitty: { cards: kittyCards, size: rules ? rules.kitty : 0 },
    history: o.history, deal: view.deal, scores: view.scores, stake: view.stake,
    selectable: o.legal_actions !== undefined,
    fresh, clock, suited: { ...suitedOf(o.history), ...mine }, autoplay: view.autoplay || [], counter: view.counter || null,
    handSize: rules ? rules.hand_size : null, rules,
  });
}

// Frame `i` of a replay, every hand open, seen from seat `bottom`.
export function replayScene(replay, i, bottom, bots = {}, fresh = 0) {
  const frame = replay.frames[i];
  const history = [];
  const suited = {};
  for (let j = 1; j <= i; j++) {
    if (replay.frames[j].deal !== frame.deal) continue; // a redeal starts the history again
    const [seat, action] = replay.frames[j].action;
    // the cards a play took from its seat's hand: the hands before and after it
    if (isPlay(action)) suited[history.length] = lessCards(replay.frames[j - 1].hands[seat], replay.frames[j].hands[seat]);
    history.push(replay.frames[j].action);
  }
  const fields = { ...frame.observation, result: i === replay.frames.length - 1 ? replay.result : null };
  return build({
    preset: replay.preset, fields, players: replay.players, me: null, bottom, bots,
    open: frame.hands, hand: frame.hands[bottom],
    kitty: { cards: frame.kitty || null, size: cardsOf(frame.kitty).length },
    history, deal: null, scores: null, stake: frame.stake, selectable: false, fresh, suited,
  });
}

// The cards of `before` that `after` lacks (card texts, as multisets).
function lessCards(before, after) {
  const left = cardsOf(after);
  const out = [];
  for (const c of cardsOf(before)) {
    const k = left.indexOf(c);
    if (k >= 0) left.splice(k, 1);
    else out.push(c);
  }
  return out.join("");
}
