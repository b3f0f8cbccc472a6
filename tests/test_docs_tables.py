"""The docs' generated tables and the stub's option getters say what the engine
declares (tests/docs_tables.py)."""

from __future__ import annotations

import pytest
from docs_tables import BLOCKS, current


@pytest.mark.parametrize("page,name", sorted(BLOCKS))
def test_each_generated_block_is_up_to_date(page: str, name: str) -> None:
    assert current(page, name) == BLOCKS[(page, name)](), (
        f"{page}'s {name} block is stale: run `python tests/docs_tables.py`"
    )
