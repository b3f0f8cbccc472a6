"""One flow per preset family: how roles are chosen, who sees what, and how
a deal is scored. `Game` runs the trick play common to all of them."""

from __future__ import annotations

from .base import Flow
from .five_player import FivePlayer3DeckFlow, FivePlayerFlow
from .landlord import LandlordFlow
from .six_2v4 import TeamsFlow, TwoVsFourFlow
from .six_3v3 import ThreeVThreeFlow

#: The flow class of each playable preset.
FLOWS: dict[str, type[Flow]] = {
    "classic": LandlordFlow,
    "two-player": LandlordFlow,
    "four-player": LandlordFlow,
    "laizi": LandlordFlow,
    "five-player": FivePlayerFlow,
    "five-player-3deck": FivePlayer3DeckFlow,
    "six-player-2v4": TwoVsFourFlow,
    "six-player-teams": TeamsFlow,
    "six-player-3v3": ThreeVThreeFlow,
    "six-player-3v3-kitty": ThreeVThreeFlow,
}

__all__ = ["FLOWS", "Flow"]
