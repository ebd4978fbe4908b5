"""Shared fixtures."""

from __future__ import annotations

import pytest
from corpus import load_known


@pytest.fixture(scope="session")
def known() -> dict:
    return load_known()
