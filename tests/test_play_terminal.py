"""`ddz play` in a real pseudo-terminal of 80×24: a whole deal played with
hostile input along the way, and Ctrl-C."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest

pty = pytest.importorskip("pty")
termios = pytest.importorskip("termios")
fcntl = pytest.importorskip("fcntl")

ROWS, COLUMNS = 24, 80
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: Said at the prompt before the player takes option #1 every time.
HOSTILE = ["²", "#0", "#" + "9" * 1000, "9" * 1000, "3♣", "pas", "passes", "bid 9", "more", ""]


#: The question after each deal.
ANOTHER = "another deal? (y/n) > "


class Terminal:
    """A child process on a pseudo-terminal of ROWS × COLUMNS."""

    def __init__(self, *args: str) -> None:
        import struct

        size = struct.pack("HHHH", ROWS, COLUMNS, 0, 0)
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env.update(TERM="xterm-256color", PYTHONIOENCODING="utf-8")
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: size its terminal, then become ddz
            fcntl.ioctl(0, termios.TIOCSWINSZ, size)
            # Ctrl-C as a terminal delivers it, even when the shell that ran
            # the tests ignores SIGINT (a background job): exec keeps SIG_IGN.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.execve(sys.executable, [sys.executable, "-m", "ddz", *args], env)
        self.text = ""

    def read_until_prompt(self, timeout: float = 30) -> bool:
        """Read until the prompt ("> " at the end); False once the child exits."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the child closed the terminal: it has exited
                return False
            if not chunk:
                return False
            self.text += chunk.decode("utf-8", "replace")
            if ANSI.sub("", self.text).endswith("> "):
                return True
        raise AssertionError("no prompt and no exit:\n" + self.screen()[-2000:])

    def wait_for_read(self, timeout: float = 10) -> None:
        """Wait until the child sleeps in read() on its terminal.

        Seeing the prompt is not enough before a Ctrl-C: a SIGINT that lands
        between Python's last signal check and the read() call is only acted
        on once that read returns, which is the next Enter. People press
        Ctrl-C long after the prompt; a test types it within microseconds."""
        read = {"x86_64": "0", "aarch64": "63"}.get(os.uname().machine)
        deadline = time.monotonic() + timeout
        while read is not None and time.monotonic() < deadline:
            try:
                with open(f"/proc/{self.pid}/syscall") as f:
                    number, fd, *_ = f.read().split() + ["", ""]
            except OSError:
                break  # no /proc: fall back to a pause
            if number == read and fd == "0x0":
                return
            time.sleep(0.01)
        time.sleep(0.5)

    def send(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def wait(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)

    def screen(self) -> str:
        return ANSI.sub("", self.text).replace("\r\n", "\n")


def test_a_whole_deal_at_80_by_24_with_hostile_input() -> None:
    term = Terminal("play", "six-player-2v4", "--seed", "5", "--seat", "1")
    said = iter(HOSTILE)
    following = False
    turns = 0
    while term.read_until_prompt():
        if term.screen().endswith(ANOTHER):
            term.send("n")
            continue
        if not following and "to beat:" in term.screen()[-1000:]:
            following, said = True, iter(HOSTILE)  # once more, facing a play
        term.send(next(said, "#1"))
        turns += 1
        assert turns < 400
    assert term.wait() == 0
    text = term.screen()
    assert "Traceback" not in text
    # Never more than 80 columns (lines echoing what was typed aside).
    wide = [line for line in text.splitlines() if len(line) > COLUMNS and "> " not in line]
    assert not wide
    # Each of the player's turns fits the terminal: table state, hand, options, prompt.
    screens = re.findall(r"\n\n(six-player-2v4 · you are seat 1.*?)\n> ", text, re.S)
    assert screens and all(len(s.splitlines()) + 1 <= ROWS for s in screens)
    assert any("public mark" in s for s in screens)
    assert any("to beat:" in s and "played by" in s for s in screens)
    assert any("new trick:" in s for s in screens)
    assert any("landlord" in s.splitlines()[2] or "landlord" in s for s in screens)
    # The hostile answers were refused and the deal went on.
    assert text.count("not allowed") >= 2 * (len(HOSTILE) - 2)
    assert "no such option" in text
    # The end: a score table, not Python lists.
    table = text[text.rindex("result") :]
    rows = re.findall(r"^\W*(\d)\W+([a-z ,]*?)\s*│\s*(\d+)\s*│\s*([+-]\d+)", table, re.M)
    assert [int(seat) for seat, *_ in rows] == list(range(6))
    assert sum(int(score) for *_, score in rows) == 0
    assert "[[" not in table and "winners [" not in text


def test_ctrl_c_leaves_cleanly() -> None:
    term = Terminal("play", "classic", "--seed", "1")
    assert term.read_until_prompt()
    term.wait_for_read()
    os.write(term.fd, b"\x03")  # the terminal turns it into SIGINT
    assert not term.read_until_prompt()
    assert term.wait() == 130
    text = term.screen()
    assert "Traceback" not in text and text.rstrip().endswith("bye")


def test_any_input_on_a_pipe_keeps_the_game_going() -> None:
    answers = ["9" * 5000, "#" + "9" * 5000, "²", "\x00", "3♣ 3♦", "bid:2;rm", "PaSs"]
    p = subprocess.run(
        [sys.executable, "-m", "ddz", "play", "classic", "--seed", "3", "--seat", "1"],
        input="\n".join(answers + ["#1"] * 200) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr and "result" in p.stdout


def test_the_multiplier_shown_is_the_one_the_deal_scores() -> None:
    # The terminal shows `Game.stake`: at every step the multiplier the
    # events so far build (checked against the conformance kit's own
    # reading of the events), and the result's at the end.
    import ddz
    from ddz.agents import RandomAgent
    from ddz.testing import multiplier_of

    for preset in ddz.PRESETS:
        for seed in range(8):
            g, agent = ddz.Game(preset, seed=seed), RandomAgent(seed=seed)
            while g.phase != "over":
                assert g.stake == multiplier_of(g.events), preset
                g.step(agent.act(g.observation(g.to_act), g.legal_actions()))
            assert g.result is not None
            assert g.stake == g.result["multiplier"], preset


def test_a_terminal_without_unicode_still_plays_the_deal() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "ddz", "play", "classic", "--seed", "1"],
        input="#1\n" * 200,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    assert p.returncode == 0, p.stderr
    assert "result" in p.stdout
    assert re.search(r"your hand: .*\b[3-9JQKA][hsdc]\b", p.stdout)  # suits as letters


def test_two_deals_with_a_running_score_forced_passes_and_words() -> None:
    """Forced passes go by themselves, errors are words, and a second deal
    keeps the running score; the result names every role and the kept hands."""
    term = Terminal("play", "classic", "--seed", "1")
    deals = 0
    turns = 0
    said = iter(["bid 9", "zz", "3333"])
    while term.read_until_prompt():
        if term.screen().endswith(ANOTHER):
            deals += 1
            term.send("y" if deals == 1 else "n")
            continue
        term.send(next(said, "#1"))
        turns += 1
        assert turns < 400
    assert term.wait() == 0
    text = term.screen()
    assert "Traceback" not in text and deals == 2
    # Errors in words, never the engine's syntax.
    assert "allowed: pass, bid:" not in text and "bid:" not in text
    assert "'bid 9' is not a choice now: you may pass or bid" in text
    assert re.search(r"seat \d has [12] cards? left!", text)  # 报单/报双
    # 要不起: passes that were all the seat could do went by themselves.
    forced = re.findall(r"you: pass \(nothing in your hand beats (\S+)\)", text)
    assert forced
    # Two results; the second's totals are the two deals' scores summed.
    tables = [text[i:] for i in [m.start() for m in re.finditer(r"^result", text, re.M)]]
    assert len(tables) == 2
    row = r"^\W*(\d)\W+([a-z ,]+?)\s*│\s*(\d+)\s*│\s*([+-]\d+)\s*│\s*([+-]\d+)"
    first, second = (re.findall(row, t, re.M)[:3] for t in tables)
    assert [r[1] for r in first].count("landlord") == 1  # every role named
    for a, b in zip(first, second):
        assert int(b[4]) == int(a[3]) + int(b[3])
    assert "kept:" in text  # the losers' hands are shown


def test_a_refused_play_is_explained_in_words() -> None:
    import ddz
    from ddz.agents import GreedyAgent
    from ddz.cli.play import refusal

    game, agent = ddz.Game("classic", seed=8), GreedyAgent()
    while game.phase != "play":
        game.step(agent.act(game.observation(game.to_act), game.legal_actions()))
    me = game.to_act
    hand = game.observation(me)["hand"]
    legal = game.legal_actions()
    assert refusal(game, me, "pass", legal).startswith("you lead this trick")
    assert "neither cards nor a word" in refusal(game, me, "zz", legal)
    held = {c for c in hand if c.isupper() or c.isdigit()}
    absent = next(r for r in "3456789TJQKA2" if r not in held or hand.count(r) < 4)
    assert refusal(game, me, absent * 4, legal).startswith("you do not hold")
    game.step(next(a for a in legal if isinstance(a, ddz.Move) and a.kind == "single"))
    follower = game.to_act
    ranks = [c for c in game.observation(follower)["hand"] if not c.islower()]
    pair = next(r for r in ranks if ranks.count(r) >= 2) * 2
    why = refusal(game, follower, pair, game.legal_actions())
    assert why.startswith(f"{pair} (pair) does not beat"), why
