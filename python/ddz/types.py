"""Typed views of what `ddz` hands out (docs/types.md): the observation,
the result, the record and `ddz.simulate`'s output as `TypedDict`s, the
phases and action words as `Literal`s, and the `Agent` protocol.

Plain typing, nothing at run time beyond the standard library: the values
are the ordinary dicts and lists; these names let a type checker
(``mypy --strict``) check code that reads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol, TypedDict, Union

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np
    import numpy.typing as npt

    from ddz._ddz import Cards, Move

#: Where a deal stands (`Game.phase`, `observation["phase"]`).
Phase = Literal[
    "bid", "kick", "grab", "call", "reveal", "double", "show", "choose_side", "play", "over"
]
#: The deal flows a rule set may play (`Rules.flow`, docs/rules.md#flow).
Flow = Literal["one_landlord", "hidden_partner", "called_friend", "two_marks", "three_copies"]
#: Every decision that is a word (plays are `Move`s, or their text in views).
ActionWord = Literal[
    "pass",
    "bid:1",
    "bid:2",
    "bid:3",
    "call",
    "grab",
    "reveal",
    "keep",
    "double",
    "no-double",
    "show",
    "no-show",
    "kick",
    "no-kick",
    "counter-kick",
    "no-counter-kick",
    "open-solo",
    "hidden-solo",
    "call-friend",
    "side:main",
    "side:counter",
]
#: An action as `Game.legal_actions()` gives it and `Game.step` takes it.
Action = Union["Move", str]
#: An event of the stake: ``[name, effect]``, an int factor or a ``"+k"`` step.
Event = list[Union[str, int]]
#: ``[seat, action text]``.
HistoryEntry = list[Union[int, str]]


class _ResultBase(TypedDict):
    winners: list[int]
    scores: list[int]
    multiplier: int
    events: list[Event]


class Result(_ResultBase, total=False):
    """`Game.result` once the deal is over (None before). Keys beyond the four
    always present: ``landlords`` (the six-player presets' landlord side) and
    ``sides`` (``six-player-teams``: ``{"main": [...], "counter": [...]}``)."""

    landlords: list[int]
    sides: dict[str, list[int]]


class _ObservationBase(TypedDict):
    preset: str
    phase: Phase
    seat: int
    to_act: int
    hand: str
    hand_sizes: list[int]
    history: list[HistoryEntry]
    events: list[Event]
    kitty: str | None
    to_beat: str | None
    seen_hands: dict[str, str]
    result: Result | None


class Observation(_ObservationBase, total=False):
    """`Game.observation(seat)`: everything `seat` may know (docs/game.md).
    The keys of `_ObservationBase` are in every preset; `legal_actions` only
    on the seat's turn. Each family adds its roles: its view below names
    them with their types (docs/roles.md; `Rules.roles()` declares them)."""

    legal_actions: list[str]


class SeatCard(TypedDict):
    """A card and the seat holding that copy (a mark, a dead card)."""

    card: str
    seat: int


class SeatReason(TypedDict):
    """A seat and why (an outright win)."""

    seat: int
    reason: str


class Sides(TypedDict):
    """Every seat of each side (six-player-teams)."""

    main: list[int]
    counter: list[int]


class OneLandlordObservation(Observation):
    """The observation of `classic`, `two-player`, `four-player`, `laizi`."""

    bid: int | None
    landlord: int | None


class FivePlayerObservation(Observation):
    """The observation of `five-player` (flow `hidden_partner`)."""

    hidden_landlord: int | None
    landlord: int | None
    marked: str | None
    open_landlord: int | None
    revealed: bool | None
    role: str | None
    solo: bool | None


class FivePlayer3DeckObservation(Observation):
    """The observation of `five-player-3deck` (flow `called_friend`)."""

    base: int | None
    called: str | None
    deputy: int | None
    grabs: list[HistoryEntry] | None
    landlord: int | None
    main_landlord: int | None
    marked: str | None
    marked_holder: int | None
    open_solo: bool | None
    revealed: bool | None
    role: str | None
    solo: bool | None


class _MarksBase(Observation):
    auto_win: SeatReason | None
    dead_card: SeatCard | None
    kitty_share: str | None
    landlords: list[int] | None
    public_mark: SeatCard | None
    secret_mark: SeatCard | None
    shown: list[int] | None
    solo: bool | None


class SixPlayer2v4Observation(_MarksBase):
    """The observation of `six-player-2v4` (flow `two_marks`)."""

    bid: int | None
    big_landlord: int | None
    second_landlord: int | None


class _TeamsBase(_MarksBase):
    counter_landlord: int | None
    main_landlord: int | None
    side: str | None
    sides: Sides | None
    team: list[int] | None


class SixPlayerTeamsObservation(_TeamsBase, total=False):
    """The observation of `six-player-teams` (flow `two_marks` with
    `farmers_pick_sides`); `bid` where the first landlord is bid for."""

    bid: int | None


class SixPlayer3v3Observation(Observation):
    """The observation of `six-player-3v3` and `six-player-3v3-kitty`
    (flow `three_copies`)."""

    base: int | None
    bid: int | None
    hidden_count: int | None
    kitty_share: str | None
    landlords: list[int] | None
    marked: str | None
    marked_holder: int | None
    open_landlords: list[int] | None
    revealed: list[int] | None
    role: str | None


#: Each family's observation view, by `(flow, farmers_pick_sides)`.
OBSERVATION_VIEWS: dict[tuple[str, bool], type] = {
    ("one_landlord", False): OneLandlordObservation,
    ("hidden_partner", False): FivePlayerObservation,
    ("called_friend", False): FivePlayer3DeckObservation,
    ("two_marks", False): SixPlayer2v4Observation,
    ("two_marks", True): SixPlayerTeamsObservation,
    ("three_copies", False): SixPlayer3v3Observation,
}


class RoleSpec(TypedDict):
    """One role a family declares (`Rules.roles()`, docs/roles.md)."""

    key: str
    type: str
    doc: str
    seen: str
    label: dict[str, str]
    column_bounds: tuple[int, int]


class OptionSpec(TypedDict):
    """One rule option as the core declares it (`Rules.options()`,
    docs/rules.md#options)."""

    name: str
    #: "bool", "int", "word", "str" or "king bombs".
    type: str
    #: A word option's words, else None.
    words: list[str] | None
    #: An int option's bounds (the field's width), else None.
    min: int | None
    max: int | None
    doc: str
    #: The flows whose families read it (every flow for the play rules).
    flows: list[Flow]
    #: The record format whose rule sets first hold it.
    since: str
    #: Its value in each preset.
    defaults: dict[str, Any]


class SolverPosition(TypedDict):
    """A table's position as `Rules.solve` takes it (`Table.position()`):
    with three seats the landlord's hand is first, then the seats in turn;
    `seats[i]` is the table seat of the solver's seat `i`."""

    hands: list[Cards]
    to_move: int
    prev: Move | None
    prev_by: int | None
    seats: list[int]


class Deal(TypedDict, total=False):
    """A deal as records hold it and ``Game(deal=...)`` takes it."""

    hands: list[str]
    kitty: str
    set_aside: str
    first: int
    marked: str
    secret: str


class PlayEntry(TypedDict):
    """A play in a record: its text, reading and physical cards."""

    play: str
    kind: str
    rank: str
    length: int
    ids: str | None


class Record(TypedDict):
    """`json.loads(game.to_json())` (format ``ddz.game.game.FORMAT``, docs/game.md)."""

    format: str
    rules: dict[str, Any]
    seed: int
    deals: list[Deal]
    actions: list[list[Any]]  # [seat, word or PlayEntry]


class _SimulateBase(TypedDict):
    landlord: npt.NDArray[np.int64]
    winner_side: npt.NDArray[np.uint8]
    turns: npt.NDArray[np.int64]
    bombs: npt.NDArray[np.int64]
    multiplier: npt.NDArray[np.int64]
    scores: npt.NDArray[np.int64]
    hidden_landlord: npt.NDArray[np.int64]
    deputy: npt.NDArray[np.int64]
    second_landlord: npt.NDArray[np.int64]
    counter_landlord: npt.NDArray[np.int64]
    open_landlords: npt.NDArray[np.int64]
    hidden_landlords: npt.NDArray[np.int64]
    revealed: npt.NDArray[np.bool_]


class SimulateResult(_SimulateBase, total=False):
    """`ddz.simulate`'s output: the same keys for every preset, -1 where a
    role does not exist in the preset or the deal (docs/types.md);
    ``records`` only with ``record=k``."""

    records: list[str]


class Figure(TypedDict):
    """A figure of `ddz.evaluate` and its 95% interval."""

    value: float
    low: float
    high: float


class Figures(TypedDict):
    """`ddz.evaluate`'s figures over some games (overall) or seats (a role)."""

    count: int
    wp: Figure
    adp: Figure
    score: Figure


class Evaluation(TypedDict):
    """`ddz.evaluate`'s output (docs/evaluate.md): A's figures overall and
    per role, A and B by name."""

    preset: str
    protocol: Literal["douzero", "full"]
    a: str
    b: str
    deals: int
    seed: int
    overall: Figures
    roles: dict[str, Figures]
    #: `roles` over the games where all of A's seats were on one side.
    one_sided_roles: dict[str, Figures]


class Agent(Protocol):
    """What `ddz.play` and the CLI drive: one decision from a view and the
    legal actions (the built-in agents of `ddz.agents` follow it)."""

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action: ...


__all__ = [
    "OBSERVATION_VIEWS",
    "Action",
    "ActionWord",
    "Agent",
    "Deal",
    "Evaluation",
    "Event",
    "Figure",
    "Figures",
    "FivePlayer3DeckObservation",
    "FivePlayerObservation",
    "Flow",
    "HistoryEntry",
    "Observation",
    "OneLandlordObservation",
    "OptionSpec",
    "RoleSpec",
    "SeatCard",
    "SeatReason",
    "Sides",
    "SixPlayer2v4Observation",
    "SixPlayer3v3Observation",
    "SixPlayerTeamsObservation",
    "Phase",
    "PlayEntry",
    "Record",
    "Result",
    "SimulateResult",
    "SolverPosition",
]
