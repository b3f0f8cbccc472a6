"""Every option of a rule set has a typed getter on `Rules` that agrees with
`to_dict()`, and the package reads options through them, never through
``rules.to_dict()[...]`` (docs/rules.md#custom-rule-sets)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ddz

PACKAGE = Path(ddz.__file__).resolve().parent


@pytest.mark.parametrize("preset", ddz.PRESETS)
def test_every_option_has_a_getter_that_agrees_with_to_dict(preset: str) -> None:
    rules = ddz.Rules(preset)
    for name, value in rules.to_dict().items():
        got = getattr(rules, name)
        assert got == value and type(got) is type(value), (preset, name, got, value)


def test_getters_follow_custom_options() -> None:
    rules = ddz.Rules("classic", bidding="call", spring=False, doubling_bomb=4)
    assert (rules.bidding, rules.spring, rules.doubling_bomb) == ("call", False, 4)


def test_the_package_reads_no_option_through_to_dict() -> None:
    reads = [
        f"{p.relative_to(PACKAGE)}:{i}"
        for p in PACKAGE.rglob("*.py")
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"to_dict\(\)\s*(\[|\.get\()", line)
    ]
    assert not reads, reads
