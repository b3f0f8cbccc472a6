"""`ddz play`: deals in the terminal against built-in opponents (GreedyAgent
unless `--bots` names another kind), one after another with a running
score, for as long as the player wants another.

It drives a `ddz.Game` through its public calls only (phase, to_act,
legal_actions, step, observation, result), so whatever implements the
game, the screen shows what the seat may know and nothing more.

One input scheme (shown by ``help``): cards are typed as cards (``33``,
``10 J Q``, ``3♣``, ``9h``), words as words (``pass``, ``bid 2``), and an
option by its number after ``#`` (``#3``), so a card never reads as an
option number. Each turn of yours fits an 80×24 terminal: the table state
on top, the options in columns, a page at a time. A turn where passing is
all you may do passes by itself (要不起), and a seat down to one or two
cards is called out (报单/报双). A refused input is explained in words.
Input is read from stdin line by line, so tests can drive it."""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

import ddz
from ddz.agents import GreedyAgent, RandomAgent, RuleAgent, SearchAgent, decide

from .common import UsageError, out, rules_of

SUIT_SYMBOLS = {"d": "♦", "c": "♣", "h": "♥", "s": "♠"}
#: Suit symbols a player may type, as the screen shows them (and variants).
TYPED_SUITS = {"♦": "d", "♣": "c", "♥": "h", "♠": "s", "♢": "d", "♧": "c", "♡": "h", "♤": "s"}
RED = {"d", "h"}
#: Rows of options per page: the table state above them keeps the screen
#: within 24 lines.
OPTION_ROWS = 8
WIDTH = 80
HELP = (
    "Type the cards of a play (33, 10 J Q K A, 3♣ or 3c for a suit), a word "
    "(pass, bid 2, ...) or an option by its number after # (#1 is the hint, the "
    "smallest play that works). 'more' shows the next page of options, an empty "
    "line shows the table again, 'quit' leaves. X is the small joker, D the big one."
)
OPTION_NUMBER = re.compile(r"#\s*([0-9]*)")


def card_text(card: str, symbols: bool) -> Text:
    """'3c' -> '3♣' (red for hearts and diamonds); jokers and laizi bold."""
    rank, suit = card[0], card[1:]
    if suit in SUIT_SYMBOLS:
        return Text(rank + (SUIT_SYMBOLS[suit] if symbols else suit), "red" if suit in RED else "")
    return Text(card, "bold magenta")


def split_cards(identities: str) -> list[str]:
    """'3c3hXD' -> ['3c', '3h', 'X', 'D']: a rank with its suit letter, if any."""
    cards: list[str] = []
    for ch in identities:
        if ch in SUIT_SYMBOLS and cards:
            cards[-1] += ch
        else:
            cards.append(ch)
    return cards


def hand_text(identities: str, console: Console) -> Text:
    """'3c3hXD' -> '3♣ 3♥  X D', ranks grouped, red suits in red. Letters
    replace the symbols where the terminal cannot show them."""
    symbols = uses_symbols(console)
    text = Text()
    last_rank = None
    for card in split_cards(identities):
        if text:
            text.append("  " if card[0] != last_rank else " ")
        last_rank = card[0]
        text.append_text(card_text(card, symbols))
    return text


def uses_symbols(console: Console) -> bool:
    return (console.encoding or "").lower().startswith("utf")


def describe(action: object) -> str:
    if isinstance(action, ddz.Move):
        return f"{action} ({action.kind.replace('_', ' ')})"
    return str(action).replace(":", " ")


def events_text(events: list[list]) -> str:
    parts = []
    for name, effect in events:
        shown = effect if isinstance(effect, str) else f"×{effect}"
        parts.append(f"{name} {shown}")
    return ", ".join(parts)


def roles(obs: Mapping[str, Any], specs: Sequence[Mapping[str, Any]]) -> dict[int, str]:
    """Each seat's roles as this seat knows them, from the family's declared
    roles (`Rules.roles()`): the seats each seat-valued role names, and this
    seat's own role words. Seats no role names are left out."""
    known: dict[int, list[str]] = {}

    def add(seat: int, label: str) -> None:
        # The more specific name wins: "big landlord" over "landlord".
        labels = known.setdefault(seat, [])
        if any(have.endswith(label) for have in labels):
            return
        labels[:] = [have for have in labels if not label.endswith(have)] + [label]

    for spec in specs:
        value, label = obs.get(spec["key"]), spec["label"]["en"]
        if spec["type"] == "seat" and isinstance(value, int):
            add(value, label)
        elif spec["type"] == "seats" and value:
            # Others' badges: a seat's own roles come from its role words.
            for seat in value:
                if seat != obs["seat"]:
                    add(seat, label)
        elif spec["type"] == "word" and value:
            word = str(value).replace("-", " ")
            add(obs["seat"], word if label == "role" else f"{word} {label}")
    return {seat: ", ".join(labels) for seat, labels in known.items()}


def marks(obs: Mapping[str, Any], specs: Sequence[Mapping[str, Any]], symbols: bool) -> list[Text]:
    """The cards the roles name (marked, called), and who holds them."""
    shown: list[Text] = []
    for spec in specs:
        value, label = obs.get(spec["key"]), spec["label"]["en"]
        if spec["type"] == "card" and value:
            shown.append(Text(f"{label} ").append_text(card_text(value, symbols)))
        elif spec["type"] == "seat_card" and value:
            t = Text(f"{label} ").append_text(card_text(value["card"], symbols))
            shown.append(t.append(f" (seat {value['seat']})"))
    return shown


def last_play(obs: Mapping[str, Any]) -> tuple[int, str] | None:
    """The seat and text of the play to beat, from the visible history."""
    if not obs.get("to_beat"):
        return None
    for seat, action in reversed(obs["history"]):
        if action != "pass":
            return seat, action
    return None


def state_lines(console: Console, game: ddz.Game, obs: Mapping[str, Any], me: int) -> list[Text]:
    """The table as `me` knows it: roles, marks, kitty, multiplier, seats,
    the play to beat."""
    symbols = uses_symbols(console)
    specs = game.rules.roles()
    known = roles(obs, specs)
    head = Text(f"{game.rules.preset} · you are seat {me}", "bold")
    if me in known:
        head.append(f", {known[me]}")
    if obs["events"] or obs["phase"] == "play":
        head.append(f" · multiplier ×{game.stake}")
        if obs["events"]:
            head.append(f" ({events_text(obs['events'])})", "dim")
    lines = [head]
    extra = marks(obs, specs, symbols)
    if obs.get("kitty"):
        extra.append(Text("kitty ").append_text(hand_text(obs["kitty"], console)))
    if extra:
        lines.append(Text(" · ").join(extra))
    seats = Text()
    for seat, size in enumerate(obs["hand_sizes"]):
        if seat:
            seats.append(" · ")
        name = "you" if seat == me else f"seat {seat}"
        role = f" {known[seat]}" if seat in known else ""
        seats.append(f"{name}{role}: {size}", "bold" if seat == me else "")
    lines.append(Text("cards left  ").append_text(seats))
    warning = low_cards(obs, me)
    if warning:
        lines.append(Text(warning, "bold red"))
    beat = last_play(obs)
    if obs["phase"] == "play":
        if beat is None:
            leader = "you lead" if obs["to_act"] == me else f"seat {obs['to_act']} leads"
            lines.append(Text(f"new trick: {leader}", "yellow"))
        else:
            who = "you" if beat[0] == me else f"seat {beat[0]}"
            lines.append(
                Text("to beat: ").append(obs["to_beat"], "bold").append(f"  played by {who}")
            )
    return lines


def low_cards(obs: Mapping[str, Any], me: int) -> str:
    """报单/报双: the other seats down to one or two cards, in the play."""
    if obs["phase"] != "play":
        return ""
    low = [
        f"seat {seat} has {size} card{'s' if size > 1 else ''} left"
        for seat, size in enumerate(obs["hand_sizes"])
        if seat != me and 0 < size <= 2
    ]
    return ("! " + ", ".join(low)) if low else ""


def option_page(legal: Sequence, page: int, symbols: bool) -> tuple[Table, str]:
    """One page of options in columns that fit 80 characters, numbered
    across pages; and the line saying which page this is."""
    labels = []
    for i, action in enumerate(legal, 1):
        label = Text(f"#{i} ", "cyan")
        if isinstance(action, ddz.Move):
            label.append(str(action))
        else:
            label.append(str(action).replace(":", " "))
        labels.append(label)
    width = max(len(label) for label in labels) + 2
    columns = max(1, WIDTH // width)
    per_page = columns * OPTION_ROWS
    pages = (len(labels) + per_page - 1) // per_page
    page %= pages
    shown = labels[page * per_page : (page + 1) * per_page]
    table = Table(box=None, show_header=False, padding=(0, 1, 0, 0))
    for _ in range(columns):
        table.add_column(min_width=width - 1, no_wrap=True)
    rows = (len(shown) + columns - 1) // columns
    for r in range(rows):
        table.add_row(
            *[shown[c * rows + r] if c * rows + r < len(shown) else "" for c in range(columns)]
        )
    note = f"{len(legal)} option" + ("s" if len(legal) > 1 else "")
    if isinstance(legal[0], ddz.Move):
        note += f" (#1 {describe(legal[0])} is the hint)"
    if pages > 1:
        note += f", page {page + 1} of {pages}: 'more' for the next"
    return table, note


def ask(console: Console, prompt: str) -> str:
    console.print(prompt, end="")
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.strip()


def typed_action(answer: str, legal: Sequence) -> object:
    """What the player typed, as `Game.step` takes it: an option by number,
    a word (any case, ``bid 2`` for ``bid:2``), or cards with suit symbols
    turned into letters."""
    number = OPTION_NUMBER.fullmatch(answer)
    if number:
        digits = number.group(1)
        i = int(digits) if 0 < len(digits) <= 6 else 0
        if not 1 <= i <= len(legal):
            raise LookupError(f"no such option; the options are #1 to #{len(legal)}")
        return legal[i - 1]
    word = ":".join(answer.lower().split())
    words = [a for a in legal if isinstance(a, str)]
    if word in words:
        return word
    for symbol, letter in TYPED_SUITS.items():
        answer = answer.replace(symbol, letter)
    return answer


def show_turn(console: Console, game: ddz.Game, me: int, page: int) -> Sequence:
    obs = game.observation(me)
    legal = game.legal_actions()
    console.print()
    for line in state_lines(console, game, obs, me):
        console.print(line, overflow="fold")
    console.print(Text("your hand: ").append_text(hand_text(obs["hand"], console)))
    table, note = option_page(legal, page, uses_symbols(console))
    console.print(note, style="dim")
    console.print(table)
    return legal


def final_roles(game: ddz.Game) -> dict[int, str]:
    """Every seat's roles once the deal is over, each as its own seat knows them."""
    specs = game.rules.roles()
    shown = {}
    for seat in range(game.rules.players):
        own = roles({**game.roles(seat), "seat": seat}, specs)
        shown[seat] = own.get(seat) or "farmer"
    return shown


def final_table(
    result: Mapping[str, Any],
    obs: Mapping[str, Any],
    me: int,
    rules: ddz.Rules,
    known: Mapping[int, str] | None = None,
    running: Sequence[int] | None = None,
) -> Table:
    winners = set(result.get("winners", []))
    known = known if known is not None else roles(obs, rules.roles())
    table = Table(title="result", title_justify="left")
    table.add_column("seat", justify="right")
    table.add_column("role")
    table.add_column("cards left", justify="right")
    table.add_column("score", justify="right")
    if running is not None:
        table.add_column("total", justify="right")
    table.add_column("")
    for seat, score in enumerate(result.get("scores", [])):
        note = ("won" if seat in winners else "lost") + ("  (you)" if seat == me else "")
        left = str(obs["hand_sizes"][seat])
        total = [f"{running[seat]:+d}"] if running is not None else []
        table.add_row(str(seat), known.get(seat, ""), left, f"{score:+d}", *total, note)
    return table


def kept_hands(console: Console, game: ddz.Game, me: int) -> None:
    """The cards every seat still held at the end."""
    for seat, hand in enumerate(game.hands):
        if hand:
            who = "you" if seat == me else f"seat {seat}"
            line = Text(f"{who} kept: ").append_text(hand_text("".join(hand), console))
            console.print(line, overflow="fold")


def bot_turn(console: Console, game: ddz.Game, me: int, bot: Any) -> None:
    """A built-in agent's turn, as `me` sees it: a secret choice (a side,
    a show decision) appears only as having been made."""
    seat = game.to_act
    seen_before = len(game.observation(me)["history"])
    led = game.phase == "play" and game.observation(me)["to_beat"] is None
    action = decide(bot, game)
    game.step(action)
    history = game.observation(me)["history"]
    who = f"seat {seat}"
    if led:
        who += " leads"
    if len(history) > seen_before:
        console.print(f"{who}: {describe(action)}")
    else:
        console.print(f"{who}: (a hidden choice)")
    left = game.observation(me)["hand_sizes"][seat]
    if game.phase == "play" and isinstance(action, ddz.Move) and left in (1, 2):
        console.print(
            Text(f"seat {seat} has {left} card{'s' if left > 1 else ''} left!", "bold red")
        )


def forced_pass(console: Console, game: ddz.Game, me: int) -> bool:
    """要不起: when passing is all the seat may do in the play, it passes by
    itself, saying what it could not beat."""
    if game.phase != "play" or game.legal_actions() != ["pass"]:
        return False
    beat = game.observation(me)["to_beat"]
    game.step("pass")
    console.print(Text(f"you: pass (nothing in your hand beats {beat})", "dim"))
    return True


def my_turn(console: Console, game: ddz.Game, me: int) -> bool:
    """Ask until a legal action is taken; False when the player quits."""
    page = 0
    legal = show_turn(console, game, me, page)
    while True:
        answer = ask(console, "> ")
        lowered = answer.lower()
        if lowered in ("help", "?"):
            console.print(HELP)
            continue
        if lowered == "quit":
            return False
        if lowered in ("more", "+"):
            page += 1
            legal = show_turn(console, game, me, page)
            continue
        if not answer:
            legal = show_turn(console, game, me, page)
            continue
        try:
            action = typed_action(answer, legal)
            game.step(action)  # type: ignore[arg-type]
        except LookupError as e:
            console.print(Text("not allowed: ", "red").append(str(e)))
            continue
        except (ddz.IllegalAction, ValueError, TypeError):
            why = refusal(game, me, answer, legal)
            console.print(Text("not allowed: ", "red").append(why))
            continue
        # Echo the play as made: the Move it was, whatever was typed.
        played = game.observation(me)["history"]
        shown = played[-1][1] if played and played[-1][0] == me else str(action)
        made = next((a for a in legal if str(a) == shown), shown)
        console.print(f"you: {describe(made)}")
        return True


def spoken(actions: Sequence) -> str:
    """['pass', 'bid:1', 'bid:2'] -> 'pass, bid 1 or bid 2'."""
    words = [str(a).replace(":", " ").replace("-", " ") for a in actions]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def refusal(game: ddz.Game, me: int, answer: str, legal: Sequence) -> str:
    """Why `answer` cannot be played now, in words (never the engine's syntax)."""
    shown = answer if len(answer) <= 40 else answer[:40] + "…"
    words = [a for a in legal if isinstance(a, str)]
    plays = [a for a in legal if isinstance(a, ddz.Move)]
    if not plays:  # a decision: bids, doubles, sides...
        return f"{shown!r} is not a choice now: you may {spoken(words)} (or #1 to #{len(legal)})"
    if answer.lower().strip() == "pass":
        return "you lead this trick, so you must play cards (#1 is the smallest)"
    rules = game.rules
    text = answer
    for symbol, letter in TYPED_SUITS.items():
        text = text.replace(symbol, letter)
    try:
        readings = rules.classify(text)
    except (ValueError, TypeError):
        return (
            f"{shown!r} is neither cards nor a word: type cards (33, 10 J Q, 3c), "
            "pass, or #N for option N ('help' says more)"
        )
    hand = Counter(c[0] for c in split_cards(game.observation(me)["hand"]))
    wanted = Counter(c for c in str(rules.cards(text)) if not c.islower())
    missing = wanted - hand
    if missing:
        cards = " ".join(sorted(missing.elements()))
        return f"you do not hold {cards}"
    if not readings:
        return f"{shown} is not a play (a single, a pair, a trio, a straight, a bomb...)"
    beat = game.observation(me)["to_beat"]
    kind = readings[0].kind.replace("_", " ")
    if beat:
        return f"{shown} ({kind}) does not beat {beat}: play the same kind, higher, or a bomb"
    return f"{shown} ({kind}) cannot be played now"


def make_bot(kind: str, rules: ddz.Rules, seed: int | None) -> Any:
    """The opponents' agent: one for every bot seat (each acts only for
    the seat it is asked about)."""
    if kind == "search":
        return SearchAgent(seed=seed, rules=rules)
    if kind.startswith("search:"):  # a level, 1 to 8 (docs/bots.md)
        level = kind.partition(":")[2]
        if not level.isdigit() or not 1 <= int(level) <= 8:
            raise UsageError(f"--bots {kind}: a search level is 1 to 8")
        return SearchAgent(seed=seed, rules=rules, level=int(level))
    if kind == "random":
        return RandomAgent(seed)
    if kind == "rule":
        return RuleAgent(seed=seed)
    if kind != "greedy":
        raise UsageError(
            f"--bots {kind!r}: the kinds are greedy, random, rule, search, search:1..8"
        )
    return GreedyAgent()


def cmd_play(args: argparse.Namespace) -> int:
    rules = rules_of(args.preset)
    if not 0 <= args.seat < rules.players:
        raise UsageError(f"--seat must be 0..{rules.players - 1}")
    me = args.seat
    if hasattr(sys.stdout, "reconfigure"):
        # A terminal that cannot show '·' or '×' gets '?', not a crash.
        sys.stdout.reconfigure(errors="replace")
    bot = make_bot(getattr(args, "bots", "greedy"), rules, args.seed)
    console = out()
    console.print(f"[bold]{rules.preset}[/bold]: you are seat {me}. Type 'help' for how to play.")
    running = [0] * rules.players
    number = 0
    try:
        while True:
            # Deal k of a seeded session is seed + k: the session repeats.
            seed = None if args.seed is None else args.seed + number
            game = ddz.Game(rules, seed=seed)
            if not play_deal(console, game, me, bot):
                console.print("bye")
                return 0
            show_result(console, game, me, running)
            number += 1
            answer = ask(console, "another deal? (y/n) > ").lower()
            if answer not in ("y", "yes"):
                console.print("bye")
                return 0
    except EOFError:
        console.print("\nbye")
        return 0
    except KeyboardInterrupt:
        console.print("\nbye")
        return 130


def play_deal(console: Console, game: ddz.Game, me: int, bot: Any) -> bool:
    """One deal to its end; False when the player quits."""
    while game.phase != "over":
        if game.to_act != me:
            bot_turn(console, game, me, bot)
        elif not forced_pass(console, game, me) and not my_turn(console, game, me):
            return False
    return True


def show_result(console: Console, game: ddz.Game, me: int, running: list[int]) -> None:
    """The result: every role, the scores and the running totals, the hands kept."""
    result: Mapping[str, Any] = game.result or {}
    for seat, score in enumerate(result.get("scores", [])):
        running[seat] += score
    obs = game.observation(me)
    console.print()
    table = final_table(result, obs, me, game.rules, final_roles(game), running)
    console.print(table)
    mult = f"multiplier {result.get('multiplier')}"
    if result.get("events"):
        mult += f": {events_text(result['events'])}"
    console.print(mult)
    kept_hands(console, game, me)
