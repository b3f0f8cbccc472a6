"""`ddz.puzzles` (docs/puzzles.md): generated puzzles prove again, a
position with two winning first plays is refused, the main line's defence
is the longest one by a brute force, files and the command line."""

from __future__ import annotations

import functools
import json
import subprocess
import sys

import pytest

import ddz
from ddz import puzzles
from ddz._ddz import analyse_puzzles, puzzle_candidates
from ddz.cli import main

CLASSIC = ddz.Rules("classic")


@functools.cache
def batch(hands: int) -> tuple[dict, ...]:
    cards = (4, 7) if hands == 2 else (2, 4)
    return tuple(puzzles.generate("classic", n=4, seed=11, hands=hands, cards=cards, threads=2))


@pytest.mark.parametrize("hands", [2, 3])
def test_every_generated_puzzle_checks_again(hands: int) -> None:
    made = batch(hands)
    assert len(made) == 4
    assert len({p["id"] for p in made}) == 4
    for p in made:
        assert set(puzzles.KEYS) <= set(p)
        assert len(p["hands"]) == hands and p["line"][0][0] == 0
        moves = sum(1 for seat, _ in p["line"] if seat == 0)
        assert puzzles.MIN_LENGTH <= p["length"] <= moves
        assert 1 <= p["losing_first_moves"] < p["first_moves"]
        assert puzzles.check(p), p
        # The main line ends with the landlord going out.
        assert p["line"][-1][0] == 0 and p["line"][-1][1] != "pass"


def test_a_changed_puzzle_fails_its_check() -> None:
    p = dict(batch(2)[0])
    wrong = [list(step) for step in p["line"]]
    wrong[0][1] = "pass" if wrong[0][1] != "pass" else "3"
    assert not puzzles.check({**p, "line": wrong})
    assert not puzzles.check({**p, "id": "0000000000"})
    assert not puzzles.check({**p, "losing_first_moves": p["losing_first_moves"] + 1})
    three = batch(3)[0]
    assert puzzles.check_all([p, {**p, "line": wrong}, three], threads=2) == [True, False, True]


def test_two_different_winning_first_plays_are_refused() -> None:
    # A or 2 first, then the other: both win against a 5 (the 3 loses).
    (found,) = analyse_puzzles(CLASSIC, [["3A2", "5"]])
    assert found["win"] and not found["unique"] and found["refused"] == "not_unique"
    assert (found["first_moves"], found["losing_first_moves"]) == (3, 1)
    for line in ([[0, "A"], [1, "pass"], [0, "2"], [1, "pass"], [0, "3"]], []):
        assert not puzzles.check({"hands": ["3A2", "5"], "line": line})
    # Without the screen, the walk finds the same on the main line.
    (found,) = analyse_puzzles(CLASSIC, [["3A2", "5"]], screen=False)
    assert not found["unique"] and found["not_unique_at"] == 0
    # Only the 2 wins against the 5 when the other card is a 3.
    (found,) = analyse_puzzles(CLASSIC, [["23", "5"]])
    assert found["unique"] and found["losing_first_moves"] == 1
    assert [a for _, a in found["line"]] == ["2", "pass", "3"]


def test_given_positions_keep_only_the_puzzles() -> None:
    p = batch(2)[1]
    got = puzzles.from_positions("classic", [["3A2", "5"], p["hands"], ["34", "2"]])
    assert [q["id"] for q in got] == [p["id"]]
    assert got[0]["line"] == p["line"] and got[0]["source"] == "given"
    with pytest.raises(ValueError, match="2 or 3 hands"):
        puzzles.from_positions("classic", [["3"]])


def test_kicker_choice_is_one_solution() -> None:
    (found,) = analyse_puzzles(CLASSIC, [["33345", "KK"]])
    assert found["unique"] and found["first_moves"] - found["losing_first_moves"] == 2
    assert found["kinds"][0] == "trio_single"


def _legal(hand: str, prev: str | None) -> list[str]:
    plays = [str(m) for m in CLASSIC.moves(hand, prev)] if hand else []
    return plays + (["pass"] if prev else [])


def _after(hands: tuple[str, ...], seat: int, action: str) -> tuple[str, ...]:
    if action == "pass":
        return hands
    left = list(hands[seat])
    for c in action:
        left.remove(c)
    return hands[:seat] + ("".join(left),) + hands[seat + 1 :]


@functools.cache
def _brute(hands: tuple[str, ...], seat: int, prev: str | None, owner: int) -> tuple[bool, int]:
    """(the landlord's side wins, plays to its going out when it does)."""
    n = len(hands)
    results = []
    for a in _legal(hands[seat], prev):
        nxt = (seat + 1) % n
        after = _after(hands, seat, a)
        if a != "pass" and not after[seat]:
            results.append((seat == 0, 1))
            continue
        if a == "pass":
            child = _brute(after, nxt, None if nxt == owner else prev, owner)
        else:
            child = _brute(after, nxt, a, seat)
        results.append((child[0], child[1] + (a != "pass")))
    if seat == 0:
        wins = [d for w, d in results if w]
        return (True, min(wins)) if wins else (False, 0)
    if all(w for w, _ in results):
        return True, max(d for _, d in results)
    return False, 0


def test_the_longest_defence_is_the_longest_by_brute_force() -> None:
    positions = [puzzle_candidates(CLASSIC, 5, i, 1, 2, 2, 4)[0] for i in range(40)]
    positions += [puzzle_candidates(CLASSIC, 5, i, 1, 3, 1, 3)[0] for i in range(40, 60)]
    found = analyse_puzzles(CLASSIC, positions, threads=2, screen=False)
    won = 0
    for hands, f in zip(positions, found, strict=True):
        wins, plays = _brute(tuple(hands), 0, None, 0)
        assert f["win"] == wins, hands
        if wins:
            won += 1
            assert f["plays"] == plays, hands
            assert sum(a != "pass" for _, a in f["line"]) == plays, hands
    assert won >= 10


def _reply_length(hands: tuple[str, ...], prev: str, reply: str) -> int:
    """Plays to the landlord's going out after seat 1 answers the landlord's
    `prev` with `reply`, by the brute force (the landlord's side wins)."""
    nxt = 2 % len(hands)
    if reply == "pass":
        return _brute(hands, nxt, None if nxt == 0 else prev, 0)[1]
    return 1 + _brute(_after(hands, 1, reply), nxt, reply, 1)[1]


def test_longest_reply_off_the_main_line_is_the_longest_by_brute_force() -> None:
    # After every winning first action (not only the main line's), the reply
    # `longest_reply` names leaves the landlord's side as many plays to make
    # as the brute force's longest defence.
    positions = [puzzle_candidates(CLASSIC, 6, i, 1, 2, 3, 5)[0] for i in range(16)]
    positions += [puzzle_candidates(CLASSIC, 6, i, 1, 3, 2, 3)[0] for i in range(16, 24)]
    measured = refused = 0
    for hands in map(tuple, positions):
        for a in _legal(hands[0], None):
            after = _after(hands, 0, a)
            if not after[0]:
                continue
            got = puzzles.longest_reply(CLASSIC, list(after), 1, prev=a, prev_by=0)
            wins, _ = _brute(after, 1, a, 0)
            if not wins:
                assert got is None, (hands, a)
                refused += 1
                continue
            assert got is not None, (hands, a)
            best = max(_reply_length(after, a, r) for r in _legal(after[1], a))
            assert _reply_length(after, a, got) == best, (hands, a, got)
            measured += 1
    assert measured >= 10 and refused >= 10, (measured, refused)
    # The landlord to move is no defence position; bad input is refused.
    assert puzzles.longest_reply("classic", ["3456789", "22"], to_move=0) is None
    with pytest.raises(ValueError, match="2 or 3 hands"):
        puzzles.longest_reply("classic", "3456789")
    with pytest.raises(ValueError):
        puzzles.longest_reply("classic", ["3", "4", "5", "6"])


def test_the_same_puzzles_on_any_number_of_threads() -> None:
    one = puzzles.generate("classic", n=4, seed=11, hands=2, cards=(4, 7), threads=1)
    assert one == list(batch(2))


def test_forbidden_kinds_never_appear_on_the_line() -> None:
    made = puzzles.generate("classic", n=2, seed=2, hands=2, cards=(5, 8), forbid=["trio_single"])
    assert made
    for p in made:
        assert p["forbid"] == ["trio_single"] and puzzles.check(p)
        for _, action in p["line"]:
            if action != "pass":
                assert CLASSIC.classify(action)[0].kind != "trio_single"


def test_ddz_puzzles_is_there_after_import_ddz() -> None:
    code = "import ddz, sys; ddz.puzzles.check; assert 'ray' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="hands must be 2 or 3"):
        puzzles.generate(hands=4)
    with pytest.raises(ValueError, match="not one string"):
        puzzles.generate(forbid="trio_single")
    with pytest.raises(ValueError, match="cannot be forbidden"):
        puzzles.generate(n=1, forbid=["bomb"])
    with pytest.raises(ValueError, match="cards must be"):
        puzzles.generate(cards=(5, 3))
    with pytest.raises(ValueError, match="a puzzle is a dict"):
        puzzles.check("33 44")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no hands"):
        puzzles.check({"line": []})


def test_cli_writes_jsonl_and_csv_and_checks_them(tmp_path, capsys) -> None:
    jsonl = tmp_path / "p.jsonl"
    args = ["puzzles", "generate", "classic", "-n", "2", "--seed", "11", "--cards", "4", "7"]
    assert main([*args, "--out", str(jsonl)]) == 0
    lines = jsonl.read_text().splitlines()
    assert [json.loads(x) for x in lines] == list(batch(2))[:2]
    assert main(["puzzles", "check", str(jsonl)]) == 0
    assert "all 2 puzzles check" in capsys.readouterr().out
    csv = tmp_path / "p.csv"
    assert main([*args, "--out", str(csv)]) == 0
    header, first, *_ = csv.read_text().splitlines()
    assert header == ",".join(puzzles.CSV_COLUMNS)
    assert first.startswith(batch(2)[0]["id"] + ",classic,")
    bad = json.loads(lines[0])
    bad["line"] = bad["line"][1:]
    jsonl.write_text(json.dumps(bad) + "\n" + lines[1] + "\n")
    assert main(["puzzles", "check", str(jsonl)]) == 1
    assert "1 of 2 puzzles fail" in capsys.readouterr().out
    assert main(["puzzles", "check", str(tmp_path / "none.jsonl")]) == 2


@pytest.mark.parametrize(
    ("hands", "line", "kinds", "want"),
    [
        (["33334", "5"], [[0, "3333"], [1, "pass"], [0, "4"]], ["bomb", "pass", "single"], "bomb"),
        (
            ["23", "K"],
            [[0, "2"], [1, "pass"], [0, "3"]],
            ["single", "pass", "single"],
            "unbeatable_single",
        ),
        (
            ["9A", "8Q"],
            [[0, "9"], [1, "Q"], [0, "pass"]],
            ["single", "single", "pass"],
            "pass_to_keep_control",
        ),
        (
            ["44K", "5"],
            [[0, "4"], [1, "pass"], [0, "4K"]],
            ["single", "pass", "pair"],
            "split_pair",
        ),
        (["34567Q", "T"], [[0, "5"], [1, "T"]], ["single", "single"], "split_straight"),
    ],
)
def test_themes_by_rule(hands, line, kinds, want) -> None:
    assert want in puzzles.themes.tag(CLASSIC, hands, line, kinds, [], len(line))


def test_forbid_in_play_theme() -> None:
    got = puzzles.themes.tag(CLASSIC, ["3334", "5"], [[0, "333"]], ["trio"], ["trio_single"], 2)
    assert "forbid_in_play" in got
    assert "forbid_in_play" not in puzzles.themes.tag(
        CLASSIC, ["3334", "5"], [[0, "333"]], ["trio"], [], 2
    )
