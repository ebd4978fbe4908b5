"""The published-answers table, copied into the repository: tests/data/known.json.

The copy is verbatim from the project's shared corpus; each entry names its sources.
"""

from __future__ import annotations

import json
from pathlib import Path

KNOWN_PATH = Path(__file__).resolve().parent / "data" / "known.json"


def load_known() -> dict:
    return json.loads(KNOWN_PATH.read_text(encoding="utf-8"))
