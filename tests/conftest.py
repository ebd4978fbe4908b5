"""Shared fixtures."""

from __future__ import annotations

import os
import signal

import pytest

from corpus import load_known


@pytest.fixture(scope="session")
def known() -> dict:
    return load_known()


# Ctrl-C tests send SIGINT to the tool and expect it to stop and keep what it found. A shell
# that starts the suite in the background without job control (`.ci/run &` in a script) starts
# it with SIGINT ignored, and an ignored signal stays ignored across fork and exec, so the tool
# would never see the Ctrl-C. The suite takes SIGINT back, as an interactive pytest has it.
signal.signal(signal.SIGINT, signal.default_int_handler)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

# CI runs the property tests with a fixed seed so a red build can be reproduced.
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

from snakecube.search import kernel  # noqa: E402

# Cross-checks run with every engine that is here: the reference, and the compiled kernel
# where it is built (CI also runs the suite with SNAKECUBE_PUREPYTHON=1, without it).
ENGINES = ("reference", "kernel") if kernel.AVAILABLE else ("reference",)


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    """Cross-checks run with both engines: the reference and the compiled kernel."""
    return request.param


def pytest_collection_modifyitems(config, items):
    """Without the kernel, tests marked heavy would take many minutes in pure Python."""
    if kernel.AVAILABLE:
        return
    skip = pytest.mark.skip(reason="heavy: needs the compiled kernel to finish in time")
    for item in items:
        if "heavy" in item.keywords:
            item.add_marker(skip)
