"""The one exception family of `ddz` (docs/errors.md).

Every error of the rules engine is a `DdzError`, which is a `ValueError`, so
``except ValueError`` keeps working. Each carries what a program needs to
react without parsing the message: the offending `text` or `option`, the
`allowed` values when they are few enough to list, the `seat` and the
`phase`. An attribute that does not apply is None.

This module imports nothing from the rest of `ddz`: the extension raises
these classes, and imports this module while `ddz` itself is loading.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

_FIELDS = ("text", "option", "allowed", "seat", "phase")


class DdzError(ValueError):
    """Base of every `ddz` error. ``str(e)`` is the message; the attributes
    say what was wrong where (None when they do not apply)."""

    text: str | None
    option: str | None
    allowed: tuple[str, ...] | None
    seat: int | None
    phase: str | None

    def __init__(
        self,
        message: str,
        *,
        text: str | None = None,
        option: str | None = None,
        allowed: Sequence[str] | None = None,
        seat: int | None = None,
        phase: str | None = None,
    ) -> None:
        super().__init__(message)
        self.text = text
        self.option = option
        self.allowed = None if allowed is None else tuple(allowed)
        self.seat = seat
        self.phase = phase

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle (multiprocessing, Ray) with the attributes, not only the message.
        return (_rebuild, (type(self), str(self), {f: getattr(self, f) for f in _FIELDS}))

    def __repr__(self) -> str:
        extra = "".join(
            f", {f}={getattr(self, f)!r}" for f in _FIELDS if getattr(self, f) is not None
        )
        return f"{type(self).__name__}({str(self)!r}{extra})"


def _rebuild(cls: type[DdzError], message: str, fields: dict[str, Any]) -> DdzError:
    return cls(message, **fields)


class CardError(DdzError):
    """Cards that cannot be read or do not fit the rule set's deck: unknown
    symbols, too many copies, a laizi outside the laizi preset, a count
    vector of the wrong size, a play with no (or several) readings, a deal
    whose hands do not match the rule set. `text` is the cards as given."""


class RulesError(DdzError):
    """A rule set that cannot be built: an unknown preset or option, a value
    of the wrong type, options that do not fit together, a rule set the
    table cannot play. `option` names the option (``"preset"`` for an
    unknown preset), `text` the value as given, `allowed` the choices when
    they are a list (presets, option names, policies)."""


class IllegalAction(DdzError):
    """An action the rules do not allow now; the game is left unchanged.
    `text` is the action as given, `seat` the seat to act, `phase` the
    phase, `allowed` the legal actions as text."""


class RecordError(DdzError):
    """A game record `Game.from_json` cannot replay: not JSON, an unknown
    format, a missing or mistyped key, an action out of turn or illegal
    (the cause is chained as ``__cause__``). `text` is the offending part."""


__all__ = ["CardError", "DdzError", "IllegalAction", "RecordError", "RulesError"]
