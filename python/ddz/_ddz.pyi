"""Type stubs for the `ddz._ddz` extension module (Rust core, PyO3 bindings).

Hand-written; checked against the compiled module with ``python -m mypy.stubtest ddz._ddz``.
"""

from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar, TypeAlias, final, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

# The exception family lives in ddz.errors; the extension raises it.
from ddz.errors import IllegalAction as IllegalAction
from ddz.types import Flow, Observation, OptionSpec, Phase, Result, RoleSpec, SolverPosition

__all__ = [
    "Rules",
    "Cards",
    "Move",
    "MoveList",
    "PRESETS",
    "ACTION_WORDS",
    "PHASES",
    "RECORD_FORMAT",
    "RECORD_FORMATS",
    "default_threads",
    "greedy_choice",
    "simulate",
    "search_act",
    "policy_act",
    "analyse_record",
    "puzzle_candidates",
    "analyse_puzzles",
    "longest_reply",
    "Table",
    "ActionList",
    "IllegalAction",
    "Solution",
    "VecEnv",
    "DouZeroCore",
    "ActionMasks",
    "ActionTable",
    "play_seated",
    "__version__",
]

#: The package version (from Cargo.toml).
__version__: str

#: The preset names of docs/rules.md#presets, in table order.
PRESETS: tuple[str, ...]
#: Every decision that is a word, in id order (`pass`, the bids, the rest).
ACTION_WORDS: tuple[str, ...]
#: Every phase, in id order.
PHASES: tuple[str, ...]
#: The record format `Game.to_json` writes, and every format it reads.
RECORD_FORMAT: str
RECORD_FORMATS: tuple[str, ...]

def simulate(
    rules: Rules,
    games: int,
    seed: int | None = None,
    threads: int | None = None,
    policy: str | list[str] | None = None,
    record: int | None = None,
    first: int | None = None,
    opening: str = "auction",
) -> dict[str, Any]:
    """Raw simulation results (deals `first ..`; None means 0); `ddz.simulate` is the
    public wrapper. Too large a run raises MemoryError before any work."""

#: A batch player: a built-in policy's name, or a callable given the observation
#: arrays of all the envs it plays now and returning one legal index per env.
_BatchPlayer: TypeAlias = str | Callable[[dict[str, npt.NDArray[Any]]], npt.ArrayLike]

def play_seated(
    rules: Rules,
    deals: int,
    players: Sequence[_BatchPlayer],
    seed: int = 0,
    first: int = 0,
    protocol: str = "full",
    threads: int | None = None,
) -> dict[str, Any]:
    """Deals `first .. first + deals` of series `seed`, one player per seat (names
    or batch callables), as `simulate`'s dict; `ddz.evaluate` plays batch
    policies with it."""

def greedy_choice(legal: Sequence[_Action]) -> int:
    """The index `GreedyAgent` takes among `legal` (a moment's actions in
    `Game`'s order), chosen by the core's greedy player."""

def analyse_record(
    record: str,
    seats: list[int],
    k: int = 3,
    seed: int = 0,
    playouts: int | None = None,
    budget_us: int | None = None,
    threads: int | None = None,
    solve_nodes: int = 200_000,
) -> list[dict[str, Any]]:
    """The numbers of `ddz.analyse`: for each decision of `seats` (all where empty)
    with a choice, its number, seat, the action played, the ranked candidates as
    (text, wp, low, high, samples) and the solver's win_before / win_after."""

def search_act(
    rules: Rules,
    observation: str,
    seed: int = 0,
    playouts: int | None = None,
    budget_us: int | None = None,
    threads: int | None = None,
    level: int | None = None,
) -> tuple[int, str] | None:
    """The search player's choice for the observation (its JSON): the index into the
    legal actions in Game's order and the action's text; None where no deal replays to
    the observation (one edited by hand, say). `ddz.agents.SearchAgent` is the public
    wrapper."""

def policy_act(
    rules: Rules, observation: str, policy: str, seed: int = 0
) -> tuple[int, str] | None:
    """The built-in policy `policy`'s choice for the observation (its JSON), on a table
    rebuilt from it: as `search_act`. `ddz.agents.RuleAgent` is the public wrapper."""

def puzzle_candidates(
    rules: Rules, seed: int, start: int, count: int, hands: int, min: int, max: int
) -> list[list[str]]:
    """Synthetic puzzle candidates `start .. start+count-1` of the series `seed`:
    `hands` card texts of `min` to `max` cards each (docs/puzzles.md)."""

def analyse_puzzles(
    rules: Rules,
    positions: list[list[str]],
    forbid: list[str] = ...,
    max_nodes: int = 2000000,
    max_steps: int = 20000,
    threads: int = 1,
    screen: bool = True,
) -> list[dict[str, Any] | None]:
    """Each position (seat 0 the landlord to lead) analysed as a puzzle: a dict, or
    None where a budget ran out. `ddz.puzzles` is the public wrapper."""

def longest_reply(
    rules: Rules,
    hands: list[str],
    to_move: int,
    prev: _PlayLike | None = None,
    prev_by: int | None = None,
    forbid: list[str] = ...,
    max_nodes: int = 2000000,
    max_steps: int = 20000,
) -> str | None:
    """The defence's longest-resisting reply where the landlord's side wins and the
    defence is to move: its cards or 'pass'; None when a budget ran out or the position
    is not one. `ddz.puzzles.longest_reply` is the public wrapper."""

def default_threads() -> int:
    """Threads the batch APIs use when none are named: DDZ_NUM_THREADS, else every core
    (at most 256)."""

#: Anything the bindings accept as cards: canonical or loose text (``"3 4 10 9h"``),
#: a :class:`Cards`, or a sequence / 1-d integer numpy array of 15 or 16 counts
#: (slots ``3 4 5 6 7 8 9 T J Q K A 2 X D L``).
_CardsLike: TypeAlias = str | Cards | Sequence[int] | npt.NDArray[np.integer[Any]]

#: A play: a :class:`Move` that is a reading under the rule set, or cards that
#: have exactly one reading.
_PlayLike: TypeAlias = Move | str | Cards | Sequence[int] | npt.NDArray[np.integer[Any]]

@final
class Cards:
    """A multiset of cards as a count vector over 3..2, X, D, L."""

    def __new__(cls, cards: _CardsLike) -> Cards: ...
    @property
    def counts(self) -> npt.NDArray[np.uint8]:
        """One count per slot 3 4 5 6 7 8 9 T J Q K A 2 X D L, as numpy uint8."""

    def contains(self, other: _CardsLike) -> bool:
        """True when every card of `other` is in these cards."""

    def __len__(self) -> int: ...
    def __hash__(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...

@final
class Move:
    """One reading of a play."""

    @property
    def kind(self) -> str:
        """Kind id of docs/rules.md#kinds ('single', 'pair', ..., 'bomb', 'king_bomb')."""

    @property
    def cards(self) -> Cards:
        """The cards actually played (laizi as L)."""

    @property
    def represents(self) -> Cards:
        """The cards after each laizi is replaced by what it stands for."""

    @property
    def rank(self) -> str:
        """The rank symbol that decides the play's strength."""

    @property
    def length(self) -> int:
        """Links of a sequence or plane, cards of a bomb, 1 otherwise."""

    @property
    def is_bomb(self) -> bool:
        """Bombs and king bombs."""

    def __len__(self) -> int: ...
    def __hash__(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...

@final
class MoveList(Sequence[Move]):
    """The plays of `moves()` / `hint()`: an immutable sequence that keeps the
    plays in Rust and makes a `Move` object only when one is read."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, key: int, /) -> Move: ...
    @overload
    def __getitem__(self, key: slice, /) -> list[Move]: ...
    def __iter__(self) -> Iterator[Move]: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]
    def index(self, item: object) -> int: ...  # type: ignore[override]
    def count(self, item: object) -> int: ...
    def counts(self) -> npt.NDArray[np.uint8]:
        """The cards of every play as a numpy `uint8[len, 16]` array of counts."""

    def cards(self) -> list[Cards]:
        """The cards of every play, as `Cards`."""

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Every play as `VecEnv`'s legal columns: `cards`, `represents` (uint8[len, 16]),
        `kind`, `rank`, `length` (int8[len])."""

@final
class Rules:
    """A rule set: a preset with options, compiled for play."""

    def __new__(cls, preset: str = "classic", **options: Any) -> Rules: ...
    @staticmethod
    def from_dict(d: dict[str, Any]) -> Rules:
        """A rule set from a dict made by `to_dict()` (every option present)."""

    @staticmethod
    def from_json(text: str) -> Rules: ...
    def to_json(self) -> str: ...
    def to_dict(self) -> dict[str, Any]:
        """Every option as a plain, JSON-serialisable dict."""

    @staticmethod
    def options() -> list[OptionSpec]:
        """Every rule option as declared in the core: name, type, doc, the
        flows that read it, the record format it first appeared in and its
        value in each preset (docs/rules.md#options)."""

    def roles(self) -> list[RoleSpec]:
        """The roles this rule set's observations hold, in their order
        (docs/roles.md)."""

    # One property per rule option (docs/rules.md#options), made by the
    # bindings from the core's declaration; `make docs-tables` writes them.
    # <!-- rule-getters:begin -->
    @property
    def preset(self) -> str: ...
    @property
    def flow(self) -> Flow: ...
    @property
    def players(self) -> int: ...
    @property
    def decks(self) -> int: ...
    @property
    def laizi(self) -> int: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def kitty(self) -> int: ...
    @property
    def set_aside(self) -> int: ...
    @property
    def trio_single(self) -> bool: ...
    @property
    def plane_singles(self) -> bool: ...
    @property
    def four_two_singles(self) -> bool: ...
    @property
    def four_two_pairs(self) -> bool: ...
    @property
    def joker_pairs(self) -> bool: ...
    @property
    def joker_trio_pair(self) -> bool: ...
    @property
    def sequences(self) -> str: ...
    @property
    def wings_consecutive(self) -> bool: ...
    @property
    def no_bomb_inside(self) -> bool: ...
    @property
    def rocket_as_kickers(self) -> bool: ...
    @property
    def plane_222333_high(self) -> bool: ...
    @property
    def ladder(self) -> str: ...
    @property
    def king_bombs(self) -> list[dict[str, int]]: ...
    @property
    def seven_star_kills_last_joker(self) -> bool: ...
    @property
    def spring(self) -> bool: ...
    @property
    def anti_spring(self) -> bool: ...
    @property
    def double_step(self) -> str: ...
    @property
    def score_scheme(self) -> str: ...
    @property
    def auto_win(self) -> bool: ...
    @property
    def bidding(self) -> str: ...
    @property
    def kitty_shown(self) -> bool: ...
    @property
    def doubling_bomb(self) -> int: ...
    @property
    def kicks(self) -> bool: ...
    @property
    def kick_factor(self) -> int: ...
    @property
    def strong_hand_bids(self) -> bool: ...
    @property
    def six_beats_five(self) -> bool: ...
    @property
    def level_points(self) -> int: ...
    @property
    def no_grab_base(self) -> int: ...
    @property
    def landlord_bidding(self) -> bool: ...
    @property
    def farmers_pick_sides(self) -> bool: ...
    @property
    def kitty_split(self) -> str: ...
    @property
    def both_copies_open(self) -> bool: ...
    @property
    def three_copies_win(self) -> bool: ...
    @property
    def forced_taker(self) -> bool: ...
    @property
    def two_bids_base(self) -> str: ...
    # <!-- rule-getters:end -->
    def cards(self, cards: _CardsLike) -> Cards:
        """Cards checked against this rule set's deck."""

    def classify(self, cards: _CardsLike) -> list[Move]:
        """Every reading of these cards as one play (empty if none)."""

    def moves(self, hand: _CardsLike, prev: _PlayLike | None = None) -> MoveList:
        """Every distinct legal play from `hand` (answering `prev` when given)."""

    def count_moves(self, hand: _CardsLike, prev: _PlayLike | None = None) -> int:
        """`len(moves(hand, prev))`, without building the plays."""

    def hint(self, hand: _CardsLike, prev: _PlayLike | None = None) -> MoveList:
        """The plays of `moves`, ordered as a game UI suggests them."""

    def count_moves_batch(
        self,
        hands: npt.NDArray[np.uint8],
        prevs: Sequence[_PlayLike | None] | npt.NDArray[np.uint8] | None = None,
        threads: int | None = None,
    ) -> npt.NDArray[np.int64]:
        """`count_moves` for every row of a `uint8[N, 16]` array, on `threads` cores."""

    def moves_batch(
        self,
        hands: npt.NDArray[np.uint8],
        prevs: Sequence[_PlayLike | None] | npt.NDArray[np.uint8] | None = None,
        threads: int | None = None,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
        """Every row's plays in CSR layout: `(offsets int64[N+1], plays uint8[M, 16])`."""

    def beats(self, a: _PlayLike, b: _PlayLike) -> bool:
        """Does play `a` beat play `b`?"""

    def solve(
        self,
        hands: Sequence[_CardsLike],
        to_move: int = 0,
        prev: _PlayLike | None = None,
        forbid: Sequence[str] | None = None,
        max_nodes: int | None = None,
        *,
        max_seconds: float | None = None,
        all: bool = False,
        prev_by: int | None = None,
        max_memory: int | None = None,
        threads: int | None = None,
        line: bool = False,
    ) -> Solution:
        """Solve an open-hand position exactly (two or three hands); see docs/solver.md."""

    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]

@final
class Solution:
    """The verdict of an open-hand position for the side to move."""

    @property
    def win(self) -> bool | None:
        """True: the side to move forces going out first; False: it cannot; None: budget ran out."""

    @property
    def plays(self) -> list[Move | str]:
        """The winning actions at the root (Moves, or "pass"); empty when lost or unknown."""

    @property
    def nodes(self) -> int:
        """Positions searched."""

    @property
    def seconds(self) -> float: ...
    @property
    def line(self) -> list[tuple[int, Move | str]]:
        """With `line=True`: `(seat, action)` pairs to the end of the deal, the
        winner's winning plays against the loser's first plays in search order."""

_Action: TypeAlias = Move | str

@final
class ActionList(Sequence[_Action]):
    """The legal actions of a moment in `Game`'s order: an immutable sequence
    that makes a `Move` only when a play is read."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, key: int, /) -> _Action: ...
    @overload
    def __getitem__(self, key: slice, /) -> list[_Action]: ...
    def __iter__(self) -> Iterator[_Action]: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]
    def index(self, item: object) -> int: ...  # type: ignore[override]
    def count(self, item: object) -> int: ...
    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Every action as `VecEnv`'s legal columns (`cards`, `represents`, `kind`,
        `rank`, `length`); a word's cards are zeros."""

    def to_list(self) -> list[_Action]:
        """A plain list of the actions."""

@disjoint_base
class Table:
    """One deal of a preset on the core's table (docs/table.md); `ddz.Game`
    is a thin wrapper over it."""

    def __new__(
        cls, rules: Rules, seed: int = 0, deals: list[dict[str, Any]] | None = None
    ) -> Table: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def to_act(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    def legal_actions(self) -> ActionList: ...
    def step(self, action: _Action, cards: str | None = None) -> None:
        """Take `action`; `IllegalAction` leaves the table as it was."""

    def observation(self, seat: int) -> Observation:
        """Everything `seat` may know, and nothing more."""

    @property
    def result(self) -> Result | None: ...
    @property
    def deals(self) -> list[dict[str, Any]]: ...
    @property
    def actions(self) -> list[tuple[int, _Action, str | None]]: ...
    @property
    def history(self) -> list[tuple[int, str]]: ...
    @property
    def hands(self) -> list[list[str]]: ...
    @property
    def kitty(self) -> list[str]: ...
    @property
    def kitty_given(self) -> bool: ...
    @property
    def set_aside(self) -> list[str]: ...
    def _record_json(self, seed: int) -> str: ...
    @classmethod
    def _from_record(
        cls, text: str | bytes | bytearray, each: Callable[..., object] | None = None
    ) -> Any: ...
    @property
    def stake(self) -> int:
        """The multiplier the events so far build (the result's multiplier
        once the deal is over)."""
    @property
    def events(self) -> list[list[Any]]: ...
    def counts(self, seat: int) -> Cards: ...
    def _open_seat0(self) -> None: ...
    def report(self) -> dict[str, Any] | None:
        """Once over, the roles as `ddz.simulate` reports them (its role keys,
        and ``landlord_won``); None before."""
    def roles(self, seat: int | None = None) -> dict[str, Any]:
        """The roles as `seat` knows them (its observation's role keys); with
        no seat, as the referee knows them, hidden roles included."""
    def hands_seen_by(self, seat: int) -> list[int]: ...
    def kitty_seen_by(self, seat: int) -> bool: ...
    def visible(self, viewer: int, seat: int, action: str) -> bool: ...
    def _swap(self, pa: int | str, a: str, pb: int | str, b: str) -> None: ...
    def search(
        self,
        seed: int = 0,
        playouts: int | None = None,
        budget_us: int | None = None,
        threads: int | None = None,
        level: int | None = None,
    ) -> int:
        """The search player's choice for the seat to act: an index into
        `legal_actions()` (docs/bots.md); it reads only what that seat may see."""
    def policy_choice(self, name: str, seed: int = 0) -> int:
        """The built-in policy `name`'s choice for the seat to act ("random", "greedy",
        "rule", "search", "search:playouts=N"): an index into `legal_actions()`."""
    def _rank(
        self,
        k: int = 3,
        seed: int = 0,
        playouts: int | None = None,
        budget_us: int | None = None,
        threads: int | None = None,
    ) -> list[tuple[int, float, float, float]]: ...
    def position(self) -> SolverPosition | None:
        """The position `Rules.solve` takes, read off the table (play phase
        of a one-landlord table of two or three seats), else None."""

@final
class VecEnv:
    """`num_envs` deals of one rule set stepped in one call (docs/rl.md)."""

    kind_names: ClassVar[list[str]]
    phase_names: ClassVar[list[str]]

    def __new__(
        cls,
        preset_or_rules: str | Rules,
        num_envs: int,
        seed: int = 0,
        threads: int | None = None,
        *,
        seats: int | Sequence[int] | None = None,
        opponents: _BatchPlayer | Sequence[_BatchPlayer] | None = None,
        protocol: str = "full",
        history: int = 15,
        reward: str = "score",
        reward_for: str = "seat",
        max_redeals: int | None = 10,
        max_decisions: int | None = None,
        legal_ids: bool = False,
        action_mask: bool = False,
        max_actions: int | str | None = None,
        features: str | None = None,
        final_obs: bool = False,
        step_api: str = "done",
        copy: bool = True,
    ) -> VecEnv: ...
    def reset(self, seed: int | None = None) -> dict[str, npt.NDArray[Any]]:
        """Every env to the first deal of its series; the observations."""

    def step(self, actions: npt.ArrayLike, *, by: str | None = None) -> tuple[Any, ...]:
        """One action per env (a legal index, or with `by="id"` an action id) ->
        `(obs, rewards, done, info)`, or with `step_api="gymnasium"`
        `(obs, rewards, terminated, truncated, info)`. An env that numbers its actions
        needs `by` named."""

    def observe(self) -> dict[str, npt.NDArray[Any]]:
        """The observations of the last reset or step."""

    def observation(self, i: int) -> dict[str, Any]:
        """Env `i`'s deal as its seat to act sees it, as `Game.observation` gives it."""

    def observe_seat(self, i: int, seat: int) -> dict[str, npt.NDArray[Any]]:
        """Env `i`'s deal as `seat` sees it now: one row of each observation key."""

    @property
    def num_envs(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def history(self) -> int: ...
    @property
    def copy(self) -> bool:
        """Fresh arrays from every call, or (False) the env's own, which the next
        call overwrites."""
    @property
    def threads(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def preset(self) -> str: ...
    @property
    def role_keys(self) -> list[str]: ...
    @property
    def seats(self) -> list[int]:
        """The seats the learner plays."""
    @property
    def protocol(self) -> str: ...
    @property
    def reward_for(self) -> str: ...
    @property
    def max_redeals(self) -> int | None: ...
    @property
    def max_decisions(self) -> int | None: ...
    @property
    def max_actions(self) -> int | str | None:
        """The padded width of `padded_*` (an int; "step": each step as wide as
        its widest env; None: no padded tensors)."""
    @property
    def features(self) -> str | None:
        """The extra features written ("douzero"), or None."""
    @property
    def step_api(self) -> str: ...
    @property
    def action_table(self) -> ActionTable | None:
        """The fixed action ids of `legal_ids` (None unless `legal_ids` or `action_mask`)."""

@final
class ActionTable:
    """Every decision of a rule set numbered (docs/rl.md, "Fixed action ids")."""

    def __new__(cls, rules: Rules) -> ActionTable: ...
    def __len__(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    def action(self, action_id: int) -> _Action:
        """The decision `action_id` stands for: a `Move`, or its word."""
    def id(self, action: _Action | str) -> int:
        """The id of a `Move`, a word, or a play's text with one reading."""
    def columns(self, ids: npt.ArrayLike) -> dict[str, npt.NDArray[Any]]:
        """`kind`, `rank`, `length`, `cards`, `represents` of some ids."""

@final
class DouZeroCore:
    """DouZero's classic game and encoder, for `ddz.envs.douzero.Env` (docs/rl.md)."""

    def __new__(cls, seed: int) -> DouZeroCore: ...
    def deal(self) -> None: ...
    def reset(self, hands: Sequence[Sequence[int]], kitty: Sequence[int]) -> None: ...
    def step(self, action: Sequence[int]) -> bool | None: ...
    def observe(
        self,
    ) -> tuple[
        int,
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.int8],
        list[list[int]],
    ]: ...
    def hands(self) -> npt.NDArray[np.int16]: ...
    def rival_move(self) -> Move | None: ...
    @property
    def bombs(self) -> int: ...

@final
class ActionMasks:
    """A one-env `VecEnv` stepped into per-seat arrays made once (`ddz.envs.pettingzoo`)."""

    def __new__(
        cls,
        vec: VecEnv,
        rows: Sequence[dict[str, npt.NDArray[Any]]],
        masks: Sequence[npt.NDArray[np.int8]],
    ) -> ActionMasks: ...
    def restart(self) -> int: ...
    def legal_index(self, seat: int, id: int) -> int | None: ...
    def step(self, id: int) -> int | tuple[npt.NDArray[Any], dict[str, npt.NDArray[Any]]]: ...
