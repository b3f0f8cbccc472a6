"""One flow per preset family: how roles are chosen, who sees what, and how
a deal is scored. `Game` runs the trick play common to all of them."""

from __future__ import annotations

from .base import Flow
from .landlord import LandlordFlow

#: The flow class of each playable preset.
FLOWS: dict[str, type[Flow]] = {
    "classic": LandlordFlow,
    "two-player": LandlordFlow,
    "four-player": LandlordFlow,
    "laizi": LandlordFlow,
}

__all__ = ["FLOWS", "Flow"]
