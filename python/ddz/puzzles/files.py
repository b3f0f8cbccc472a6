"""Puzzle files: JSONL (one puzzle dict a line) and CSV (docs/puzzles.md#files)."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

#: The keys of a puzzle dict.
KEYS = (
    "id",
    "preset",
    "hands",
    "forbid",
    "line",
    "length",
    "plays",
    "first_moves",
    "losing_first_moves",
    "themes",
    "rating",
    "rating_deviation",
    "source",
)

#: The CSV's columns, in order: the dict's keys, with the themes moved after
#: the ratings (lichess's database puts them there). Lists are joined: hands
#: and forbid with spaces, themes with spaces, the line as `seat:action`
#: with spaces.
CSV_COLUMNS = (
    *(k for k in KEYS if k not in ("themes", "source")),
    "themes",
    "source",
)


def write_jsonl(puzzles: Iterable[dict[str, Any]], out: IO[str]) -> int:
    n = 0
    for p in puzzles:
        out.write(json.dumps(p, ensure_ascii=False) + "\n")
        n += 1
    return n


def csv_row(p: dict[str, Any]) -> list[Any]:
    cells = dict(p)
    cells["hands"] = " ".join(p["hands"])
    cells["forbid"] = " ".join(p.get("forbid", []))
    cells["line"] = " ".join(f"{seat}:{action}" for seat, action in p["line"])
    cells["themes"] = " ".join(p.get("themes", []))
    return [cells.get(c, "") for c in CSV_COLUMNS]


def write_csv(puzzles: Iterable[dict[str, Any]], out: IO[str]) -> int:
    w = csv.writer(out)
    w.writerow(CSV_COLUMNS)
    n = 0
    for p in puzzles:
        w.writerow(csv_row(p))
        n += 1
    return n


def read(path: str | Path) -> list[dict[str, Any]]:
    """The puzzles of a JSONL file; ValueError naming the line that is not a puzzle."""
    out = []
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            if not text.strip():
                continue
            try:
                p = json.loads(text)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{number}: not JSON ({e.msg})") from None
            if not isinstance(p, dict):
                raise ValueError(f"{path}:{number}: a puzzle line is a JSON object")
            out.append(p)
    return out
