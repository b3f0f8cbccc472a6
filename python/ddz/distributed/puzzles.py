"""`ddz.distributed.puzzles.generate`: `ddz.puzzles.generate` with its
candidate blocks as Ray tasks. Candidate `i` of a series depends on
(seed, i) alone and the first `n` puzzles by candidate index are kept, so
the list is the local run's, whatever the nodes and the tasks."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import ray

import ddz
from ddz import Rules
from ddz.puzzles import _arguments, search_block

from .cluster import check_version, connect, total_cpus
from .parts import RETRIES

#: Candidates a task analyses (a few seconds of one core for classic).
BLOCK = 64


@ray.remote(num_cpus=1, max_retries=RETRIES)
def _block(
    rules: dict,
    seed: int,
    first: int,
    size: int,
    hands: int,
    forbid: list[str],
    cards: tuple[int, int],
    source: str,
    version: str,
) -> list[tuple[int, dict[str, Any]]]:
    check_version(version)
    return search_block(
        Rules.from_dict(rules), seed, first, size, hands, forbid, cards, source, threads=1
    )


def generate(
    preset: str | Rules = "classic",
    n: int = 10,
    seed: int = 0,
    hands: int = 2,
    forbid: Iterable[str] | None = None,
    cards: Sequence[int] | None = None,
    *,
    source: str = "mixed",
    max_candidates: int | None = None,
    block: int = BLOCK,
    address: str | None = None,
) -> list[dict[str, Any]]:
    """The puzzles ``ddz.puzzles.generate`` returns for the same arguments,
    made on a Ray cluster (`address` as in `ddz.distributed.simulate`).
    Blocks of `block` candidates go out a round at a time, a few per CPU,
    until `n` puzzles are found."""
    rules, forbid_list, lohi = _arguments(preset, n, seed, hands, forbid, cards, source)
    if isinstance(block, bool) or not isinstance(block, int) or block < 1:
        raise ValueError(f"block must be a positive int, not {block!r}")
    limit = max_candidates if max_candidates is not None else 2000 * max(n, 1)
    connect(address)
    rules_dict = rules.to_dict()
    found: list[tuple[int, dict[str, Any]]] = []
    first = 0
    while len(found) < n and first < limit:
        refs = []
        for _ in range(2 * total_cpus()):
            if first >= limit:
                break
            size = min(block, limit - first)
            refs.append(
                _block.remote(
                    rules_dict, seed, first, size, hands, forbid_list, lohi, source, ddz.__version__
                )
            )
            first += size
        for part in ray.get(refs):
            found.extend(part)
    found.sort(key=lambda item: item[0])
    return [p for _, p in found[:n]]
