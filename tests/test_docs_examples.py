"""Every Python block of README.md and docs/*.md runs, and where a
```` ```text ```` block follows it, prints exactly that (docs/testing.md).

Blocks of one page run in order in one namespace, as a reader would type
them. A block that needs an extra or a cluster carries a visible marker
on the line before it, ``<!-- skip-example: why -->``, and is skipped.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(
    r"(?P<marker><!-- skip-example: [^>]*-->\n)?```python\n(?P<code>.*?)```\n"
    r"(?:\s*```text\n(?P<shown>.*?)```)?",
    re.DOTALL,
)


def examples(page: Path) -> list[tuple[str, str | None, bool]]:
    text = page.read_text(encoding="utf-8")
    return [(m["code"], m["shown"], m["marker"] is not None) for m in BLOCK.finditer(text)]


PAGES_WITH_CODE = [p for p in PAGES if examples(p)]


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=[p.name for p in PAGES_WITH_CODE])
def test_the_examples_of_a_page_run(page: Path) -> None:
    namespace: dict[str, object] = {"__name__": "__example__"}
    ran = 0
    for i, (code, shown, skipped) in enumerate(examples(page)):
        if skipped:
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"{page.name} block {i}", "exec"), namespace)
        if shown is not None:
            assert out.getvalue() == shown, f"{page.name} block {i} printed otherwise"
        ran += 1
    assert ran or all(s for _, _, s in examples(page))
