"""Pruning flags, shared by the Python engines and the compiled loop (``_kernel.pyx`` reads
these names at import, so the numbers are written in one place only)."""

DEAD_END = 1
CONNECTED = 2
PARITY = 4
TAIL = 8  # the last segments fit backwards from the last cube, once a cell must hold it
TAIL_SEGMENTS = 4  # how many of them (``TAIL``; the first-solution search's ``FIRST_TAIL`` too)
ALL_PRUNE = DEAD_END | CONNECTED | PARITY | TAIL
DEFAULT_PRUNE = DEAD_END | PARITY | TAIL
MIN_FREE = 40  # connectivity is checked only while at least this many cells are free (measured)

# The first-solution search's checks (``_first.pyx``, ``search.first``): a flag space of its own.
# Dead ends and the end's colour are always checked there.
FIRST_BLOCKS = 1  # Tarjan blocks of the free cells, with the colour balance before a cut cell
FIRST_FORCED = 2  # forced passages through cells with two ways on
FIRST_FEWEST_WAYS = 4  # value order: fewest ways on first (Warnsdorff), random ties
FIRST_RUNS = 8  # the long segments to come fit the straight free runs
FIRST_TAIL = 16  # the last segments fit backwards from a known end
FIRST_SWEEP = 32  # a restriction, not a check: the sweep window (``FirstSearch.set_window``)
