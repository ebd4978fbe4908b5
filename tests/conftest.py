"""Shared fixtures."""

from __future__ import annotations

import os

import pytest

from corpus import load_known


@pytest.fixture(scope="session")
def known() -> dict:
    return load_known()


# CI runs the property tests with a fixed seed so a red build can be reproduced.
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ENGINES = ("reference", "kernel")


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    """Cross-checks run with both engines: the reference and the compiled kernel."""
    return request.param
