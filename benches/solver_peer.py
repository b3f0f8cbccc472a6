"""ddz's endgame solver beside YunyanDeng/doudizhu_endgame, alternated in one run.

    python benches/solver_peer.py --peer PATH [--rounds 5] [--only 13]

YunyanDeng/doudizhu_endgame (C++11, GPL; github.com/YunyanDeng/doudizhu_endgame) is
the fastest public two-hand solver we know of; it searches every root action on a
thread of its own.  ``--peer`` takes its built binary, or its source (the repository
or its ``doudizhu`` folder), which is then built with ``g++ -O3 -pthread`` (the
Release flags of its CMakeLists) into a temporary folder.  Without ``--peer`` (or
``DDZ_SOLVER_PEER``) the peer is skipped and only ddz's rows are timed.  Nothing of
the peer's code is part of ddz: it runs as its own process.

Each round runs, per position: the peer once (a fresh process: it reads the two
hands from stdin, the first the landlord's, who leads; it prints its own search
time, then the winning play or "can not win"), then ``rules.solve`` with the
default threads and with ``threads=1``, each a few times (a fresh solver each call).
The table gives the medians over the rounds and the ratio of the peer's own search
time to ddz's wall time (above 1: ddz is faster), with a 95% bootstrap interval over
the rounds (it says how far the rounds of one run move the ratio, not how far the
machine moves between runs).  Every peer run's verdict and play
are checked against ddz's (``all=True``: every winning play); a run that names a
losing play is counted and reported below the table (the peer's threads share a
table without a lock, keyed by a 32-bit hash, so this happens).

Card notation: ddz writes ten ``T``, small joker ``X``, big joker ``D``; the peer
(like the WZ403809264/doudizhu_solver README the puzzles come from) ``0``, ``Y``,
``Z``.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import machine  # noqa: E402

import ddz  # noqa: E402

#: (name, leader's hand, other hand) in ddz's notation; the leader is the landlord.
POSITIONS = [
    # WZ403809264/doudizhu_solver's README; level 50 of the WeChat app's expert tier.
    ("13 v 12 puzzle", "DAQQJJT999844", "X22AAT886633"),
    ("10 v 9 puzzle", "X2AK998553", "DQQJJT953"),
    # `cargo bench -p ddz-core --bench solve`: 13-v-12 deal #25 and 17-v-17 deal #7.
    ("13 v 12 deal #25", "356778TJJQKA2", "466778TJQAAX"),
    ("17 v 17 deal #7", "44566889TJQKKKA22", "345567789TTJJJQQ2"),
]

TO_PEER = str.maketrans({"T": "0", "X": "Y", "D": "Z"})
#: The peer prints a play high card first, space-separated, ten as "10".
PEER_CARD = {"10": "T", "'Little Joker'": "X", "'Big Joker'": "D"}
PEER_TOKEN = re.compile(r"'Little Joker'|'Big Joker'|10|[2-9JQKA]")
ORDER = "3456789TJQKA2XD"


def sorted_cards(text: str) -> str:
    return "".join(sorted(text, key=ORDER.index))


def build_peer(path: Path) -> Path | None:
    """The peer's binary: ``path`` itself, or built from the sources under it."""
    if path.is_file():
        return path
    for src in (path, path / "doudizhu"):
        sources = sorted(src.glob("*.cc"))
        if sources:
            break
    else:
        sys.exit(f"--peer {path}: neither a binary nor a folder of the peer's .cc sources")
    gxx = shutil.which("g++")
    if gxx is None:
        print("g++ not found: the peer is skipped")
        return None
    out = Path(tempfile.mkdtemp(prefix="ddz-solver-peer-")) / "doudizhu_endgame"
    cmd = [gxx, "-std=c++11", "-O3", "-pthread", "-o", str(out), *map(str, sources)]
    print("building the peer:", " ".join(cmd[:5]), f"... ({len(sources)} files)")
    subprocess.run(cmd, check=True)
    return out


def run_peer(binary: Path, leader: str, other: str, timeout: float):
    """One peer run: (own search seconds, process wall seconds, play or None), or None
    on timeout.  The process is killed once it has printed its first play: after that
    it waits on stdin for the other side's plays."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [str(binary)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    own = wall = None
    play: str | None = None
    verdict = False
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(f"{leader.translate(TO_PEER)}\n{other.translate(TO_PEER)}\n")
        proc.stdin.flush()  # left open: at EOF the peer would spin on empty input
        for line in proc.stdout:
            if line.startswith("search_multithreading time:"):
                wall = time.perf_counter() - t0
                own = float(line.split()[2])
            elif line.startswith("play: ["):
                tokens = PEER_TOKEN.findall(line[len("play: [") : line.rindex("]")])
                play = "".join(PEER_CARD.get(t, t) for t in tokens)
                verdict = True
                break
            elif line.startswith("can not win"):
                verdict = True
                break
    finally:
        timer.cancel()
        proc.kill()
        proc.wait()
    if not verdict or own is None or wall is None:
        return None
    return own, wall, play


def time_ddz(rules, hands, threads, n):
    times, nodes = [], []
    for _ in range(n):
        t = time.perf_counter()
        s = rules.solve(hands, threads=threads)
        times.append(time.perf_counter() - t)
        nodes.append(s.nodes)
    return times, nodes


def ratio_interval(peer: list[float], ddz: list[list[float]], draws: int = 2000):
    """A 95% bootstrap interval of the peer's median over ddz's, by round: rounds are
    drawn with replacement (each round's peer run with that round's ddz solves), so
    the interval shows how far the ratio moves with the rounds a run happens to get."""
    rng = random.Random(0)
    rounds = list(zip(peer, ddz))
    ratios = []
    for _ in range(draws):
        pick = [rounds[rng.randrange(len(rounds))] for _ in rounds]
        mine = [t for _, ts in pick for t in ts]
        ratios.append(statistics.median(p for p, _ in pick) / statistics.median(mine))
    ratios.sort()
    return ratios[int(0.025 * draws)], ratios[int(0.975 * draws) - 1]


def ms(x: float | None) -> str:
    if x is None:
        return "–"
    return f"{x * 1e3:,.1f} ms" if x < 10 else f"{x:,.1f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, default=os.environ.get("DDZ_SOLVER_PEER"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--seconds",
        type=float,
        default=0.3,
        help="ddz's share of a round per setting (as many solves as fit, 1 to 30)",
    )
    parser.add_argument(
        "--peer-budget",
        type=float,
        default=60.0,
        help="the peer's seconds per position: no more rounds for it after that",
    )
    parser.add_argument("--peer-timeout", type=float, default=120.0)
    parser.add_argument("--only", default="", help="positions whose name contains this")
    args = parser.parse_args()

    binary = build_peer(args.peer) if args.peer else None
    if binary is None:
        print("YunyanDeng/doudizhu_endgame: not given (--peer PATH): skipped, ddz rows only")
    rules = ddz.Rules("classic")
    print(machine())
    print(f"ddz default threads: {ddz.default_threads()}; load average at start:", end=" ")
    print(" ".join(f"{x:.2f}" for x in os.getloadavg()))
    rows = []
    truth_plays: dict[str, set[str]] = {}
    for name, leader, other in POSITIONS:
        if args.only not in name:
            continue
        hands = [leader, other]
        truth = rules.solve(hands, all=True)
        wins = {sorted_cards(str(m.cards)) for m in truth.plays}
        truth_plays[name] = wins or {"none: the leader loses"}
        first = time_ddz(rules, hands, None, 1)[0][0]  # also warms the thread's buffers
        n = max(1, min(30, int(args.seconds / max(first, 1e-6))))
        peer_own: list[float] = []
        peer_wall: list[float] = []
        peer_spent, peer_note = 0.0, ""
        wrong: list[str] = []
        every: list[float] = []
        by_round: list[list[float]] = []  # ddz's solves of the rounds the peer ran in
        one: list[float] = []
        nodes: list[int] = []
        for r in range(args.rounds):
            if binary is not None and peer_spent < args.peer_budget and not peer_note:
                got = run_peer(binary, leader, other, args.peer_timeout)
                if got is None:
                    peer_note = f"> {args.peer_timeout:g} s"
                else:
                    own, wall, play = got
                    # Its threads share a table without a lock, keyed by a 32-bit
                    # hash: a run may name a play that loses.  Counted, not fatal.
                    if (play is not None) != bool(truth.win) or (
                        play is not None and sorted_cards(play) not in wins
                    ):
                        wrong.append(play or "cannot win")
                    peer_own.append(own)
                    peer_wall.append(wall)
                    peer_spent += wall
            t, k = time_ddz(rules, hands, None, n)
            every += t
            if len(by_round) < len(peer_own):
                by_round.append(t)
            nodes += k
            one += time_ddz(rules, hands, 1, n)[0]
            if binary is not None and peer_own and len(peer_own) == r + 1:
                print(
                    f"  {name} round {r}: peer {ms(peer_own[-1])}, ddz {ms(statistics.median(t))}"
                    f" ({peer_own[-1] / statistics.median(t):.0f}x)",
                    flush=True,
                )
        rows.append(
            (
                name,
                leader,
                other,
                truth.win,
                peer_own,
                peer_wall,
                peer_note,
                every,
                by_round,
                one,
                nodes,
                wrong,
            )
        )
    print("load average at the end:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print()
    print(
        "| position | verdict | peer: own time / process wall (runs) | ddz, default threads"
        " (positions) | ddz, 1 thread | peer / ddz | 1 thread / default |"
    )
    print("|---|---|---|---|---|---|---|")
    notes = []
    for name, leader, other, win, own, wall, note, every, by_round, one, nodes, wrong in rows:
        d, o = statistics.median(every), statistics.median(one)
        if own:
            peer = f"{ms(statistics.median(own))} / {ms(statistics.median(wall))} ({len(own)})"
            ratio = f"{statistics.median(own) / d:.1f}x"
            if len(own) > 1:
                low, high = ratio_interval(own, by_round)
                ratio += f" ({low:.1f}-{high:.1f})"
        else:
            peer, ratio = note or "–", "–"
        verdict = "leader wins" if win else "leader loses"
        print(
            f"| {name}: {leader} v {other} | {verdict} | {peer} | {ms(d)}"
            f" ({int(statistics.median(nodes)):,}) | {ms(o)} | {ratio} | {o / d:.2f}x |"
        )
        if wrong:
            notes.append(
                f"{name}: {len(wrong)} of the peer's {len(own)} runs named a losing play"
                f" ({', '.join(wrong)}); ddz's winning plays:"
                f" {', '.join(sorted(truth_plays[name]))}."
            )
    print()
    for n in notes:
        print(n)
    print(
        "Medians: the peer's over its runs (one a round), ddz's over every solve of every"
        " round; ratios of the medians, with a 95% bootstrap interval over the rounds."
    )


if __name__ == "__main__":
    main()
