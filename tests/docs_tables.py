"""Tables of docs/*.md generated from the engine's declarations, so the
docs cannot drift from the code: `tests/test_docs_tables.py` checks each
marked block against what this module writes, and
`python tests/docs_tables.py` rewrites the blocks in place.

A block sits between `<!-- NAME:begin -->` and `<!-- NAME:end -->`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

import ddz

DOCS = Path(__file__).resolve().parent.parent / "docs"


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


#: Every generated block: (file, block name) -> its text.
BLOCKS: dict[tuple[str, str], Callable[[], str]] = {
    ("roles.md", "roles"): role_tables,
}


def block_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- {name}:begin -->\n)(.*?)(<!-- {name}:end -->)", re.S)


def current(page: str, name: str) -> str:
    match = block_pattern(name).search((DOCS / page).read_text())
    if match is None:
        raise LookupError(f"docs/{page} has no block {name!r}")
    return match.group(2)


def write() -> None:
    for (page, name), make in BLOCKS.items():
        path = DOCS / page
        text = path.read_text()
        body = make()
        new = block_pattern(name).sub(lambda m, body=body: m.group(1) + body + m.group(3), text)
        path.write_text(new)


if __name__ == "__main__":
    write()
    sys.exit(0)
