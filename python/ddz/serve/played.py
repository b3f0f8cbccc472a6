"""The physical cards of each play, put into the history entries a view shows.

An observation's history gives a play by its ranks (``[seat, "TTT"]``), so
the page could not draw another seat's suits. The engine keeps, for every
play of the deal, the card identities it took from the hand (`Game.actions`,
wild cards as the engine names them, e.g. ``"L"``); a play is public once
made, so a view may carry them: ``[seat, "TTT", "TdThTs"]``. Passes and the
auction's words stay two-element entries.

Which copies a play takes matters once they are shown. Left to itself the
engine takes the lowest suits, so a seat that plays Kh would show it holds
no Kd or Kc, and a viewer could tell where those are: rank news about
hidden hands. So the server names the copies of every play sent without
`cards` (`pick`): each seat's hand is, in effect, shuffled once per deal by
a key only the server knows (the deal's seed), and a play takes its
highest-placed copies. What a seat shows then depends only on the cards it
plays, not on the copies it keeps.
"""

from __future__ import annotations

import hashlib
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ddz

    from .tables import ServedTable

#: The ranks that have suits; a play's other letters (jokers, the wild "L") name their card alone.
SUITED = "3456789TJQKA2"

#: Per table: (version, the deal's full history as (seat, text, cards or None)).
#: Read once per table version, shared by every seat's view and the spectators'.
_PLAYED: weakref.WeakKeyDictionary[ServedTable, tuple[int, list[tuple[int, str, str | None]]]] = (
    weakref.WeakKeyDictionary()
)


def full_history(table: ServedTable) -> list[tuple[int, str, str | None]]:
    """Every action of the current deal: its seat, its text, and for a play
    the cards it took from the hand (None for a pass or a word)."""
    cached = _PLAYED.get(table)
    if cached is not None and cached[0] == table.version:
        return cached[1]
    game = table.game
    entries = [(s, text, ids) for (s, text), (_, _, ids) in zip(game.history, game.actions)]
    _PLAYED[table] = (table.version, entries)
    return entries


def with_cards(history: list, full: list[tuple[int, str, str | None]]) -> list:
    """`history` (a seat's, a subsequence of the deal's: it leaves out only
    what that seat may not see) with each play's cards as a third element.

    Entries are matched to the full history in order by seat and text. Only
    words are ever hidden from a seat, so a hidden entry that matches a later
    visible one is that same word and carries no cards: the match is exact."""
    if len(history) == len(full):  # nothing hidden from this seat: the same entries
        return [[s, text, ids] if ids else [s, text] for s, text, ids in full]
    out = []
    at = 0
    for entry in history:
        seat, text = entry[0], entry[1]
        start = at
        while at < len(full) and (full[at][0], full[at][1]) != (seat, text):
            at += 1
        if at == len(full):  # cannot happen for a subsequence; keep the entry as it was
            out.append(entry)
            at = start
            continue
        ids = full[at][2]
        out.append([seat, text, ids] if ids else [seat, text])
        at += 1
    return out


def _place(seed: int, identity: str, copy: int) -> bytes:
    """Where a copy sits in a deal's secret shuffle (lower goes first)."""
    return hashlib.blake2b(f"{seed}:{identity}:{copy}".encode(), digest_size=8).digest()


def pick(game: ddz.Game, action: object) -> str | None:
    """The copies the seat to act takes for `action`, named for `Game.step`'s
    `cards`, or None when the action is no rank-only play (a word, a pass, or
    cards already named by suit). Deterministic for a deal: a table rebuilt
    from its log picks the same copies."""
    text = str(action).split("=")[0]
    if not text or any(c not in SUITED + "XDL" for c in text):
        return None
    held = game.hands[game.to_act]
    order: dict[str, list[tuple[bytes, str]]] = {}
    seen: dict[str, int] = {}
    for identity in held:
        if identity[0] in SUITED and identity[0] in text:
            copy = seen[identity] = seen.get(identity, 0) + 1
            order.setdefault(identity[0], []).append((_place(game.seed, identity, copy), identity))
    for ranked in order.values():
        ranked.sort()
    named = []
    for rank in text:
        copies = order.get(rank)
        named.append(copies.pop(0)[1] if copies else rank)  # a rank not held: Game.step refuses it
    return "".join(named)
