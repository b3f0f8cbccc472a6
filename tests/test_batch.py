"""numpy batch APIs: same answers as single calls, clear errors, fork safety."""

from __future__ import annotations

import multiprocessing
import os
import random
import subprocess
import sys

import numpy as np
import pytest

import ddz

CLASSIC = ddz.Rules("classic")


def random_hands(n: int, size: int, seed: int) -> np.ndarray:
    rng = random.Random(seed)
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    out = np.zeros((n, 16), dtype=np.uint8)
    for row in out:
        for r in rng.sample(deck, size):
            row[r] += 1
    return out


def some_prevs(n: int, seed: int) -> list[ddz.Move | None]:
    rng = random.Random(seed)
    prevs: list[ddz.Move | None] = []
    for row in random_hands(n, 17, seed + 1):
        leads = CLASSIC.moves(row)
        prevs.append(None if rng.random() < 0.2 else leads[rng.randrange(len(leads))])
    return prevs


@pytest.mark.parametrize("threads", [1, 2, None])
def test_batches_equal_single_calls(threads: int | None) -> None:
    hands = random_hands(300, 20, seed=1)
    prevs = some_prevs(300, seed=2)
    counts = CLASSIC.count_moves_batch(hands, prevs, threads=threads)
    offsets, plays = CLASSIC.moves_batch(hands, prevs, threads=threads)
    assert counts.dtype == np.int64 and counts.shape == (300,)
    assert offsets.dtype == np.int64 and offsets.shape == (301,) and offsets[0] == 0
    assert plays.dtype == np.uint8 and plays.shape == (offsets[-1], 16)
    for i, (hand, prev) in enumerate(zip(hands, prevs)):
        want = CLASSIC.moves(hand, prev)
        assert counts[i] == len(want) == offsets[i + 1] - offsets[i]
        assert np.array_equal(plays[offsets[i] : offsets[i + 1]], want.counts().reshape(-1, 16))
    leads = CLASSIC.count_moves_batch(hands)
    assert list(leads) == [CLASSIC.count_moves(h) for h in hands]


def test_prevs_as_text_or_count_rows() -> None:
    hands = random_hands(20, 20, seed=3)
    as_text = ["8889", None, "5"] + [None] * 17
    rows = np.zeros((20, 16), dtype=np.uint8)
    rows[0] = CLASSIC.cards("8889").counts
    rows[2] = CLASSIC.cards("5").counts
    assert list(CLASSIC.count_moves_batch(hands, as_text)) == list(
        CLASSIC.count_moves_batch(hands, rows)
    )
    assert CLASSIC.count_moves_batch(hands, as_text)[0] == CLASSIC.count_moves(hands[0], "8889")


@pytest.mark.parametrize(
    ("hands", "needle"),
    [
        (np.zeros((3, 16), dtype=np.float64), "uint8"),
        (np.zeros((3, 15), dtype=np.uint8), "(N, 16)"),
        (np.zeros(16, dtype=np.uint8), "(N, 16)"),
        ([[0] * 16], "uint8"),
    ],
)
def test_bad_hands_are_value_errors(hands: object, needle: str) -> None:
    with pytest.raises(ValueError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        CLASSIC.count_moves_batch(hands)


def test_bad_rows_and_prevs_are_named() -> None:
    hands = np.zeros((4, 16), dtype=np.uint8)
    hands[2, 0] = 5
    with pytest.raises(ValueError, match=r"hands\[2\].*'3'"):
        CLASSIC.moves_batch(hands)
    ok = random_hands(4, 10, seed=4)
    with pytest.raises(ValueError, match="prevs has 2 rows"):
        CLASSIC.count_moves_batch(ok, [None, None])
    with pytest.raises(ValueError, match=r"prevs\[1\].*readings"):
        CLASSIC.count_moves_batch(ok, [None, "333444555666", None, None])
    with pytest.raises(ValueError, match="threads"):
        CLASSIC.count_moves_batch(ok, threads=0)


def test_empty_batch() -> None:
    empty = np.zeros((0, 16), dtype=np.uint8)
    assert CLASSIC.count_moves_batch(empty).shape == (0,)
    offsets, plays = CLASSIC.moves_batch(empty)
    assert list(offsets) == [0] and plays.shape == (0, 16)


def _child_counts(queue: multiprocessing.Queue) -> None:
    hands = random_hands(200, 20, seed=5)
    queue.put(int(CLASSIC.count_moves_batch(hands, threads=2).sum()))


def test_batches_work_in_forked_children() -> None:
    # The parent has used its thread pool; a forked child inherits no threads
    # and must not wait on them.
    hands = random_hands(200, 20, seed=5)
    want = int(CLASSIC.count_moves_batch(hands, threads=2).sum())
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child_counts, args=(queue,))
    child.start()
    child.join(timeout=60)
    assert child.exitcode == 0, "forked child hung or failed"
    assert queue.get(timeout=5) == want


def test_ddz_num_threads_sets_the_default() -> None:
    code = (
        "import numpy as np, ddz;"
        "h = np.zeros((5, 16), dtype=np.uint8); h[:, 0] = 4;"
        "print(ddz.default_threads(), ddz.Rules('classic').count_moves_batch(h).sum())"
    )
    for setting, threads in (("3", "3"), ("1", "1"), ("", str(os.cpu_count()))):
        env = dict(os.environ, DDZ_NUM_THREADS=setting)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == [threads, str(5 * CLASSIC.count_moves("3333"))]


def test_a_batch_of_several_blocks_equals_single_calls() -> None:
    # More rows than the first block on two threads (2 x 16,384), so the batch
    # runs in more than one pass; 2,003 distinct hands, so that no block
    # boundary falls on a whole number of repeats.
    distinct = random_hands(2003, 20, seed=6)
    want = np.array([CLASSIC.count_moves(h) for h in distinct])
    hands = np.tile(distinct, (20, 1))
    got = CLASSIC.count_moves_batch(hands, threads=2)
    np.testing.assert_array_equal(got, np.tile(want, 20))
