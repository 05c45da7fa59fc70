"""Fixtures the unit tests share."""

import pytest

from shufflelab import catalog


@pytest.fixture
def only_built_ins_afterwards():
    """After the test, the catalog holds the built-in algorithms only (what a test registered is gone)."""
    yield
    for entry in catalog.entries():
        if not entry.builtin:
            catalog.unregister(entry.id)
