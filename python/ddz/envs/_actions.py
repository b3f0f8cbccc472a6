"""The fixed action ids of a rule set (docs/rl.md, "Fixed action ids").

The table itself is the engine's (`ddz._ddz.ActionTable`, made once per rule set
and process): ids 0-20 are the words (pass, the three bids, then the other
decisions in `VecEnv.kind_names` order), then every play a seat could ever hold,
one id per reading. `VecEnv` numbers its legal actions with it (`legal_ids`), and
the PettingZoo and Gymnasium adapters read the same table.
"""

from __future__ import annotations

import ddz
from ddz._ddz import ActionTable

__all__ = ["ActionTable", "action_table", "enumerable", "PASS_KIND", "BID_KIND"]

#: Kind ids of `pass` and of every bid (`VecEnv.kind_names`).
PASS_KIND = ddz.VecEnv.kind_names.index("pass")
BID_KIND = ddz.VecEnv.kind_names.index("bid")


def enumerable(rules: ddz.Rules) -> bool:
    """Is the table form the adapters' default? One deck: classic, two-player, laizi.
    (Every preset has a table; with more decks the candidate form stays the default.)"""
    return rules.decks == 1


def action_table(preset_or_rules: str | ddz.Rules) -> ActionTable:
    """The fixed action ids of a preset (or a `ddz.Rules`): `len(t)` ids,
    `t.action(id)` the decision as `Game` takes it, `t.id(action)` its id,
    `t.columns(ids)` their `kind`, `rank`, `length`, `cards`, `represents`."""
    if isinstance(preset_or_rules, str):
        preset_or_rules = ddz.Rules(preset_or_rules)
    if not isinstance(preset_or_rules, ddz.Rules):
        raise TypeError(f"a preset name or a ddz.Rules, not {preset_or_rules!r}")
    return ActionTable(preset_or_rules)
