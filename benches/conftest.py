"""Collect ``bench_*.py`` here too (pytest's default pattern only takes
``test_*.py``), and ``serve_soak.py``, whose ``test_soak`` is the soak
bench's short run."""

from __future__ import annotations

import pytest

#: Modules collected by name: benches whose short version runs under pytest.
COLLECTED = {"serve_soak.py"}


def pytest_collect_file(file_path, parent):
    if (
        file_path.suffix == ".py"
        and (file_path.name.startswith("bench_") or file_path.name in COLLECTED)
        and not parent.session.isinitpath(file_path)  # named on the command line: pytest takes it
    ):
        return pytest.Module.from_parent(parent, path=file_path)
    return None
