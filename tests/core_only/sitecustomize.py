"""Makes this interpreter a core install of ddz: every installed package
that is not ddz, one of its core requirements (numpy, rich) or one of
theirs cannot be imported, as if the extras had never been installed.

tests/test_core_install.py puts this directory first on PYTHONPATH of the
commands it runs, so Python loads this file at start-up (sitecustomize).
"""

from __future__ import annotations

import importlib.abc
import importlib.metadata as metadata
import sys

from closure import core_closure


def _blocked() -> set[str]:
    core = core_closure()
    blocked = set()
    for module, dists in metadata.packages_distributions().items():
        if not any(d.lower().replace("_", "-") in core for d in dists):
            blocked.add(module)
    return blocked - {"ddz", "sitecustomize"}


BLOCKED = frozenset(_blocked())


class _NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _NotInstalled())
for _module in [m for m in sys.modules if m.partition(".")[0] in BLOCKED]:
    del sys.modules[_module]
