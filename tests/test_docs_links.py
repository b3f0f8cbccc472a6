"""The docs' links lead somewhere: every relative link of README.md and
docs/*.md names a file that exists, and docs/index.md lists every page of
docs/, so a new page cannot be left out of the index."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
#: `[text](target)` and `<img src="target">`; the target up to an anchor.
LINK = re.compile(r"\]\((?P<md>[^)\s]+)\)|<img [^>]*src=\"(?P<img>[^\"]+)\"")


def relative_targets(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    # Code blocks show code, not links.
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    targets = [m["md"] or m["img"] for m in LINK.finditer(text)]
    return [t for t in targets if not re.match(r"[a-z]+:|#", t)]


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_relative_link_names_an_existing_file(page: Path) -> None:
    missing = [t for t in relative_targets(page) if not (page.parent / t.split("#")[0]).exists()]
    assert not missing, f"{page.name} links to missing files: {missing}"


def test_the_index_lists_every_page() -> None:
    listed = {t.split("#")[0] for t in relative_targets(DOCS / "index.md")}
    pages = {p.name for p in DOCS.glob("*.md")} - {"index.md"}
    assert pages <= listed, f"docs/index.md does not list {sorted(pages - listed)}"
