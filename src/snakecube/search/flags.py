"""Pruning flags, shared by the Python engines and the compiled loop (``_kernel.pyx`` reads
these names at import, so the numbers are written in one place only)."""

DEAD_END = 1
CONNECTED = 2
PARITY = 4
DEFAULT_PRUNE = DEAD_END | PARITY
MIN_FREE = 40  # connectivity is checked only while at least this many cells are free (measured)
