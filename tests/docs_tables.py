"""Tables of docs/*.md, and the option getters of the stub
(python/ddz/_ddz.pyi), generated from the engine's declarations, so
neither can drift from the code: `tests/test_docs_tables.py` checks each
marked block against what this module writes, and
`python tests/docs_tables.py` rewrites the blocks in place (it needs a
built extension: it reads the declarations through `ddz`).

A block sits between `<!-- NAME:begin -->` and `<!-- NAME:end -->` (in
the stub, as comments).
"""

from __future__ import annotations

import re
import sys
import typing
from collections.abc import Callable
from pathlib import Path

import ddz
import ddz.types

ROOT = Path(__file__).resolve().parent.parent


def _families() -> list[tuple[str, list[str]]]:
    """One entry per distinct role declaration: a label, and its presets."""
    seen: dict[str, list[str]] = {}
    for preset in ddz.PRESETS:
        roles = ddz.Rules(preset).roles()
        keys = repr([{k: v for k, v in r.items() if k != "column_bounds"} for r in roles])
        seen.setdefault(keys, []).append(preset)
    return [(", ".join(f"`{p}`" for p in presets), presets) for presets in seen.values()]


def role_tables() -> str:
    out = []
    for title, presets in _families():
        rules = ddz.Rules(presets[0])
        out.append(f"### {title} (flow `{rules.flow}`)\n")
        out.append("| key | type | what it is | who may see it | label |")
        out.append("|---|---|---|---|---|")
        for r in rules.roles():
            label = f"{r['label']['en']} / {r['label']['zh']}"
            out.append(f"| `{r['key']}` | {r['type']} | {r['doc']} | {r['seen']} | {label} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"`{value}`"
    if isinstance(value, list):
        return "per preset" if value else "none"
    return str(value)


def _defaults(option: dict) -> str:
    """Classic's value, then each preset's that differs."""
    if option["name"] in ("preset", "king_bombs"):
        return "per preset"
    shown = {preset: _shown(v) for preset, v in option["defaults"].items()}
    others = [f"{p} {v}" for p, v in shown.items() if v != shown["classic"]]
    return shown["classic"] + (f"; {', '.join(others)}" if others else "")


def option_table() -> str:
    every = list(typing.get_args(ddz.types.Flow))
    out = [
        "| option | type | classic (other presets where they differ) | read by | since "
        "| what it is |",
        "|---|---|---|---|---|---|",
    ]
    for o in ddz.Rules.options():
        kind = o["type"]
        if o["words"]:
            kind = " / ".join(f"`{w}`" for w in o["words"])
        elif o["type"] == "int":
            kind = f"int {o['min']}..{o['max']}"
        if o["flows"] == every:
            flows = "every flow"
        else:
            flows = ", ".join(f"`{f}`" for f in o["flows"]) or "nothing (a name)"
        doc = o["doc"].replace("|", "\\|")
        row = [f"`{o['name']}`", kind, _defaults(o), flows, f"`{o['since']}`", doc]
        out.append("| " + " | ".join(row) + " |")
    return "\n".join(out) + "\n"


#: The stub's annotation of each option type; a word option's is the
#: `Literal` alias of ddz.types holding exactly its words, else `str`.
STUB_TYPES = {"bool": "bool", "int": "int", "str": "str", "king bombs": "list[dict[str, int]]"}


def _word_alias(words: list[str]) -> str:
    for name, alias in vars(ddz.types).items():
        if typing.get_origin(alias) is typing.Literal and list(typing.get_args(alias)) == words:
            return name
    return "str"


def stub_getters() -> str:
    """`Rules`' property of each option, as the bindings make them."""
    out = []
    for o in ddz.Rules.options():
        kind = _word_alias(o["words"]) if o["words"] else STUB_TYPES[o["type"]]
        out += ["    @property", f"    def {o['name']}(self) -> {kind}: ..."]
    return "\n".join(out) + "\n"


RULE_WORDS = Path(ddz.__file__).parent / "serve" / "static" / "rules-words.json"


def _meets(value: object, want: object) -> bool:
    """A rules-words.json condition, as the page's rulewords.js reads it: a
    value, "+" (more than 0) or "N+" (N or more)."""
    if want == "+":
        return isinstance(value, int) and value > 0
    if isinstance(want, str) and re.fullmatch(r"\d+\+", want):
        return isinstance(value, int) and value >= int(want[:-1])
    return value == want


def preset_glance() -> str:
    """Each preset in the sentences of the page's rules panel (English)."""
    import json

    sentences = json.loads(RULE_WORDS.read_text(encoding="utf-8"))["sentences"]
    out = []
    for preset in ddz.PRESETS:
        rules = ddz.Rules(preset).to_dict()
        out.append(f"- **`{preset}`**:")
        for s in sentences:
            if all(_meets(rules.get(k), v) for k, v in s.get("when", {}).items()):
                text = re.sub(r"\{(\w+)\}", lambda m, r=rules: str(r[m.group(1)]), s["en"])
                out.append(f"  {text}")
    return "\n".join(out) + "\n"


#: Every generated block: (file, block name) -> its text.
BLOCKS: dict[tuple[str, str], Callable[[], str]] = {
    ("docs/roles.md", "roles"): role_tables,
    ("docs/rules.md", "options"): option_table,
    ("docs/presets.md", "glance"): preset_glance,
    ("python/ddz/_ddz.pyi", "rule-getters"): stub_getters,
}


def block_pattern(name: str) -> re.Pattern[str]:
    # The end marker may follow a comment sign and indentation (the stub's).
    return re.compile(rf"(<!-- {name}:begin -->\n)(.*?)(^[ #]*<!-- {name}:end -->)", re.S | re.M)


def current(page: str, name: str) -> str:
    match = block_pattern(name).search((ROOT / page).read_text())
    if match is None:
        raise LookupError(f"{page} has no block {name!r}")
    return match.group(2)


def write() -> None:
    for (page, name), make in BLOCKS.items():
        path = ROOT / page
        text = path.read_text()
        body = make()
        new = block_pattern(name).sub(lambda m, body=body: m.group(1) + body + m.group(3), text)
        path.write_text(new)


if __name__ == "__main__":
    write()
    sys.exit(0)
