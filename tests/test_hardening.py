"""Hostile input to the batch APIs and `simulate`: every memory layout reads
the same, oversized requests and bad counts are refused by name before any
work, Ctrl-C stops a long call, thread pools are bounded, and memory stays
proportional to the output."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import ddz
from ddz.cli.sim import Tally

CLASSIC = ddz.Rules("classic")


def random_hands(rules: ddz.Rules, n: int, size: int, seed: int) -> np.ndarray:
    """`n` random hands of `size` cards from one deck, as count rows."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(15), [4] * 13 + [1, 1])
    rows = np.zeros((n, 16), np.uint8)
    for i in range(n):
        np.add.at(rows[i], rng.choice(deck, size, replace=False), 1)
    return rows


def layouts(a: np.ndarray) -> dict[str, np.ndarray]:
    """The same rows in other memory layouts: Fortran order, a transposed
    view, a strided slice of a bigger array, a negative stride."""
    wide = np.zeros((a.shape[0] * 2, 32), np.uint8)
    wide[::2, 1::2] = a
    return {
        "fortran": np.asfortranarray(a),
        "transposed": np.ascontiguousarray(a.T).T,
        "strided": wide[::2, 1::2],
        "reversed": np.ascontiguousarray(a[::-1])[::-1],
    }


HANDS = random_hands(CLASSIC, 300, 17, seed=1)
PREVS = np.stack([CLASSIC.cards(t).counts for t in ["33", "", "5", "8889", "", "TJQKA"] * 50])


@pytest.mark.parametrize("layout", ["fortran", "transposed", "strided", "reversed"])
def test_every_memory_layout_reads_as_its_c_ordered_copy(layout: str) -> None:
    want_counts = CLASSIC.count_moves_batch(HANDS, PREVS)
    want_offsets, want_plays = CLASSIC.moves_batch(HANDS, PREVS)
    hands, prevs = layouts(HANDS)[layout], layouts(PREVS)[layout]
    assert not hands.flags.c_contiguous and not prevs.flags.c_contiguous
    for h, p in [(hands, PREVS), (HANDS, prevs), (hands, prevs)]:
        assert (CLASSIC.count_moves_batch(h, p) == want_counts).all()
        offsets, plays = CLASSIC.moves_batch(h, p)
        assert (offsets == want_offsets).all() and (plays == want_plays).all()
    # And the answers are the single calls' answers, row by row.
    for i in range(0, 300, 37):
        prev = CLASSIC.cards(PREVS[i]) if PREVS[i].any() else None
        assert want_counts[i] == CLASSIC.count_moves(CLASSIC.cards(HANDS[i]), prev)


def test_a_fortran_ordered_pair_stays_a_pair() -> None:
    hands = np.stack([CLASSIC.cards("3344KK").counts] * 3)
    prevs = np.asfortranarray(np.stack([CLASSIC.cards("QQ").counts] * 3))
    assert list(CLASSIC.count_moves_batch(hands, prevs)) == [1, 1, 1]  # KK only


@pytest.mark.parametrize(
    ("kwargs", "error", "named"),
    [
        ({"games": 10**12}, MemoryError, "1000000000000 deals need"),
        ({"games": 2**63}, MemoryError, "more than 2**64 bytes"),
        ({"games": 5, "first": 2**64 - 4}, ValueError, "first + games"),
        ({"games": 2**64}, ValueError, "games must be"),
        ({"games": 1, "threads": -1}, ValueError, "threads must be between 1 and 256"),
        ({"games": 1, "threads": 2**40}, ValueError, "threads must be between 1 and 256"),
        ({"games": 1, "threads": 1.5}, TypeError, "threads must be an int"),
        ({"games": 1, "record": -1}, ValueError, "record must be"),
        ({"games": 1, "first": -1}, ValueError, "first must be"),
        ({"games": 1, "seed": -1}, ValueError, "seed must be"),
    ],
)
def test_bad_or_oversized_simulate_requests_are_refused_by_name(kwargs, error, named) -> None:
    with pytest.raises(error) as e:
        ddz.simulate("classic", **kwargs)
    assert named in str(e.value)


def test_the_last_deals_of_the_64_bit_series_can_be_played() -> None:
    out = ddz.simulate("classic", 5, first=2**64 - 5)
    assert out["scores"].shape == (5, 3)


@pytest.mark.parametrize("threads", [-1, 0, 257, 2**40, 2**70])
def test_batch_threads_are_bounded(threads: int) -> None:
    for call in (CLASSIC.count_moves_batch, CLASSIC.moves_batch):
        with pytest.raises(ValueError, match="threads must be between 1 and 256"):
            call(HANDS, threads=threads)
    with pytest.raises(TypeError, match="threads must be an int"):
        CLASSIC.count_moves_batch(HANDS, threads=True)


def run_python(code: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_thread_pools_are_reused_not_left_behind() -> None:
    p = run_python(
        """
        import time, numpy as np, ddz
        r = ddz.Rules("classic")
        hands = np.stack([r.cards("33445566778899TJQKA2XD").counts] * 2000)
        def threads():
            status = open("/proc/self/status").read()
            return int(status.split("Threads:")[1].split()[0])
        for t in range(2, 60):
            r.count_moves_batch(hands, threads=t)
        for _ in range(3):
            r.count_moves_batch(hands, threads=8)  # a kept pool, reused
        deadline = time.time() + 5
        while threads() > 300 and time.time() < deadline:
            time.sleep(0.05)  # dropped pools' threads exit on their own
        print(threads())
        """
    )
    assert p.returncode == 0, p.stderr
    # Counts 2..59 would leave 1,769 threads; four kept pools hold at most 230.
    assert int(p.stdout) <= 300


# The child takes Python's own Ctrl-C handler back: a shell running the
# tests in the background ignores SIGINT, and its children inherit that.
INTERRUPTED = """
    import signal, sys, time, numpy as np, ddz
    signal.signal(signal.SIGINT, signal.default_int_handler)
    def call():
        {call}
    print("ready", flush=True)
    try:
        call()
        print("finished")
    except KeyboardInterrupt:
        print("interrupted", flush=True)
"""


@pytest.mark.parametrize(
    "call",
    [
        'ddz.simulate("classic", 20_000_000, threads=1)',
        'r = ddz.Rules("laizi"); '
        'r.moves_batch(np.stack([r.cards("334455667789TJQKLL").counts] * 2_000_000), threads=1)',
        'r = ddz.Rules("laizi"); '
        'r.count_moves_batch(np.stack([r.cards("334455667789TJQKLL").counts] * 2_000_000))',
    ],
    ids=["simulate", "moves_batch", "count_moves_batch"],
)
def test_ctrl_c_stops_a_long_call(call: str) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(INTERRUPTED.format(call=call))],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        time.sleep(0.5)  # well inside the call, which takes minutes
        child.send_signal(signal.SIGINT)
        out, errors = child.communicate(timeout=20)
    finally:
        child.kill()
    assert out.strip() == "interrupted", errors
    assert "PanicException" not in errors


def peak_growth(setup: str, call: str) -> dict:
    """Peak resident memory added by `call` after `setup`, in bytes, with
    whatever `call` leaves in `result` (json)."""
    p = run_python(
        f"""
        import json, resource, numpy as np, ddz
        {setup}
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        {call}
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        result["grew"] = (after - before) * 1024
        print(json.dumps(result))
        """
    )
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_simulate_keeps_no_memory_per_deal_beyond_its_result_arrays() -> None:
    got = peak_growth(
        'ddz.simulate("classic", 50_000, threads=2)',
        'out = ddz.simulate("classic", 200_000, threads=2); '
        "result = {'arrays': sum(a.nbytes for a in out.values())}",
    )
    # The allocator may round up; nothing else grows with the deals.
    assert got["grew"] <= got["arrays"] * 1.1 + 2**20


def test_moves_batch_peaks_near_its_output() -> None:
    got = peak_growth(
        'r = ddz.Rules("classic"); rng = np.random.default_rng(0); '
        "hands = np.array([np.bincount(rng.choice(np.repeat(np.arange(15), [4] * 13 + [1, 1]), "
        "17, replace=False), minlength=16) for _ in range(20_000)], np.uint8); "
        "r.moves_batch(hands[:500])",
        "offsets, plays = r.moves_batch(hands); result = {'output': offsets.nbytes + plays.nbytes}",
    )
    assert got["output"] > 10 * 2**20
    assert got["grew"] <= 1.2 * got["output"]


def test_the_simulate_command_streams_its_summary() -> None:
    code = """
        import resource, sys
        from ddz.cli import main
        main(["simulate", "classic", "-n", sys.argv[1], "--threads", "2", "--json"])
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, file=sys.stderr)
    """
    peaks = []
    for n in ("20000", "200000"):
        p = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code), n],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert p.returncode == 0, p.stderr
        peaks.append(int(p.stderr.split()[-1]))
    # 180,000 more deals, in parts of 20,000: no more than a few bytes each.
    assert peaks[1] - peaks[0] < 180_000 * 8


def test_the_streamed_summary_is_the_summary_of_every_deal() -> None:
    parts = [ddz.simulate("five-player", 700, seed=3, first=k) for k in (0, 700, 1400)]
    tally = Tally()
    for part in parts:
        tally.add(part)
    scores = np.concatenate([p["scores"][np.arange(700), p["landlord"]] for p in parts])
    for q in (0, 10, 37.5, 50, 90, 100):
        assert tally.percentile(q) == pytest.approx(np.percentile(scores, q))
    assert tally.mean_score() == pytest.approx(scores.mean())


def test_error_messages_name_what_was_given() -> None:
    with pytest.raises(ValueError, match=r"bad value 1000000000000000000000000000000 for option"):
        ddz.Rules("classic", decks=10**30)
    with pytest.raises(ValueError, match=r'bad value nan for option "spring"'):
        ddz.Rules("classic", spring=float("nan"))
    with pytest.raises(ValueError, match=r'^"" is not a legal play'):
        CLASSIC.moves("3344", "")
    with pytest.raises(ValueError) as e:
        CLASSIC.count_moves_batch(HANDS[:3], ["33", "44", "Q?"])
    assert str(e.value).startswith("prevs[2]: unknown card symbol")
    with pytest.raises(TypeError) as t:
        CLASSIC.count_moves_batch(HANDS[:2], ["33", 7])
    assert str(t.value).startswith("prevs[1]: expected cards")


def test_the_simulate_command_refuses_bad_threads_in_one_line() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "ddz", "simulate", "classic", "-n", "10", "--threads", "-1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 2
    assert p.stderr.strip() == "ddz: error: --threads must be between 1 and 256, not -1"


def game_in_play() -> ddz.Game:
    g = ddz.Game("classic", seed=1)
    while g.phase != "play":
        g.step("bid:3" if "bid:3" in g.legal_actions() else g.legal_actions()[0])
    return g


def test_game_errors_say_what_is_wrong() -> None:
    g = game_in_play()
    record = g.to_json()
    for passing in ("pass", "PASS", "Pass"):
        with pytest.raises(ddz.IllegalAction, match="a lead cannot pass"):
            g.step(passing)
    with pytest.raises(ddz.IllegalAction, match=r'^"" is not a legal play'):
        g.step("")
    assert g.to_json() == record  # refused actions changed nothing
    with pytest.raises(ValueError, match="seat must be an int"):
        g.observation(True)  # type: ignore[arg-type]
    # Words are taken in any case while following: 'PASS' is pass.
    g.step(g.legal_actions()[0])
    g.step("PASS")
    assert json.loads(g.to_json())["actions"][-1][1] == "pass"


def test_default_threads_are_within_the_bound() -> None:
    assert 1 <= ddz.default_threads() <= 256


def test_a_batch_too_big_for_memory_is_refused_after_counting() -> None:
    # 2,000,000 rows of a hand with 4,068 leads: 130 GB of plays.
    rules = ddz.Rules("six-player-3v3-kitty")
    hand = rules.cards("33445566777888999TTTJJJQQQKKKAA22XXDD")
    assert rules.count_moves(hand) == 4068
    with pytest.raises(MemoryError, match="the 8136000000 plays of 2000000 hands need"):
        rules.moves_batch(np.stack([hand.counts] * 2_000_000))
