"""RLCard 1.2.0's `DouDizhuRuleAgentV1` as a ddz agent, for the strength
ladder (benches/bench_strength.py; `pip install rlcard==1.2.0`).

The rule agent reads five fields of RLCard's raw state: `current_hand`,
`trace`, `actions`, `landlord` and `self`. `RuleAgent.act` builds them from
a classic `ddz.Game` observation as RLCard's own env would at the same
position, asks the agent, and plays the ddz action with the same cards.
`check` plays RLCard's env and a `ddz.Game` side by side on RLCard's deals
and counts the states where the fields or the action differ.

Cards: RLCard writes a play as its ranks in order, ``3456789TJQKA2`` then
``B`` (black joker, ddz's ``X``) and ``R`` (red joker, ddz's ``D``). Seats
are RLCard's player ids (the next to play is the next id in both). The rule
agent's one random draw (`np.random.choice` when it cannot follow and must)
comes from numpy's global generator; `act` lends it a generator of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from rlcard.games.doudizhu.utils import CARD_TYPE, TYPE_CARD, contains_cards
from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

import ddz

RANKS = "3456789TJQKA2BR"  # RLCard's ranks, in ddz's slot order (3..2, X, D)
RULES = ddz.Rules("classic")
#: RLCard's play types by ddz's kind names (a card set with several ddz
#: readings plays the one RLCard means).
KIND_OF_TYPE = {
    "solo": "single",
    "solo_chain": "straight",
    "pair": "pair",
    "pair_chain": "pair_straight",
    "trio": "trio",
    "trio_chain": "trio_straight",
    "trio_solo": "trio_single",
    "trio_solo_chain": "plane_singles",
    "trio_pair": "trio_pair",
    "trio_pair_chain": "plane_pairs",
    "four_two_solo": "four_two_singles",
    "four_two_pair": "four_two_pairs",
    "bomb": "bomb",
    "rocket": "king_bomb",
}


def rlcard_cards(counts: Sequence[int]) -> str:
    """ddz's card counts (slots 3..2, X, D) as RLCard's string."""
    return "".join(RANKS[s] * int(counts[s]) for s in range(15))


def cards_text(cards: str) -> str:
    """An RLCard string as ddz card text."""
    return cards.replace("B", "X").replace("R", "D")


def _played(action: str) -> str | None:
    """The RLCard string of a history entry's cards; None for a word."""
    if action in ddz._ddz.ACTION_WORDS:
        return None
    return rlcard_cards(RULES.cards(action.split("=")[0]).counts)


def following_actions(hand: str, target: str) -> list[str]:
    """RLCard's legal answers to `target`, in its order (`pass` first): its
    own `get_gt_cards`, on strings rather than players."""
    out = ["pass"]
    types: dict[str, str] = {}
    for card_type, weight in CARD_TYPE[0][target]:
        types.setdefault(card_type, weight)
    if "rocket" in types:
        return out
    types["rocket"] = "-1"
    types.setdefault("bomb", "-1")
    for card_type, weight in types.items():
        for can_weight, cards_list in TYPE_CARD[card_type].items():
            if int(can_weight) > int(weight):
                for cards in cards_list:
                    if cards not in out and contains_cards(hand, cards):
                        out.append(cards)
    return out


def raw_state(observation: Mapping[str, Any], legal: Sequence[Any]) -> dict[str, Any]:
    """The fields of RLCard's raw state the rule agent reads, at the play of
    a classic `ddz.Game` observation. The trace is the history from the
    landlord's lead on (the auction before it is not RLCard's)."""
    history = [(seat, _played(a)) for seat, a in observation["history"]]
    lead = next((i for i, (_, cards) in enumerate(history) if cards is not None), len(history))
    trace = [(seat, cards or "pass") for seat, cards in history[lead:]]
    hand = rlcard_cards(RULES.cards(observation["hand"]).counts)
    target = next((cards for _, cards in reversed(trace) if cards != "pass"), None)
    leading = target is None or (
        len(trace) >= 3 and trace[-1][1] == "pass" and trace[-2][1] == "pass"
    )
    if leading:
        actions = sorted({rlcard_cards(m.cards.counts) for m in legal if isinstance(m, ddz.Move)})
    else:
        assert target is not None
        actions = following_actions(hand, target)
    return {
        "current_hand": hand,
        "trace": trace,
        "actions": actions,
        "landlord": observation["landlord"],
        "self": observation["seat"],
    }


def ddz_action(cards: str, legal: Sequence[Any]) -> Any:
    """The legal ddz action that plays RLCard's `cards` (None if there is
    none): pass, or the play of those cards read as RLCard reads them."""
    if cards == "pass":
        return ddz.PASS if ddz.PASS in legal else None
    counts = RULES.cards(cards_text(cards)).counts.tolist()
    same = [m for m in legal if isinstance(m, ddz.Move) and m.cards.counts.tolist() == counts]
    kind = KIND_OF_TYPE.get(CARD_TYPE[0][cards][0][0].rstrip("0123456789").rstrip("_"))
    return next((m for m in same if m.kind == kind), same[0] if same else None)


class RuleAgent:
    """`DouDizhuRuleAgentV1` on a classic `ddz.Game`. The auction (RLCard
    has none) goes to `GreedyAgent`; so does a choice the rule agent makes
    that ddz's rules do not allow (counted in `refused`; none was seen)."""

    def __init__(self, seed: int = 0) -> None:
        self.agent = DouDizhuRuleAgentV1()
        self.rng = np.random.RandomState(seed)
        self.fallback = ddz.agents.GreedyAgent()
        self.refused = 0

    def choose(self, state: dict[str, Any]) -> str:
        """The rule agent's string for RLCard raw state `state`, its random
        draw from this agent's generator."""
        saved = np.random.get_state()
        np.random.set_state(self.rng.get_state())
        try:
            return str(self.agent.step({"raw_obs": state}))
        finally:
            self.rng.set_state(np.random.get_state())
            np.random.set_state(saved)

    def act(self, observation: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        if observation["phase"] != "play":
            return self.fallback.act(observation, legal)
        action = ddz_action(self.choose(raw_state(observation, legal)), legal)
        if action is None:
            self.refused += 1
            return self.fallback.act(observation, legal)
        return action


def table_like(env: Any, seed: int) -> ddz.Game:
    """A ddz table dealt as RLCard's `env` has just dealt, its auction played
    to RLCard's landlord: at the first play."""
    game = env.game
    landlord = game.round.landlord_id
    kitty = game.round.seen_cards
    # RLCard's landlord holds the kitty already: ddz deals it apart.
    held_by = ["".join(c.rank or c.suit[0] for c in p.current_hand) for p in game.players]
    hands = [cards_text(h) for h in held_by]
    held = RULES.cards(hands[landlord]).counts - RULES.cards(cards_text(kitty)).counts
    hands[landlord] = cards_text(rlcard_cards(held))
    deal = {"hands": hands, "kitty": cards_text(kitty), "first": landlord}
    table = ddz.Game(RULES, seed=seed, deal=deal)
    while table.phase != "play":
        table.step("bid:3" if table.to_act == landlord else ddz.PASS)
    return table


def check(games: int, seed: int = 0) -> dict[str, int]:
    """RLCard's env and a `ddz.Game` on the same deals, moved by the rule
    agent's choices on RLCard's states: counts of states, of states whose
    five fields differ, of states where ddz's legal plays and RLCard's
    differ as card sets, of actions that differ (the same random draw
    given to both), and of RLCard plays that ddz could not play (which end
    that game's check)."""
    import rlcard

    env = rlcard.make("doudizhu", config={"seed": seed})
    twin = RuleAgent()
    tally = dict.fromkeys(
        ("games", "states", "fields_differ", "legal_differ", "actions_differ", "unplayable"), 0
    )
    for g in range(games):
        state, player = env.reset()
        table = table_like(env, seed=g)
        tally["games"] += 1
        while not env.is_over():
            raw = state["raw_obs"]
            assert table.to_act == player == raw["self"]
            legal = table.legal_actions()
            mine = raw_state(table.observation(player), legal)
            tally["states"] += 1
            # A lead's actions are RLCard's set (its order is the set's, and
            # the rule agent does not read it); an answer's, RLCard's list.
            following = raw["actions"][:1] == ["pass"]
            same_actions = (
                mine["actions"] == raw["actions"]
                if following
                else sorted(mine["actions"]) == sorted(raw["actions"])
            )
            fields_same = same_actions and all(
                mine[k] == raw[k] for k in ("current_hand", "trace", "landlord", "self")
            )
            tally["fields_differ"] += not fields_same
            # ddz's own legal plays as RLCard strings, against RLCard's.
            ours = {rlcard_cards(m.cards.counts) for m in legal if isinstance(m, ddz.Move)}
            ours |= {"pass"} if ddz.PASS in legal else set()
            tally["legal_differ"] += ours != set(raw["actions"])
            # The same draw for both: each call starts from the same state.
            start = np.random.RandomState(seed * 1_000_003 + tally["states"])
            twin.rng.set_state(start.get_state())
            np.random.set_state(start.get_state())
            want = str(DouDizhuRuleAgentV1().step(state))
            got = twin.choose(mine)
            tally["actions_differ"] += got != want
            action = ddz_action(want, legal)
            if action is None:
                tally["unplayable"] += 1
                break
            table.step(action)
            state, player = env.step(want, raw_action=True)
    return tally
