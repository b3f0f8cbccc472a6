// Every word the page shows, in English and in Chinese, and the schema of
// the roles an observation may hold. Nothing else in the page holds text
// for people: the other modules ask `t(key)`, `roleSchema(preset, key)`.
//
// The roles: what each key is (its type) and its name in both languages
// come from the engine, which declares every family's roles once
// (`Rules.roles()`, served at /tables/{id}/roles and in each replay;
// docs/roles.md); `declareRoles` takes them in. ROLES below adds only how
// the page shows a role beyond its name, read generically by type
// (roles.js):
//   seat         a seat number: a badge on that seat
//   seats        a list of seats: a badge on each
//   seat_card    {card, seat}: a badge with the card on that seat
//   count        a sentence "label: n"
//   flag         true/false: the sentence `yes` when true, `no` when false
//   card         one card: a sentence with the card drawn
//   cards        card text: a sentence with the cards drawn
//   word         one of a few words (`values`): a sentence; `self` also
//                badges the seat the observation belongs to
//   claims       [[seat, cards], ...]: a sentence per claim (grabs)
//   sides        {main: [seats], counter: [seats]}: a badge on each seat
//   seat_reason  {seat, reason} (or a result's bare reason): a sentence
//   alias        the same value as the key `of`: not shown twice
// `sub` lists the keys whose badge on a seat this key's badge makes
// redundant (a big landlord is a landlord too); `others` badges every seat
// but the named one (a landlord's opponents are the farmers).
"use strict";

const L = (en, zh) => ({ en, zh });

export const ROLES = {
  landlord: { others: L("Farmer", "农民") },
  bid: { hideZero: true },
  base: { hideZero: true },
  open_landlord: { sub: ["landlords"] },
  hidden_landlord: { sub: ["landlords"] },
  main_landlord: { sub: ["landlords"] },
  counter_landlord: { sub: ["landlords"] },
  big_landlord: { sub: ["landlords"] },
  second_landlord: { sub: ["landlords"] },
  open_landlords: { sub: ["landlords"] },
  revealed: { sub: [] },
  solo: { yes: L("The landlord plays alone", "地主独斗"), no: L("The landlord has a partner", "地主有搭档") },
  open_solo: { yes: L("Open solo: alone, announced", "明独：一人对四人"), no: null },
  role: {
    self: true, label: L("You are", "你是"),
    sub: ["landlord", "landlords", "open_landlord", "hidden_landlord", "main_landlord", "deputy"],
    values: {
      farmer: L("Farmer", "农民"),
      "open-landlord": L("Open landlord", "明地主"),
      "hidden-landlord": L("Hidden landlord", "暗地主"),
      "main-landlord": L("Main landlord", "正地主"),
      deputy: L("Deputy landlord", "副地主"),
    },
  },
  side: {
    label: L("Your side", "你的阵营"),
    values: { main: L("the main landlord's", "正方"), counter: L("the counter landlord's", "反方") },
  },
  sides: {
    label: L("Side", "阵营"),
    values: { main: L("Main side", "正方"), counter: L("Counter side", "反方") },
  },
  grabs: { label: L("grabbed with", "抢地主：") },
  auto_win: { label: L("wins outright", "直接获胜") },
};

// Keys whose meaning differs in a preset.
export const ROLES_BY_PRESET = {
  "five-player": {
    landlord: { type: "alias", of: "open_landlord" },
    revealed: { yes: L("The partnership is public", "地主搭档已公开"), no: L("The partnership is secret", "地主搭档未公开") },
  },
  "five-player-3deck": {
    landlord: { type: "alias", of: "main_landlord" },
    revealed: { yes: L("The deputy is known", "副地主已亮明"), no: L("The deputy is not known yet", "副地主未亮明") },
  },
};

// Reasons of an outright win.
const WIN_REASONS = {
  "no-pair": L("no card held exactly twice", "没有对牌"),
  "big-bomb": L("a bomb of ten or more cards", "十张以上的炸弹"),
  "no-bomb": L("no bomb at all", "一个炸弹也没有"),
  "all-bombs": L("a hand of bombs only", "全是炸弹"),
  "all-bombs-after-one-play": L("bombs only after one play", "出一手后全是炸弹"),
  "bomb-13": L("a bomb of thirteen or more cards", "十三张以上的炸弹"),
};

const PRESETS = {
  classic: L("Classic (3 players)", "经典斗地主（三人）"),
  "two-player": L("Two players", "二人斗地主"),
  "four-player": L("Four players", "四人斗地主"),
  "five-player": L("Five players, hidden partner", "五人斗地主（暗搭档）"),
  "five-player-3deck": L("Five players, three decks", "新五人斗地主（三副牌）"),
  "six-player-3v3": L("Six players, 3 against 3", "六人斗地主（三对三）"),
  "six-player-3v3-kitty": L("Six players, 3 against 3, kitty", "六人斗地主（三对三，有底牌）"),
  "six-player-2v4": L("Six players, 2 against 4", "新六人斗地主（二对四）"),
  "six-player-teams": L("Six players, two teams", "正反六人斗地主"),
  laizi: L("Laizi (wild cards)", "癞子斗地主"),
};

const PHASES = {
  bid: L("Bidding", "叫分"), grab: L("Grabbing", "抢地主"), call: L("Solo or friend", "叫朋友"),
  kick: L("Kicking", "踢"), reveal: L("Revealing", "亮明"), double: L("Doubling", "加倍"),
  show: L("Showing hands", "明牌"), choose_side: L("Choosing sides", "选阵营"),
  play: L("Play", "出牌"), over: L("Over", "结束"),
};

// Decisions; `phase:action` first, then the action alone.
const ACTIONS = {
  "bid:pass": L("No bid", "不叫"),
  "grab:pass": L("Done grabbing", "不抢"),
  "play:pass": L("Pass", "不出"),
  pass: L("Pass", "不要"),
  call: L("Call landlord", "叫地主"),
  kick: L("Kick", "踢"), "no-kick": L("Don't kick", "不踢"),
  "counter-kick": L("Kick back", "回踢"), "no-counter-kick": L("Don't kick back", "不回踢"),
  double: L("Double", "加倍"), "no-double": L("Don't double", "不加倍"),
  keep: L("Keep it secret", "不亮"), reveal: L("Reveal the partnership", "亮明"),
  grab: L("Grab", "抢地主"),
  "call-friend": L("Call a friend", "叫朋友"), "hidden-solo": L("Alone, in secret", "暗独"),
  "open-solo": L("Alone, openly", "明独"),
  show: L("Show my hand", "明牌"), "no-show": L("Don't show", "不明牌"),
  "side:main": L("Join the main landlord", "站正方"), "side:counter": L("Join the counter landlord", "站反方"),
};

const EVENTS = {
  bid: L("bid", "叫分"), "forced-bid": L("forced bid", "强制叫分"), base: L("base", "底分"),
  level: L("level points", "等级分"), bomb: L("bomb", "炸弹"), rocket: L("rocket", "王炸"),
  "bomb-5": L("five-card bomb", "五张炸"), "bomb-6": L("six-card bomb", "六张炸"),
  "bomb-7": L("seven-card bomb", "七张炸"), "bomb-8": L("eight-card bomb", "八张炸"),
  "three-jokers": L("three jokers", "三王"), "sky-king": L("four jokers", "天王炸"),
  "king-bomb": L("king bomb", "王炸"), "seven-jokers": L("seven jokers", "七星"),
  "eight-jokers": L("eight jokers", "八王"), double: L("double", "加倍"), reveal: L("reveal", "亮明"),
  "open-solo": L("open solo", "明独"), show: L("shown hand", "明牌"), "show-both": L("both hands shown", "双明"),
  "show-solo": L("solo hand shown", "独明"), spring: L("spring", "春天"), "anti-spring": L("anti-spring", "反春"),
  kick: L("kick", "踢"), "counter-kick": L("kick back", "回踢"), "auto-win": L("outright win", "直接获胜"),
};

// A play's kind, to tell apart plays made of the same cards.
const KINDS = {
  single: L("single", "单张"), pair: L("pair", "对子"), trio: L("trio", "三张"),
  trio_single: L("trio with a single", "三带一"), trio_pair: L("trio with a pair", "三带二"),
  straight: L("straight", "顺子"), pair_straight: L("pair straight", "连对"),
  trio_straight: L("trio straight", "飞机"), plane_singles: L("plane with singles", "飞机带单"),
  plane_pairs: L("plane with pairs", "飞机带对"), four_two_singles: L("four with two singles", "四带二"),
  four_two_pairs: L("four with two pairs", "四带两对"), bomb: L("bomb", "炸弹"), king_bomb: L("king bomb", "王炸"),
};

const BOTS = {
  greedy: L("Greedy bot", "贪心电脑"), random: L("Random bot", "随机电脑"), search: L("Search bot", "搜索电脑"),
  rule: L("Rule bot", "规则电脑"),
};

// The page's own words. `{name}` is filled by t(key, {name: ...}).
const UI = {
  title: L("ddz: a Dou Dizhu table", "ddz：斗地主"),
  lobby: L("Lobby", "大厅"),
  language: L("中文", "English"),
  // The puzzle page (puzzles.js).
  puzzles: L("Puzzles", "残局"),
  "puzzles-intro": L("You are the landlord and lead: go out first whatever the defence plays. Both hands are open.", "你是地主，先出牌：无论对手怎么出，都要先出完。双方的牌都明着。"),
  defence: L("The defence's hand", "对手的牌"),
  "lead-now": L("your lead", "你先出"),
  refutation: L("The defence's answer", "对手的应对"),
  restart: L("Restart", "重来"),
  chapter: L("Puzzle {n}", "第{n}关"),
  "chapter-line": L("{cards} v {theirs} cards, rating {rating}", "{cards}对{theirs}张，难度{rating}"),
  "puzzle-turn": L("Your move: you are the landlord.", "轮到你：你是地主。"),
  "puzzle-right": L("Right. The defence answered {reply}.", "正确。对手出了{reply}。"),
  "puzzle-wrong": L("Wrong: {move} loses. The defence's answer is shown; try again.", "错了：{move}会输。下面是对手的应对，再试一次。"),
  "puzzle-solved": L("Solved!", "过关！"),
  "puzzle-hint": L("Hint: play {move}.", "提示：出{move}。"),
  "stars-earned": L("{n} of 3 stars", "{n}/3星"),
  "my-rating": L("Your puzzle rating: {n}", "你的残局等级分：{n}"),
  "pass-word": L("Pass", "不要"),
  "side-you": L("You", "你"),
  "side-defence": L("Defence", "对手"),
  "new-table": L("New table", "开新桌"),
  preset: L("Game", "玩法"),
  "your-seat": L("Your seat", "你的座位"),
  bots: L("Other seats", "其他座位"),
  people: L("People", "真人"),
  "people-seats": L("Seats for people", "真人座位数"),
  seed: L("Seed (optional)", "种子（可选）"),
  "seed-hint": L("random", "随机"),
  "open-tables": L("Open tables: seats to take", "等待入座的牌桌"),
  "playing-tables": L("Being played", "正在进行"),
  "finished-tables": L("Finished", "已结束"),
  "no-tables": L("No open table yet.", "还没有等待入座的牌桌。"),
  "clock-choice": L("Turn clock", "出牌时限"),
  "clock-off": L("off", "不限时"),
  pace: L("Bots' pace", "电脑出牌速度"),
  "pace-instant": L("instant", "立即"),
  "pace-fast": L("fast", "快"),
  "pace-normal": L("normal", "正常"),
  "pace-slow": L("slow", "慢"),
  "counter-choice": L("Card counter", "记牌器"),
  watch: L("Watch", "观战"),
  take: L("Take this seat", "入座"),
  "seat-free": L("free", "空位"),
  "seat-waiting": L("waiting for the invited player", "等待受邀玩家"),
  "seat-taken": L("playing", "在玩"),
  resume: L("Back to your table", "回到你的牌桌"),
  "drop-record": L("Drop a record file here (or choose one) to replay it", "把牌局记录文件拖到这里（或选择文件）来回放"),
  seat: L("Seat {n}", "{n}号位"),
  you: L("You", "你"),
  person: L("Player", "玩家"),
  spectating: L("Watching", "观战中"),
  deal: L("Deal {n}", "第{n}局"),
  "your-turn": L("Your turn", "轮到你了"),
  "turn-of": L("{name} to act", "等待{name}"),
  thinking: L("thinking", "思考中"),
  leads: L("{name} leads", "{name}出牌"),
  "played-by": L("played by {name}", "{name}出的牌"),
  "played-by-you": L("your play", "你出的牌"),
  "you-lead": L("You lead", "你先出牌"),
  "to-beat": L("To beat", "要压的牌"),
  multiplier: L("Stake", "倍数"),
  kitty: L("Kitty", "底牌"),
  "cards-left": L("{n} cards left", "剩{n}张"),
  "card-left": L("1 card left", "剩1张"),
  play: L("Play", "出牌"),
  hint: L("Hint", "提示"),
  "hint-wp": L("The search wins {pct}% after this play", "搜索估计出这手后胜率{pct}%"),
  clear: L("Clear", "重选"),
  "pick-cards": L("Select the cards to play", "请选择要出的牌"),
  "not-legal": L("Those cards are not a legal play now", "这些牌现在不能出"),
  "which-reading": L("Play them as:", "按哪种牌型出："),
  "as-ranks": L("as {ranks}", "当作{ranks}"),
  "next-deal": L("Next deal", "下一局"),
  replay: L("Replay this deal", "回放本局"),
  history: L("History", "出牌记录"),
  invite: L("Invite", "邀请"),
  leave: L("Leave", "离开"),
  close: L("Close", "关闭"),
  copy: L("Copy", "复制"),
  copied: L("Copied", "已复制"),
  "invite-seat": L("Invitation for {seat}: opening this link takes the seat", "{seat}的邀请链接：打开即入座"),
  "spectator-link": L("Spectators' link", "观战链接"),
  "offer-seat": L("Offer in the lobby", "在大厅公开这个座位"),
  "withdraw-seat": L("Withdraw from the lobby", "从大厅撤回"),
  "no-invites": L("No other seat is for a person at this table.", "这桌没有其他真人座位。"),
  "you-win": L("You win", "你赢了"),
  "you-lose": L("You lose", "你输了"),
  "winners-are": L("{names} win", "{names}获胜"),
  "winner-is": L("{names} wins", "{names}获胜"),
  "stake-was": L("Stake ×{n}:", "倍数×{n}："),
  "to-act": L("to act", "出牌中"),
  "autoplay-on": L("Auto", "托管"),
  autoplay: L("Auto-play", "托管"),
  "autoplay-help": L("Let the seat's bot play for you until you turn it off (or act)", "让电脑替你出牌，直到你取消（或自己出牌）"),
  "autoplay-cancel": L("Cancel auto-play", "取消托管"),
  "clock-help": L("Seconds left for this turn ({n} s a turn); when they run out the server acts for the seat", "本回合剩余秒数（每回合{n}秒）；超时由服务器代为出牌"),
  "one-left": L("1 card left!", "报单"),
  "two-left": L("2 cards left!", "报双"),
  counter: L("Unseen", "剩余"),
  "counter-toggle": L("Counter", "记牌器"),
  "counter-help": L("For each rank, the copies neither in your hand nor played yet", "每个点数还在别人手里（既不在你手里、也还没出）的张数"),
  "small-joker-short": L("Jkr", "小王"),
  "big-joker-short": L("JKR", "大王"),
  sound: L("Sound", "音效"),
  "sound-help": L("Sound effects made in the page (off by default)", "页面生成的音效（默认关闭）"),
  "cant-beat": L("Can't beat: pass", "要不起"),
  "auto-pass": L("Auto-pass", "自动要不起"),
  "auto-pass-help": L("Pass at once when nothing in your hand can beat the play", "手里没有能压过的牌时自动不出"),
  "why-not-kind": L("Not a play: {cards} is no kind of play in this game", "不能出：{cards}不是本玩法的牌型"),
  "why-not-beat": L("{cards} does not beat {beat}: play the same kind, higher, or a bomb", "{cards}压不过{beat}：要出同样牌型的更大的牌，或炸弹"),
  "why-not-kind-follow": L("{cards} is not the kind of {beat} (nor a bomb)", "{cards}和{beat}牌型不同（也不是炸弹）"),
  rules: L("Rules", "规则"),
  "no-rules": L("This record does not say its rules.", "这份记录没有写明规则。"),
  "banner-bomb": L("Bomb!", "炸弹！"),
  "banner-rocket": L("Rocket!", "王炸！"),
  "banner-king-bomb": L("King bomb!", "王炸！"),
  "banner-plane": L("Plane!", "飞机！"),
  "banner-spring": L("Spring!", "春天！"),
  "banner-anti-spring": L("Anti-spring!", "反春！"),
  "banner-straight": L("Straight!", "顺子！"),
  "banner-pair-straight": L("Pairs in a row!", "连对！"),
  "this-deal": L("This deal", "本局"),
  total: L("Running total", "累计"),
  events: L("Stake", "倍数"),
  "no-events": L("nothing changed the stake", "倍数没有变化"),
  redeal: L("Everyone passed: the cards are dealt again", "都不叫：重新发牌"),
  "step-of": L("Step {i} of {n}", "第{i}步，共{n}步"),
  start: L("Start", "开始"),
  back: L("Back", "后退"),
  forward: L("Forward", "前进"),
  end: L("End", "结束"),
  "auto-play": L("Play on", "自动播放"),
  pause: L("Pause", "暂停"),
  "replay-title": L("Replay", "回放"),
  "view-from": L("Seen from", "视角"),
  analysis: L("Analysis", "分析"),
  analysing: L("Analysing the deal…", "正在分析本局…"),
  mistake: L("Mistake", "错着"),
  blunder: L("Blunder", "大错"),
  "best-played": L("best was {best} ({bwp}), played {played} ({pwp})", "最佳为 {best}（{bwp}），实际 {played}（{pwp}）"),
  accuracy: L("Accuracy", "准确度"),
  "winrate-help": L("Each side's win rate after its decisions, as the seat deciding judged it", "双方每次决策后的胜率（按决策座位所知估计）"),
  "side-won": L("winning side: {seats}", "胜方：{seats}"),
  "side-lost": L("losing side: {seats}", "负方：{seats}"),
  closed: L("This table is closed.", "这桌已关闭。"),
  "lost-connection": L("Connection lost: trying again", "连接断开，正在重连"),
  "keys-help": L("Keys: arrows move, Space selects, Enter plays, H hints, Esc clears", "键盘：方向键移动，空格选牌，回车出牌，H提示，Esc重选"),
  "small-joker": L("Small joker", "小王"),
  "big-joker": L("Big joker", "大王"),
  "small-joker-mark": L("JOKER", "小王"),
  "big-joker-mark": L("JOKER", "大王"),
  "from-kitty": L("from the kitty", "底牌"),
  wild: L("Wild card", "癞子"),
  "wild-mark": L("W", "癞"),
  "stands-for": L("wild card as {rank}", "癞子当{rank}"),
  suit_d: L("diamonds", "方块"), suit_c: L("clubs", "梅花"), suit_h: L("hearts", "红桃"), suit_s: L("spades", "黑桃"),
  "list-sep": L(", ", "、"),
  "role-of": L("{label}: {value}", "{label}：{value}"),
  "grab-by": L("{name} {label} {cards}", "{name}{label}{cards}"),
  "win-by": L("{name} {label}: {reason}", "{name}{label}：{reason}"),
  "error-prefix": L("Refused: {message}", "被拒绝：{message}"),
  "role-tip-fallback": L("{doc}", "{doc}"),
};

const GROUPS = { ui: UI, preset: PRESETS, phase: PHASES, action: ACTIONS, event: EVENTS, kind: KINDS, bot: BOTS, win: WIN_REASONS };

// ---- the language ----------------------------------------------------------------
export const LANGS = ["en", "zh"];
let lang = pickLanguage();

function pickLanguage() {
  const saved = globalThis.localStorage && localStorage.getItem("ddz-lang");
  if (LANGS.includes(saved)) return saved;
  const wanted = (globalThis.navigator && navigator.languages) || ["en"];
  return wanted.some((l) => String(l).toLowerCase().startsWith("zh")) ? "zh" : "en";
}
export const language = () => lang;
export function setLanguage(next) {
  lang = next;
  localStorage.setItem("ddz-lang", next);
  document.documentElement.lang = next === "zh" ? "zh-CN" : "en";
}

const fill = (text, vars) => text.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? vars[k] : `{${k}}`));
const pick = (pair) => (pair ? pair[lang] : undefined);

// t("play"), t("seat", {n: 2}), t("action", "bid:pass") ... ; unknown keys show as a
// question mark and a console warning, never as a raw name.
export function t(key, vars = {}) {
  if (typeof vars === "string") return groupWord(key, vars);
  const text = pick(UI[key]);
  if (text === undefined) return missing(key);
  return fill(text, vars);
}
export const label = (pair, vars = {}) => fill(pick(pair), vars);

// A search bot's level ("search:3") is the search bot's words with the level.
const LEVEL = L("{bot}, level {n}", "{bot}（{n}级）");

function groupWord(group, value) {
  const level = group === "bot" && /^(\w+):(\d+)$/.exec(value);
  if (level && BOTS[level[1]]) return fill(pick(LEVEL), { bot: pick(BOTS[level[1]]), n: level[2] });
  const text = pick(GROUPS[group] && GROUPS[group][value]);
  return text === undefined ? missing(`${group}.${value}`) : text;
}
function missing(name) {
  console.warn("ddz: no words for", name);
  return "?";
}

// A decision in words: "bid:3" -> "Bid 3"; "pass" in its phase.
export function actionWords(action, phase) {
  const bid = /^bid:(\d+)$/.exec(action);
  if (bid) return lang === "zh" ? `${bid[1]}分` : `Bid ${bid[1]}`;
  const inPhase = pick(ACTIONS[`${phase}:${action}`]);
  return inPhase !== undefined ? inPhase : groupWord("action", action);
}

// An event of the stake: ["bomb", 2] -> "bomb ×2", ["show", "+3"] -> "shown hand +3".
export function eventWords([name, effect]) {
  const how = typeof effect === "number" ? `×${effect}` : String(effect);
  return `${groupWord("event", name)} ${how}`;
}

// What each part of the stake is, for its tooltip.
const EVENT_HELP = {
  bid: L("The landlord's bid sets the base of the stake", "地主叫的分是倍数的基础"),
  "forced-bid": L("Nobody bid, so the seat that had to take the deal did", "无人叫分，按规则强制叫分"),
  base: L("The base of the stake, from the auction", "叫抢之后的底分"),
  level: L("Level points: the points one ordinary player stakes before the base (five players, three decks)", "等级分：每位普通玩家在底分之前的分值（新五人）"),
  bomb: L("Each bomb doubles the stake", "每个炸弹使倍数翻倍"),
  rocket: L("The rocket (both jokers) doubles the stake", "王炸使倍数翻倍"),
  "king-bomb": L("A bomb of jokers doubles the stake", "王炸使倍数翻倍"),
  double: L("A seat chose to double", "有人加倍"),
  show: L("A hand was shown face up", "有人明牌"),
  spring: L("Spring: the losing side never played a card", "春天：输的一方一张牌也没出"),
  "anti-spring": L("Anti-spring: the landlord made only the first play", "反春：地主只出了第一手牌"),
  kick: L("A farmer kicked: the stake doubles", "农民踢，倍数翻倍"),
  "counter-kick": L("The landlord kicked back", "地主回踢"),
  reveal: L("The partnership was revealed", "亮明搭档"),
  "open-solo": L("The landlord plays alone, openly", "明独"),
};
export function eventHelp(name) {
  if (EVENT_HELP[name]) return pick(EVENT_HELP[name]);
  if (/^bomb-\d+$/.test(name)) return pick(EVENT_HELP.bomb);
  if (/jokers|sky-king/.test(name)) return pick(EVENT_HELP["king-bomb"]);
  return groupWord("event", name);
}

// Tooltips for the roles a player may not know, in both languages; the
// engine's own description for the others, in English only.
const ROLE_HELP = {
  marked: L("The marked card: its holder's role follows from it (see Rules)", "标记牌：持有者的身份由它决定（见规则）"),
  called: L("The card the main landlord named: whoever holds the other copy is the deputy, secretly until it is played", "正地主叫的牌：持有另一张的人是副地主，出牌前不公开"),
  public_mark: L("The public mark: its holder is a landlord, known to all", "明牌：持有者是地主，人人皆知"),
  secret_mark: L("The secret mark: its holder is the other landlord, known only at the end", "暗牌：持有者是另一位地主，结束时才公开"),
  dead_card: L("A marked card held by a farmer: it marks no one", "死牌：被农民拿到的标记牌，不算数"),
  bid: L("The highest bid so far: the stake's base", "目前最高叫分：倍数的基础"),
  base: L("The base of the stake", "底分"),
  hidden_count: L("How many hidden landlords this deal has", "本局暗地主人数"),
};
export function roleHelp(key, doc) {
  if (ROLE_HELP[key]) return pick(ROLE_HELP[key]);
  return lang === "en" ? doc || "" : ""; // the engine's descriptions are English only
}

// The schema of a role key in a preset (undefined when unknown).
// The engine's declarations, by preset: {key: {type, label: {en, zh}}}.
const DECLARED = {};

// Take in a table's roles as the engine declares them (a list of
// `Rules.roles()` entries).
export function declareRoles(preset, roles) {
  DECLARED[preset] = Object.fromEntries(roles.map((r) => [r.key, { type: r.type, label: capital(r.label), doc: r.doc }]));
}

const capital = (pair) => ({ en: pair.en.charAt(0).toUpperCase() + pair.en.slice(1), zh: pair.zh });

// How the page shows `key` of `preset`: the engine's type and name, with
// this page's own presentation (ROLES, ROLES_BY_PRESET) over them.
export function roleSchema(preset, key) {
  const declared = (DECLARED[preset] || {})[key];
  if (!declared) return undefined;
  const special = (ROLES_BY_PRESET[preset] || {})[key];
  return { ...declared, ...(ROLES[key] || {}), ...(special || {}) };
}

// Whether a word exists (for the tests, which list what the engine says).
export const known = (group, value) => Boolean(GROUPS[group] && GROUPS[group][value]);

// For the tests: every key of every group, in both languages.
export const ALL_WORDS = { ui: UI, groups: GROUPS, roles: ROLES, rolesByPreset: ROLES_BY_PRESET };
