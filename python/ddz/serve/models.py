"""The request and reply bodies, as pydantic models: FastAPI checks every
request against them and publishes them in /openapi.json.

Strict models: a seed of "7" or an action of 7 is a 422, not a guess.
(No `from __future__ import annotations` here: pydantic reads the hints at
run time, and ``dict[str, Any]`` works from Python 3.9 on.)
"""

from typing import Annotated, Any, Literal, Optional

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from .bots import BOT_KINDS

#: Longest idempotency key, action text and card list accepted.
MAX_KEY = 128
MAX_ACTION = 200


def _known_bot(kind: str) -> str:
    if kind not in BOT_KINDS:
        raise ValueError(f"no bot kind {kind!r}: the kinds are {', '.join(BOT_KINDS)}")
    return kind


#: A bot kind's name: one of bots.BOT_KINDS, listed as an enum in /openapi.json.
BotName = Annotated[
    str,
    AfterValidator(_known_bot),
    WithJsonSchema({"type": "string", "enum": list(BOT_KINDS)}),
]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class NewTable(_Strict):
    preset: str = Field(description="a preset name, as in ddz.PRESETS", examples=["classic"])
    options: dict[str, Any] = Field(
        default_factory=dict, description="keyword options of ddz.Rules(preset, **options)"
    )
    seed: Optional[int] = Field(
        None,
        ge=0,
        lt=2**63,
        description="deal number k is drawn from seed + k; without one, each deal's seed is "
        "drawn by the server and kept secret until that deal is over",
    )
    deal: Optional[dict[str, Any]] = Field(
        None,
        description='the first deal, as ddz.Game(deal=...) takes it: {"hands": [...], '
        '"kitty": "...", "first": 0}',
    )
    bots: dict[str, BotName] = Field(
        default_factory=dict,
        description='seats played by the server, e.g. {"1": "greedy", "2": "random"}: each key '
        'a seat number in decimal ("0" to "N-1", no leading zeros), each once',
    )

    # ---- the game room (room.py; docs/server.md, The game room) ----
    turn_seconds: float = Field(
        0, ge=0, le=3600, description="seconds a person has for a turn; 0: no clock"
    )
    auction_seconds: Optional[float] = Field(
        None,
        ge=0,
        le=3600,
        description="seconds for a decision before the play (bids and the like); default "
        "turn_seconds",
    )
    first_turn_seconds: Optional[float] = Field(
        None, ge=0, le=3600, description="seconds for a deal's first play; default turn_seconds"
    )
    autoplay_after: int = Field(
        2, ge=0, le=100, description="timeouts in a row that put a seat in 托管; 0: never"
    )
    bot_delay_ms: int = Field(
        800,
        ge=0,
        le=10_000,
        description="milliseconds between two bot actions at a table with a person (with a "
        "little jitter); 0: the bots answer inside the person's request",
    )
    card_counter: bool = Field(True, description="each seat's view carries the card counter")
    hints: Literal["off", "legal", "search"] = Field(
        "legal", description="what GET /tables/{id}/hints offers"
    )
    autoplay_bot: Optional[BotName] = Field(
        None,
        description="the bot that plays a timed-out or 托管 seat; default the table's bots' "
        "most common kind, else greedy",
    )

    def room(self) -> dict:
        """The game room's options, as the table's spec keeps them."""
        return {name: getattr(self, name) for name in ROOM_FIELDS}


ROOM_FIELDS = (
    "turn_seconds",
    "auction_seconds",
    "first_turn_seconds",
    "autoplay_after",
    "bot_delay_ms",
    "card_counter",
    "hints",
    "autoplay_bot",
)


class AutoplayRequest(_Strict):
    on: bool = Field(description="true: the server plays the seat (托管); false: the person does")


class NewTableReply(BaseModel):
    id: str
    tokens: dict[str, str] = Field(description="one bearer token per seat that is not a bot")
    owner: str = Field(description="the creator's bearer token: it may close the table")


class ActionRequest(_Strict):
    action: str = Field(
        min_length=1,
        max_length=MAX_ACTION,
        description="one of the view's legal_actions, or a play's cards ('33', '9h9d', 'pass')",
    )
    key: str = Field(
        min_length=1,
        max_length=MAX_KEY,
        description="idempotency key: a retry with the same key is never applied twice",
    )
    cards: Optional[str] = Field(
        None,
        max_length=MAX_ACTION,
        description="the suited copies a play takes from the hand ('9h9d'); default: lowest suits",
    )
    kind: Optional[str] = Field(None, description="the play's kind, when its text has several")
    rank: Optional[str] = Field(None, description="the play's rank, when its text has several")
    length: Optional[int] = Field(None, description="the play's length, when its text has several")


class Error(BaseModel):
    error: str = Field(description="what is wrong, in one sentence")
