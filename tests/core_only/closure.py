"""The distributions a core install of ddz holds: ddz, and every
requirement reached from it without an extra (numpy, rich and rich's own)."""

from __future__ import annotations

import importlib.metadata as metadata
import re


def _name(requirement: str) -> str:
    return re.split(r"[ ;<>=!~\[(]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def core_closure() -> set[str]:
    """ddz and every distribution its requirements without an extra need."""
    wanted, seen = ["ddz"], set()
    while wanted:
        name = wanted.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        wanted += [_name(r) for r in requires if "extra ==" not in r.replace('"', " ")]
    return seen
