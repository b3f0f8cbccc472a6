"""Trick play: lead, follow or pass, a new trick once all others passed."""

from __future__ import annotations

from dataclasses import dataclass, field

import ddz


@dataclass
class Tricks:
    players: int
    last: ddz.Move | None = None  # the play to beat, None when leading
    last_seat: int | None = None
    passes: int = 0
    plays_by_seat: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.plays_by_seat = [0] * self.players

    def leading(self) -> bool:
        return self.last is None

    def play(self, seat: int, move: ddz.Move) -> None:
        self.last, self.last_seat, self.passes = move, seat, 0
        self.plays_by_seat[seat] += 1

    def pass_(self) -> None:
        self.passes += 1
        if self.passes == self.players - 1:
            # Everyone else passed: the last player leads a new trick.
            self.last, self.passes = None, 0
