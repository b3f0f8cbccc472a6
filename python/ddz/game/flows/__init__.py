"""The Python flows of the presets the Rust table does not play yet
(temporary, docs/table.md): how roles are chosen, who sees what, and how a
deal is scored. `FlowGame` runs the trick play common to all of them."""

from __future__ import annotations

from .base import Flow
from .five_player import FivePlayer3DeckFlow, FivePlayerFlow

#: The flow class of each preset played in Python.
FLOWS: dict[str, type[Flow]] = {
    "five-player": FivePlayerFlow,
    "five-player-3deck": FivePlayer3DeckFlow,
}

__all__ = ["FLOWS", "Flow"]
