"""What every benchmark shares: its command line, with ``--dry-run``.

Every script here reads its options with :class:`Parser`. ``--dry-run`` reads and checks
them, then stops before measuring anything: the script has imported snakecube and what it
measures with, so a dry run shows that the command works as written (the interpreter finds
the package, the options exist). tests/test_docs.py runs every benchmark command of the
README and docs/*.md so.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any


class Parser(argparse.ArgumentParser):
    """argparse's parser, with ``--dry-run``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_argument(
            "--dry-run",
            action="store_true",
            help="check the options and that snakecube loads, then stop without measuring",
        )

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed = super().parse_args(args, namespace)
        if parsed.dry_run:
            import snakecube

            where = Path(snakecube.__file__).parent
            print(
                f"{self.prog}: options read; snakecube {snakecube.__version__} from {where}; "
                "nothing measured (--dry-run)"
            )
            raise SystemExit(0)
        return parsed
