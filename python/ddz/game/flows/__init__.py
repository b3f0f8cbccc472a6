"""The Python flows of the presets the Rust table does not play yet
(temporary, docs/table.md): how roles are chosen, who sees what, and how a
deal is scored. `FlowGame` runs the trick play common to all of them."""

from __future__ import annotations

from .base import Flow
from .six_2v4 import TeamsFlow, TwoVsFourFlow
from .six_3v3 import ThreeVThreeFlow

#: The flow class of each preset played in Python.
FLOWS: dict[str, type[Flow]] = {
    "six-player-2v4": TwoVsFourFlow,
    "six-player-teams": TeamsFlow,
    "six-player-3v3": ThreeVThreeFlow,
    "six-player-3v3-kitty": ThreeVThreeFlow,
}

__all__ = ["FLOWS", "Flow"]
