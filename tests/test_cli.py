"""The `ddz` command line, driven as a subprocess (`python -m ddz ...`)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import ddz


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ddz", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def ok(*args: str) -> str:
    p = run(*args)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    return p.stdout


def assert_usage_error(p: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert p.returncode == 2
    assert p.stdout == ""
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("ddz: error: ")
    assert "Traceback" not in p.stderr
    for needle in needles:
        assert needle in lines[0]


# --- moves ----------------------------------------------------------------


def test_moves_lead_human() -> None:
    out = ok("moves", "classic", "33445XD").splitlines()
    assert out[-1] == "8 plays"
    rows = [line.split() for line in out[:-1]]
    assert rows == [
        ["3", "single", "rank", "3"],
        ["33", "pair", "rank", "3"],
        ["4", "single", "rank", "4"],
        ["44", "pair", "rank", "4"],
        ["5", "single", "rank", "5"],
        ["X", "single", "rank", "X"],
        ["D", "single", "rank", "D"],
        ["XD", "king_bomb", "rank", "D", "length", "2"],
    ]


def test_moves_columns_are_aligned() -> None:
    out = ok("moves", "classic", "3334445566XD").splitlines()[:-1]
    assert any(line.startswith("3334  ") for line in out)
    kind_col = {line.index(line.split()[1]) for line in out}
    rank_col = {line.index("rank ") for line in out}
    assert len(kind_col) == 1
    assert len(rank_col) == 1
    trio_single = next(line for line in out if line.split()[0] == "3334")
    assert trio_single.split() == ["3334", "trio_single", "rank", "3"]


def test_moves_follow_human_uses_hint_order() -> None:
    rules = ddz.Rules("classic")
    hand = "3456789TJQKA22XD"
    out = ok("moves", "classic", hand, "--prev", "8").splitlines()
    assert out[-1].startswith("10 plays")
    assert [line.split()[0] for line in out[:-1]] == [str(m) for m in rules.hint(hand, "8")]


def test_moves_json() -> None:
    rules = ddz.Rules("two-player")
    hand = "3334445566XD"
    data = json.loads(ok("moves", "two-player", hand, "--json"))
    assert isinstance(data, list)
    expected = rules.hint(hand)
    assert len(data) == len(expected) == rules.count_moves(hand)
    for item, m in zip(data, expected):
        assert set(item) == {"cards", "kind", "rank", "length", "represents"}
        assert item == {
            "cards": str(m.cards),
            "kind": m.kind,
            "rank": m.rank,
            "length": m.length,
            "represents": str(m.represents),
        }


def test_moves_json_with_prev() -> None:
    data = json.loads(ok("moves", "classic", "3456789TJQKA", "--prev", "34567", "--json"))
    assert [d["cards"] for d in data] == [
        "45678",
        "56789",
        "6789T",
        "789TJ",
        "89TJQ",
        "9TJQK",
        "TJQKA",
    ]
    assert {d["kind"] for d in data} == {"straight"}
    assert {d["length"] for d in data} == {5}


def test_moves_loose_card_text() -> None:
    a = ok("moves", "classic", "3 3 10 t,J+x D 9h", "--json")
    b = ok("moves", "classic", "339TTJXD", "--json")
    assert a == b


def test_moves_none_and_empty() -> None:
    assert ok("moves", "classic", "3", "--prev", "XD").splitlines() == [
        "0 plays beat XD (king_bomb rank D)"
    ]
    assert ok("moves", "classic", "").splitlines() == ["0 plays"]
    assert json.loads(ok("moves", "classic", "3", "--prev", "2", "--json")) == []


def test_one_play_is_singular() -> None:
    assert ok("moves", "classic", "3").splitlines()[-1] == "1 play"


# --- classify ---------------------------------------------------------------


def test_classify_human() -> None:
    out = ok("classify", "classic", "333444555666").splitlines()
    assert out[-1] == "3 readings"
    assert [line.split() for line in out[:-1]] == [
        ["333444555666", "trio_straight", "rank", "6", "length", "4"],
        ["333444555666", "plane_singles", "rank", "5", "length", "3"],
        ["333444555666", "plane_singles", "rank", "6", "length", "3"],
    ]


def test_classify_json() -> None:
    data = json.loads(ok("classify", "classic", "3 3 3 4", "--json"))
    assert data == [
        {"cards": "3334", "kind": "trio_single", "rank": "3", "length": 1, "represents": "3334"}
    ]


def test_classify_not_a_play() -> None:
    assert ok("classify", "classic", "34").splitlines() == ["34 is not a play"]
    assert json.loads(ok("classify", "classic", "34", "--json")) == []


def test_classify_other_preset() -> None:
    data = json.loads(ok("classify", "four-player", "XXDD", "--json"))
    assert [(d["kind"], d["rank"], d["length"]) for d in data] == [("king_bomb", "D", 4)]


# --- errors -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["moves", "nope", "33"], ["nope", "classic", "two-player", "six-player-teams"]),
        (["classify", "nope", "33"], ["nope", "classic"]),
        (["moves", "classic", "3z"], ["'z'"]),
        (["moves", "classic", "33333"], ["'3'", "copies"]),
        (["moves", "classic", "XX"], ["'X'"]),
        (["moves", "classic", "3L"], ["'L'"]),
        (["classify", "classic", "9H"], ["'H'"]),
        (["classify", "two-player", "DD"], ["'D'"]),
        (["classify", "laizi", "3LLL"], ["'L'", "copies"]),
        (["moves", "classic", "33", "--prev", "34"], ["--prev", "34", "not a play"]),
        (["moves", "classic", "33", "--prev", ""], ["--prev"]),
        (["moves", "classic", "33", "--prev", "3q?"], ["--prev", "'?'"]),
        (["moves", "classic", "33", "--prev", "333444555666"], ["--prev", "3 readings"]),
        (["moves", "classic", "33", "--prev", "XXDD"], ["--prev", "'X'"]),
        ([], ["command"]),
        (["bogus"], ["bogus"]),
        (["moves", "classic"], ["HAND"]),
        (["classify"], ["PRESET"]),
        (["moves", "classic", "33", "--bad-flag"], ["--bad-flag"]),
        (["moves", "classic", "33", "--prev"], ["--prev"]),
    ],
)
def test_errors_are_one_line_exit_2(args: list[str], needles: list[str]) -> None:
    assert_usage_error(run(*args), *needles)


def test_help_and_version() -> None:
    out = ok("--help")
    assert "moves" in out and "classify" in out
    assert "--prev" in ok("moves", "--help")
    assert ddz.__version__ in ok("--version")


def test_main_callable_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    from ddz.cli import main

    assert main(["classify", "classic", "XD"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 reading"
    assert main(["classify", "classic", "XX"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ddz: error: ") and err.count("\n") == 1


def test_simulate_summary_and_json_repeat_for_a_seed() -> None:
    text = ok("simulate", "classic", "-n", "3000", "--seed", "4")
    for label in ("landlord side wins", "farmer side wins", "mean turns", "bombs per deal"):
        assert label in text
    first = json.loads(ok("simulate", "classic", "-n", "3000", "--seed", "4", "--json"))
    again = json.loads(ok("simulate", "classic", "-n", "3000", "--seed", "4", "--json"))
    first.pop("deals_per_second"), again.pop("deals_per_second")
    assert first == again
    assert first["games"] == 3000
    score = first["landlord_score"]
    assert score["min"] <= score["p10"] <= score["p50"] <= score["p90"] <= score["max"]
    assert score["min"] <= score["mean"] <= score["max"]
    assert abs(first["landlord_win_rate"] + first["farmer_win_rate"] - 1) < 1e-9
    # Played in parts (more than one chunk), the series is the same as in one go.
    whole = ddz.simulate("classic", 25_000, seed=4)
    wins = float((whole["winner_side"] == 0).mean())
    parts = json.loads(ok("simulate", "classic", "-n", "25000", "--seed", "4", "--json"))
    assert parts["landlord_win_rate"] == wins


@pytest.mark.parametrize("preset", list(ddz.PRESETS))
def test_simulate_every_preset(preset: str) -> None:
    summary = json.loads(ok("simulate", preset, "-n", "300", "--seed", "2", "--json"))
    assert summary["preset"] == preset and summary["games"] == 300
    assert abs(summary["landlord_win_rate"] + summary["farmer_win_rate"] - 1) < 1e-9
    assert summary["mean_turns"] > 0


def test_simulate_errors() -> None:
    assert_usage_error(run("simulate", "six-player-3v3x", "-n", "10"), "six-player-3v3x")
    assert_usage_error(run("simulate", "classic", "-n", "0"), "-n")
    assert_usage_error(run("simulate", "classic", "--policy", "clever"), "policy")


def test_play_a_deal_through_stdin() -> None:
    answers = "help\n" + "#1\n" * 200
    p = subprocess.run(
        [sys.executable, "-m", "ddz", "play", "classic", "--seed", "128", "--seat", "1"],
        input=answers,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    assert "you are seat 1" in p.stdout and "your hand:" in p.stdout
    assert "result" in p.stdout and "Traceback" not in p.stderr
    # Seed 128 deals seat 1 three aces, shown with their suits (symbols or letters).
    hand_line = next(line for line in p.stdout.splitlines() if line.startswith("your hand:"))
    assert any(f"A{s} A{t} A{u}" in hand_line for s, t, u in ("♦♣♥", "dch"))
    assert "is the hint)" in p.stdout  # the suggested play is named
    # The result table: one row per seat (seat, role, cards left, score,
    # running total, outcome); scores sum to 0.
    row = r"^\W*(\d)\W+(?:[a-z ]+\W+)?\d+\W+([+-]\d+)\W+[+-]\d+\W+(won|lost)"
    rows = re.findall(row, p.stdout, re.MULTILINE)
    assert [int(seat) for seat, _, _ in rows] == [0, 1, 2]
    assert sum(int(score) for _, score, _ in rows) == 0
    assert {outcome for _, _, outcome in rows} == {"won", "lost"}


def test_play_refuses_an_illegal_play_and_stops_at_end_of_input() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "ddz", "play", "classic", "--seed", "3"],
        input="bid:9\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0
    assert "not allowed" in p.stdout and p.stdout.rstrip().endswith("bye")


def test_bench_prints_figures_for_a_preset() -> None:
    figures = json.loads(ok("bench", "classic", "--json"))
    assert figures["preset"] == "classic" and figures["hand_size"] == 17
    assert figures["simulate, deals per second"] > 0
    assert figures["lead count_moves, us per hand"] > 0
    text = ok("bench", "five-player")
    assert "five-player: 200 seeded 21-card hands" in text
    assert "simulate, deals per second" in text
    assert_usage_error(run("bench", "nope"), "nope")


def run_with_stderr_on_a_terminal(*args: str) -> tuple[str, str]:
    """Run ddz with stderr on a pseudo-terminal (stdout piped); returns both."""
    import os
    import pty

    master, slave = pty.openpty()
    p = subprocess.Popen(
        [sys.executable, "-m", "ddz", *args], stdout=subprocess.PIPE, stderr=slave, text=True
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # the child closed its end
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    stdout = p.communicate(timeout=60)[0]
    assert p.returncode == 0
    return stdout, b"".join(chunks).decode()


def test_simulate_progress_bar_only_on_a_terminal() -> None:
    stdout, stderr = run_with_stderr_on_a_terminal("simulate", "classic", "-n", "60000")
    assert "simulating" in stderr and "60000/60000" in stderr
    assert "landlord side wins" in stdout
    # Piped, or asked for JSON: no progress at all (`ok` checks stderr is empty).
    ok("simulate", "classic", "-n", "60000")
    stdout, stderr = run_with_stderr_on_a_terminal("simulate", "classic", "-n", "60000", "--json")
    assert stderr == "" and json.loads(stdout)["games"] == 60000


def test_eval_counts_games_overall_and_seats_by_role_and_says_what_adp_is() -> None:
    done = run("eval", "classic", "greedy", "random", "-n", "20")
    assert done.returncode == 0, done.stderr
    rows = {line.split("│")[1].strip(): line for line in done.stdout.splitlines() if "│" in line}
    assert "20 seats" in rows["landlord"] and "40 seats" in rows["farmer"]
    assert "40 games" in rows["overall"]
    assert "doubled by every bomb" in " ".join(done.stdout.split())


def test_eval_full_protocol_shows_the_one_sided_figures_first() -> None:
    done = run("eval", "classic", "greedy", "random", "-n", "20", "--protocol", "full")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert text.index("seats were on one side") < text.index("every game:")
    assert "won and lost at once" in text


def test_eval_help_names_the_search_player() -> None:
    assert "search" in run("eval", "--help").stdout


def test_replay_as_text(tmp_path) -> None:
    import ddz

    game = ddz.play("laizi", [ddz.agents.GreedyAgent()] * 3, seed=5)
    record = tmp_path / "deal.json"
    record.write_text(game.to_json(), encoding="utf-8")
    done = run("replay", str(record), "--text")
    assert done.returncode == 0, done.stderr
    for seat, hand in enumerate(game.deals[0]["hands"]):
        assert f"seat {seat}: {hand}" in done.stdout
    assert done.stdout.count(". seat ") == len(game.history)
    assert f"scores {game.result['scores']}" in done.stdout


def test_serve_says_where_it_listens_and_stops_on_sigterm(tmp_path) -> None:
    import signal
    import socket

    pytest.importorskip("uvicorn")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "ddz", "serve", "--port", str(port), "--db", str(tmp_path / "d")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line, line
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    # uvicorn shuts down cleanly, then re-raises the signal it caught.
    assert server.returncode in (0, -signal.SIGTERM), server.stderr.read() if server.stderr else ""
