"""Every preset's golden playthroughs (tests/golden/) still play out the same.

A failure shows the first differing lines; if the change is meant, run
``DDZ_REGENERATE_GOLDEN=1 python -m pytest tests/test_golden.py`` and review
the diff of tests/golden/ with the change.
"""

from __future__ import annotations

import difflib
import os

import pytest
from golden_playthrough import REGENERATE_ENV, path_of, render

import ddz


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_golden_playthrough(preset: str) -> None:
    now = render(preset)
    path = path_of(preset)
    if os.environ.get(REGENERATE_ENV):
        path.write_text(now, encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path}: run with {REGENERATE_ENV}=1"
    stored = path.read_text(encoding="utf-8")
    if stored != now:
        diff = difflib.unified_diff(
            stored.splitlines(), now.splitlines(), "stored", "now", lineterm="", n=1
        )
        shown = "\n".join(list(diff)[:40])
        pytest.fail(f"{preset} plays differently from {path.name}:\n{shown}")
