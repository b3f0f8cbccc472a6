"""`Rules.solve`, `ddz solve` and `SolverAgent`: the solver checked against
a plain minimax written here, winning plays checked against every reply,
bad input, budgets, and perfect play through `ddz.Game`.

The 10,000-position oracle runs in Rust (rust/ddz-core/tests/solve_oracle.rs);
this file checks the Python face on a few hundred positions."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time

import pytest

import ddz
from ddz.agents import RandomAgent, SolverAgent

FORBIDDABLE = [
    "trio_single",
    "trio_pair",
    "four_two_singles",
    "four_two_pairs",
    "plane_singles",
    "plane_pairs",
]


def deck(rules: ddz.Rules) -> list[int]:
    copies = [4 * rules.to_dict()["decks"]] * 13 + [rules.to_dict()["decks"]] * 2
    return [slot for slot, n in enumerate(copies) for _ in range(n)]


def counts(slots: list[int]) -> list[int]:
    c = [0] * 16
    for s in slots:
        c[s] += 1
    return c


def minimax(rules, forbid, hands, to_move, prev, owner) -> bool:
    """Does the side of `to_move` force going out first? No table, no ordering."""
    n = len(hands)

    def side(s: int) -> int:
        return int(s != 0) if n == 3 else s

    nxt = (to_move + 1) % n
    hand = hands[to_move]
    for m in rules.moves(hand, prev):
        if m.kind in forbid:
            continue
        rest = ddz.Cards([a - b for a, b in zip(hand.counts, m.cards.counts)])
        if len(rest) == 0:
            return True
        child = hands[:to_move] + [rest] + hands[to_move + 1 :]
        if (side(nxt) == side(to_move)) == minimax(rules, forbid, child, nxt, m, to_move):
            return True
    if prev is None:
        return False
    if nxt == owner:
        v = minimax(rules, forbid, hands, nxt, None, nxt)
    else:
        v = minimax(rules, forbid, hands, nxt, prev, owner)
    return (side(nxt) == side(to_move)) == v


def random_position(rules: ddz.Rules, rng: random.Random, n: int, most: int):
    cards = deck(rules)
    rng.shuffle(cards)
    hands = []
    for _ in range(n):
        k = rng.randint(1, most)
        hands.append(ddz.Cards(counts(cards[:k])))
        cards = cards[k:]
    to_move = rng.randrange(n)
    prev = prev_by = None
    if rng.random() < 0.5:
        plays = rules.moves(ddz.Cards(counts(cards[: rng.randint(1, 5)])))
        prev = plays[rng.randrange(len(plays))]
        prev_by = (to_move + 1 + rng.randrange(n - 1)) % n
    return hands, to_move, prev, prev_by


@pytest.mark.parametrize("preset", ["classic", "four-player"])
def test_agrees_with_plain_minimax(preset: str) -> None:
    rules = ddz.Rules(preset)
    rng = random.Random(17)
    verdicts = set()
    for case in range(150):
        n = 2 + case % 2
        hands, to_move, prev, prev_by = random_position(rules, rng, n, 5 if n == 2 else 4)
        forbid = [k for k in FORBIDDABLE if rng.random() < 0.3]
        got = rules.solve(hands, to_move, prev, forbid, prev_by=prev_by)
        owner = to_move if prev is None else prev_by
        want = minimax(rules, forbid, hands, to_move, prev, owner)
        assert got.win is want, (case, [str(h) for h in hands], to_move, str(prev), forbid)
        assert bool(got.plays) is want
        verdicts.add(want)
    assert verdicts == {True, False}


def test_every_winning_play_wins_against_every_reply() -> None:
    rules = ddz.Rules("classic")
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        hands, _, _, _ = random_position(rules, rng, 2, 9)
        s = rules.solve(hands, all=True)
        for play in s.plays:
            assert isinstance(play, ddz.Move)
            rest = ddz.Cards([a - b for a, b in zip(hands[0].counts, play.cards.counts)])
            if len(rest) == 0:
                continue
            replies = [*rules.moves(hands[1], play), "pass"]
            for reply in replies:
                checked += 1
                if reply == "pass":
                    after = rules.solve([rest, hands[1]], to_move=0)
                    assert after.win is True
                    continue
                left = ddz.Cards([a - b for a, b in zip(hands[1].counts, reply.cards.counts)])
                assert len(left) > 0, f"{play} loses to {reply} going out"
                after = rules.solve([rest, left], to_move=0, prev=reply)
                assert after.win is True, (str(play), str(reply))
    assert checked > 100


def test_three_hands_and_laizi_and_multi_deck_presets_solve() -> None:
    # The landlord's 3456789 goes out in one play; the farmers cannot stop it.
    assert ddz.Rules("classic").solve(["3456789", "22", "XD"]).win is True
    # Farmer 2 goes out when farmer 1 passes the landlord's single.
    s = ddz.Rules("classic").solve(["9", "3", "A"], to_move=1, prev="5", prev_by=0, all=True)
    assert s.win is True and "pass" in s.plays
    laizi = ddz.Rules("laizi")
    assert laizi.solve(["5678L", "3"]).win is True  # L stands for 4 or 9
    # Low A-2 straights: A2345 goes out in one play before 6 can answer.
    six = ddz.Rules("six-player-2v4").solve(["A2345", "7"], all=True)
    assert six.win is True and six.plays[0].kind == "straight" and len(six.plays[0]) == 5


def test_forbidden_kinds_change_the_verdict() -> None:
    rules = ddz.Rules("classic")
    assert rules.solve(["3334", "555"]).win is True
    assert rules.solve(["3334", "555"], forbid=["trio_single"]).win is False


def test_budget_gives_unknown() -> None:
    rules = ddz.Rules("classic")
    s = rules.solve(["DAQQJJT999844", "X22AAT886633"], max_nodes=50)
    assert s.win is None and s.plays == [] and s.nodes <= 51
    s = rules.solve(["DAQQJJT999844", "X22AAT886633"], max_seconds=0.0)
    assert s.win is None


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"hands": ["3"]}, "2 or 3 hands"),
        ({"hands": ["3", "4", "5", "6"]}, "2 or 3 hands"),
        ({"hands": "34"}, "list of 2 or 3"),
        ({"hands": ["3", ""]}, "empty"),
        ({"hands": ["33333", "4"]}, "copies"),
        ({"hands": ["3L", "4"]}, "laizi"),
        ({"hands": ["3", "4"], "to_move": 2}, "seat 2"),
        ({"hands": ["3", "4"], "to_move": -1}, "to_move"),
        ({"hands": ["3", "4"], "forbid": ["bomb"]}, "cannot be forbidden"),
        ({"hands": ["3", "4"], "forbid": ["nope"]}, "unknown kind"),
        ({"hands": ["3", "4"], "forbid": "trio_single"}, "list of kind names"),
        ({"hands": ["3", "4"], "prev": "5", "prev_by": 0}, "prev_by"),
        ({"hands": ["3", "4"], "max_nodes": -1}, "max_nodes"),
        ({"hands": ["3", "4"], "max_seconds": -1.0}, "max_seconds"),
        ({"hands": ["3", "4"], "threads": 0}, "threads"),
        ({"hands": ["3", "4"], "threads": 257}, "threads must be between 1 and 256"),
        ({"hands": ["3", "4"], "prev": "34"}, "not a legal play"),
    ],
)
def test_bad_input_names_the_problem(kwargs: dict, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        ddz.Rules("classic").solve(**kwargs)


def test_two_threads_agree_with_one() -> None:
    rules = ddz.Rules("classic")
    rng = random.Random(3)
    for _ in range(20):
        hands, to_move, prev, prev_by = random_position(rules, rng, 2, 8)
        one = rules.solve(hands, to_move, prev, prev_by=prev_by, all=True, threads=1)
        two = rules.solve(hands, to_move, prev, prev_by=prev_by, all=True, threads=2)
        every = rules.solve(hands, to_move, prev, prev_by=prev_by, all=True)
        assert one.win == two.win == every.win and one.plays == two.plays == every.plays


def test_threads_keep_one_node_budget() -> None:
    # A 17-v-17 deal the leader loses after some 47 million positions.
    hands = ["33455669TTTJQQKA2", "34456677889JKAA2D"]
    for threads in (1, 2, None):
        s = ddz.Rules("classic").solve(hands, max_nodes=200_000, threads=threads)
        assert s.win is None and s.plays == []
        assert 0 < s.nodes <= 200_000 + (threads or ddz.default_threads())


def test_the_search_releases_the_gil() -> None:
    rules = ddz.Rules("classic")
    done = threading.Event()

    def solve() -> None:
        rules.solve(["Y2AK998553".replace("Y", "X"), "DQQJJT953"])
        rules.solve(["DAQQJJT999844", "X22AAT886633"])
        done.set()

    worker = threading.Thread(target=solve)
    worker.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert ticks >= 2  # this thread ran while the search did


def test_line_follows_to_the_end() -> None:
    rules = ddz.Rules("classic")
    s = rules.solve(["DAQQJJT999844", "X22AAT886633"], line=True)
    hands = [rules.cards("DAQQJJT999844"), rules.cards("X22AAT886633")]
    for seat, action in s.line:
        if action != "pass":
            hands[seat] = ddz.Cards(
                [a - b for a, b in zip(hands[seat].counts, action.cards.counts)]
            )
    assert s.line[-1][0] == 0 and len(hands[0]) == 0 and len(hands[1]) > 0


def ddz_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ddz", *args], capture_output=True, text=True, timeout=60
    )


def test_cli_prints_verdict_and_line() -> None:
    p = ddz_cli("solve", "classic", "DAQQJJT999844", "X22AAT886633")
    assert p.returncode == 0, p.stderr
    assert "seat 0 to move wins" in p.stdout and "winning play:" in p.stdout
    assert "1. seat 0:" in p.stdout
    j = json.loads(
        ddz_cli("solve", "classic", "3334", "555", "--forbid", "trio_single", "--json").stdout
    )
    assert j["win"] is False and j["plays"] == [] and j["forbid"] == ["trio_single"]
    three = json.loads(
        ddz_cli(
            "solve",
            "classic",
            "9",
            "3",
            "A",
            "--to-move",
            "1",
            "--prev",
            "5",
            "--prev-by",
            "0",
            "--json",
        ).stdout
    )
    assert three["win"] is True


@pytest.mark.parametrize(
    "args, needle",
    [
        (["3", "4", "5", "6"], "2 or 3 hands"),
        (["3Z", "4"], "bad hand"),
        (["3", "4", "--forbid", "bomb"], "cannot be forbidden"),
        (["3", "4", "--prev", "34"], "bad --prev"),
    ],
)
def test_cli_bad_input_is_one_line(args: list[str], needle: str) -> None:
    p = ddz_cli("solve", "classic", *args)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("ddz: error: ") and needle in p.stderr
    assert len(p.stderr.splitlines()) == 1


def test_cli_shows_progress_after_a_second(monkeypatch, capsys) -> None:
    from ddz.cli import main
    from ddz.cli import solve as cli_solve

    monkeypatch.setattr(cli_solve, "PROGRESS_EVERY", 0.001)
    assert main(["solve", "classic", "DAQQJJT999844", "X22AAT886633"]) == 0
    assert "searching..." in capsys.readouterr().err


def shuffled_deal(preset: str, rng: random.Random) -> dict:
    rules = ddz.Rules(preset)
    d = rules.to_dict()
    symbols = "3456789TJQKA2"
    cards = [s for s in symbols for _ in range(4 * d["decks"])] + ["X", "D"] * d["decks"]
    rng.shuffle(cards)
    hands, at = [], 0
    for _ in range(d["players"]):
        hands.append("".join(cards[at : at + d["hand_size"]]))
        at += d["hand_size"]
    deal = {"hands": hands, "kitty": "".join(cards[at : at + d["kitty"]]), "first": 0}
    if d["set_aside"]:
        deal["set_aside"] = "".join(cards[at + d["kitty"] :])
    return deal


@pytest.mark.parametrize("preset, left", [("classic", 15), ("two-player", 12)])
def test_solver_agent_wins_every_won_position_through_game(preset: str, left: int) -> None:
    """Random play down to a small endgame; where the solver says the side to
    move wins, SolverAgents for that side beat random opponents every time."""
    rng = random.Random(preset)
    won = 0
    for game_no in range(30):
        deal = shuffled_deal(preset, rng)
        g = ddz.Game(preset, seed=game_no, deal=deal)
        rand = RandomAgent(game_no)
        while g.phase not in ("play", "over"):
            g.step(ddz.agents.GreedyAgent().act(g.observation(g.to_act), g.legal_actions()))
        while g.phase == "play" and sum(g.observation(0)["hand_sizes"]) > left:
            g.step(rand.act(g.observation(g.to_act), g.legal_actions()))
        if g.phase != "play":
            continue
        solver = SolverAgent(deal)
        first = g.to_act
        g.step(solver.act(g.observation(first), g.legal_actions()))
        assert solver.last_solution is not None
        if not solver.last_solution.win:
            continue
        landlord = g.observation(0).get("landlord")
        team = (
            {first}
            if len(g.observation(0)["hand_sizes"]) == 2
            else ({landlord} if first == landlord else {0, 1, 2} - {landlord})
        )
        while g.phase != "over":
            seat = g.to_act
            agent = solver if seat in team else rand
            g.step(agent.act(g.observation(seat), g.legal_actions()))
        assert set(g.result["winners"]) & team, (game_no, deal)
        won += 1
    assert won >= 5
