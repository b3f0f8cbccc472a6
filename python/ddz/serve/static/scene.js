// A scene: what the table shows, made from a seat's (or the spectators') view
// or from a replay's frame, so one drawing serves both. Only reading here:
// every value comes from the server's views and frames.
"use strict";

import { cardsOf } from "./cards.js";
import { readRoles } from "./roles.js";
import { t } from "./words.js";

const PLAY = /^[0-9TJQKAXDLdchs=]+$/;
export const isPlay = (action) => PLAY.test(action);

// The events' effects as docs/game.md defines them: a number multiplies, a
// "+k" adds k to a count that starts at 1; the stake is their product.
export function stake(events) {
  let times = 1;
  let plus = 0;
  for (const [, effect] of events) {
    if (typeof effect === "number") times *= effect;
    else plus += Number(effect);
  }
  return times * (1 + plus);
}

// The seat of the last play in a history (the one to beat).
export function lastPlayer(history) {
  for (let i = history.length - 1; i >= 0; i--) if (isPlay(history[i][1])) return history[i][0];
  return null;
}

// Each seat's latest action within the last round of turns (so a trick's
// passes stay in front of the seats until they act again).
function lastActions(history, players) {
  const last = Array(players).fill(null);
  for (const [seat, action] of history.slice(-players)) last[seat] = action;
  return last;
}

export function seatName(seat, me) {
  return seat === me ? t("you") : t("seat", { n: seat + 1 });
}

// `fields` are the observation (with the result's fields merged in at the end);
// `open[s]` the cards of seat s shown face up, or null.
function build({ preset, fields, players, me, bottom, bots, open, hand, kitty, history, deal, scores, selectable }) {
  const over = fields.phase === "over";
  const nameOf = (s) => seatName(s, me);
  const roles = readRoles(preset, { ...fields, ...(fields.result || {}) }, players, me, nameOf);
  const last = lastActions(history, players);
  const seats = fields.hand_sizes.map((count, s) => ({
    seat: s,
    name: nameOf(s),
    kind: bots[s] ? t("bot", bots[s]) : s === me ? null : t("person"),
    count,
    open: open[s] || null,
    last: last[s],
    badges: roles.badges[s],
    turn: !over && fields.to_act === s,
  }));
  const by = lastPlayer(history);
  return {
    preset, players, me, bottom, deal, phase: fields.phase, over, seats, hand, selectable,
    toAct: over ? null : fields.to_act,
    trick: !over && fields.to_beat ? { text: fields.to_beat, by } : null,
    leader: !over && fields.phase === "play" && !fields.to_beat ? fields.to_act : null,
    kitty,
    multiplier: fields.result ? fields.result.multiplier : stake(fields.events),
    events: fields.result ? fields.result.events : fields.events,
    facts: roles.facts,
    history,
    result: fields.result,
    scores,
    nameOf,
  };
}

// A live view: `extra` holds the table's bots, its rules and, once the deal
// is over, the cards every seat kept (GET /tables/{id}/hands).
export function liveScene(view, { bots, rules, finalHands }) {
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
    history: o.history, deal: view.deal, scores: view.scores, selectable: o.legal_actions !== undefined,
  });
}

// Frame `i` of a replay, every hand open, seen from seat `bottom`.
export function replayScene(replay, i, bottom, bots = {}) {
  const frame = replay.frames[i];
  const history = [];
  for (let j = 1; j <= i; j++) {
    if (replay.frames[j].deal !== frame.deal) continue; // a redeal starts the history again
    history.push(replay.frames[j].action);
  }
  const fields = { ...frame.observation, result: i === replay.frames.length - 1 ? replay.result : null };
  return build({
    preset: replay.preset, fields, players: replay.players, me: null, bottom, bots,
    open: frame.hands, hand: frame.hands[bottom],
    kitty: { cards: frame.kitty || null, size: cardsOf(frame.kitty).length },
    history, deal: null, scores: null, selectable: false,
  });
}
