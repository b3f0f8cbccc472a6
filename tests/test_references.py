"""The project's references are its own: no file cites documents that are
not in the repository, every `docs/<page>.md#anchor` cited resolves, and
the version lives in one place (Cargo.toml)."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import ddz

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SKIP_DIRS = {"target", ".git", ".venv", "node_modules", "__pycache__", "golden", ".hypothesis"}
SUFFIXES = {".py", ".pyi", ".rs", ".md", ".toml", ".txt", ".html", ".js", ".css", ".yml"}
#: Documents outside the repository that nothing may cite (split so this file does not).
OUTSIDE = [n + ".md" for n in ("RULES", "API", "DESIGN", "STYLE")] + ["/work/" + "shared"]
CITATION = re.compile(r"\b(?:docs/)?([a-z0-9-]+\.md)#([a-z0-9-]+)")


def project_files() -> list[Path]:
    out = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if any(part in SKIP_DIRS for part in rel.parts):
            continue
        if path.is_file() and (path.suffix in SUFFIXES or path.name == "run"):
            out.append(path)
    return out


def anchors(page: Path) -> set[str]:
    """Explicit `<a id>` anchors and GitHub's heading slugs."""
    text = page.read_text(encoding="utf-8")
    found = set(re.findall(r'<a id="([a-z0-9-]+)"></a>', text))
    for heading in re.findall(r"^#+ (.+)$", text, re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        found.add(slug)
    return found


def test_no_file_cites_documents_outside_the_project() -> None:
    cites = [
        f"{p.relative_to(ROOT)}: {name}"
        for p in project_files()
        for name in OUTSIDE
        if name in p.read_text(encoding="utf-8", errors="replace")
    ]
    assert not cites, cites


def test_every_cited_anchor_exists() -> None:
    pages = {p.name: anchors(p) for p in DOCS.glob("*.md")}
    broken = []
    for path in project_files():
        for page, anchor in CITATION.findall(path.read_text(encoding="utf-8", errors="replace")):
            if page not in pages or anchor not in pages[page]:
                broken.append(f"{path.relative_to(ROOT)}: {page}#{anchor}")
    assert not broken, broken


def test_rules_page_has_its_stable_anchors() -> None:
    want = {"cards", "kinds", "sequences", "kickers", "readings", "beats", "bomb-ladder"}
    want |= {"presets", "hint-order", "laizi", "custom-rule-sets", "game-flow-options"}
    assert want <= anchors(DOCS / "rules.md")
    assert "being verified" not in (DOCS / "rules.md").read_text(encoding="utf-8")


def test_the_version_lives_in_cargo_toml_only() -> None:
    cargo = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    (version,) = re.findall(r'^\[workspace\.package\]\nversion = "([^"]+)"', cargo, re.MULTILINE)
    assert ddz.__version__ == version
    assert importlib.metadata.version("ddz") == version
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject
    assert not re.search(r"^version\s*=", pyproject, re.MULTILINE)
