"""The published-answers table beside the repository: ../shared/corpus/known.json."""

from __future__ import annotations

import json
from pathlib import Path

KNOWN_PATH = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "known.json"


def load_known() -> dict:
    if not KNOWN_PATH.exists():
        raise FileNotFoundError(f"the known-answers table is missing: {KNOWN_PATH}")
    return json.loads(KNOWN_PATH.read_text())
