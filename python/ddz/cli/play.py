"""`ddz play`: one deal in the terminal against GreedyAgent opponents.

The hand is shown with suit symbols (red hearts and diamonds on a colour
terminal), the legal actions are numbered in hint order with the suggested
play marked, and the answer is a number, the cards of a play, ``pass`` or
``help``. Input comes from stdin line by line, so tests can drive it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

import ddz
from ddz.agents import GreedyAgent
from ddz.game.deck import split_identities

from .common import UsageError, out, rules_of

#: Options listed at most; a longer list ends with a count (type the cards).
SHOWN = 30
SUIT_SYMBOLS = {"d": "♦", "c": "♣", "h": "♥", "s": "♠"}
RED = {"d", "h"}
HELP = (
    "Type the number of an option, or the cards of a play (e.g. 334455, 10 J Q K A); "
    "'pass' passes. The play marked 'hint' is the smallest that works; "
    "X is the small joker, D the big one."
)


def hand_text(identities: str, console: Console) -> Text:
    """'3c3hXD' -> '3♣ 3♥  X D', ranks grouped, red suits in red. Letters
    replace the symbols where the terminal cannot show them."""
    symbols = (console.encoding or "").lower().startswith("utf")
    text = Text()
    last_rank = None
    for card in split_identities(identities):
        rank, suit = card[0], card[1:]
        if text:
            text.append("  " if rank != last_rank else " ")
        last_rank = rank
        if suit in SUIT_SYMBOLS:
            shown = rank + (SUIT_SYMBOLS[suit] if symbols else suit)
            text.append(shown, style="red" if suit in RED else "")
        else:
            text.append(rank, style="bold magenta")  # X, D or a laizi L
    return text


def options_table(legal: Sequence) -> Table:
    table = Table(box=None, show_header=False, padding=(0, 1))
    table.add_column(justify="right", style="cyan")
    table.add_column()
    table.add_column(style="dim")
    hinted = False
    for i, action in enumerate(legal[:SHOWN], 1):
        if isinstance(action, ddz.Move):
            note = action.kind.replace("_", " ")
            if not hinted:
                note, hinted = f"{note}  ← hint", True
            table.add_row(f"{i}.", str(action), note)
        else:
            table.add_row(f"{i}.", str(action), "")
    if len(legal) > SHOWN:
        table.add_row("", f"… {len(legal) - SHOWN} more", "type the cards")
    return table


def describe(action: object) -> str:
    if isinstance(action, ddz.Move):
        return f"{action} ({action.kind.replace('_', ' ')})"
    return str(action)


def ask(console: Console, prompt: str) -> str:
    console.print(prompt, end="")
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.strip()


def show_turn(console: Console, game: ddz.Game, me: int) -> Sequence:
    obs = game.observation(me)
    legal = game.legal_actions()
    sizes = "  ".join(
        f"seat {s}{' (you)' if s == me else ''}: {n}" for s, n in enumerate(obs["hand_sizes"])
    )
    console.print()
    console.print(f"[dim]cards left  {sizes}[/dim]")
    if obs.get("to_beat"):
        console.print(f"to beat: [bold]{obs['to_beat']}[/bold]")
    console.print(Text("your hand: ").append_text(hand_text(obs["hand"], console)))
    console.print(options_table(legal))
    return legal


def final_table(result: dict, me: int) -> Table:
    winners = set(result.get("winners", []))
    table = Table(title="result", title_justify="left")
    table.add_column("seat", justify="right")
    table.add_column("score", justify="right")
    table.add_column("")
    for seat, score in enumerate(result.get("scores", [])):
        note = ("won" if seat in winners else "lost") + ("  (you)" if seat == me else "")
        table.add_row(str(seat), f"{score:+d}", note)
    return table


def cmd_play(args: argparse.Namespace) -> int:
    rules = rules_of(args.preset)
    if not 0 <= args.seat < rules.players:
        raise UsageError(f"--seat must be 0..{rules.players - 1}")
    game = ddz.Game(rules, seed=args.seed)
    me = args.seat
    bot = GreedyAgent()
    console = out()
    console.print(f"[bold]{rules.preset}[/bold]: you are seat {me}. {HELP}")
    try:
        while game.phase != "over":
            seat = game.to_act
            if seat != me:
                action = bot.act(game.observation(seat), game.legal_actions())
                game.step(action)
                # Secret choices (a farmer's side, a show decision) stay secret.
                seen = game.flow.visible(me, seat, str(action))
                console.print(f"seat {seat}: {describe(action) if seen else '(a hidden choice)'}")
                continue
            legal = show_turn(console, game, me)
            answer = ask(console, "> ")
            if answer.lower() in ("help", "?", "h"):
                console.print(HELP)
                continue
            choice: object = answer
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                choice = legal[int(answer) - 1]
            try:
                game.step(choice)  # type: ignore[arg-type]
            except ddz.IllegalAction as e:
                console.print(f"[red]not allowed:[/red] {e}")
    except EOFError:
        console.print("\nbye")
        return 0
    result = game.result or {}
    console.print()
    console.print(f"over: winners {result.get('winners')}")
    console.print(final_table(result, me))
    console.print(f"multiplier {result.get('multiplier')} from {result.get('events')}")
    return 0
