"""ddz: a fast, complete rules engine for the Dou Dizhu (斗地主) family.

The rules of play live in a Rust core; this package is its Python face::

    import ddz
    rules = ddz.Rules("classic")
    hand = rules.cards("33445566778899TJQKA2XD")
    rules.moves(hand)              # every legal lead
    rules.moves(hand, "8889")      # every play that beats 8889
"""

from collections.abc import Sequence

from ddz._ddz import PRESETS, Cards, Move, MoveList, Rules, default_threads

# MoveList implements the whole read-only sequence protocol.
Sequence.register(MoveList)

__all__ = ["PRESETS", "Cards", "Move", "MoveList", "Rules", "default_threads", "__version__"]
__version__ = "0.1.0"
