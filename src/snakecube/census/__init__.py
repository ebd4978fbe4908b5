"""Census: every snake design that folds into a region, with its number of solutions.

Method (see ``docs/design-census.md``): Hamiltonian paths are enumerated once per class under the
region's symmetries, in work units (``units``); each unit's paths are tallied by canonical
design key (``units``) and written to a store as compact binary records, hash-partitioned by
design (``store``); each partition is then reduced on its own (``reduce``), so no process
ever holds every design. Units and partitions run on local processes, or on a Dask cluster
(``snakecube.cluster``). A finished unit's file is its checkpoint: a rerun with the same store
skips it. The modules: ``units``, ``store``, ``reduce``, ``runner`` (which runs them) and
``result`` (the ``Census`` it answers).

Memory, per process: a unit needs about 16 bytes per distinct design it meets plus about
100 MB of buffers; a reduce task about 40 bytes per record of its partition.
"""

from snakecube.census.forecast import Forecast
from snakecube.census.result import Census, DesignCount
from snakecube.census.runner import census, estimate
from snakecube.census.units import path_units

__all__ = ["Census", "DesignCount", "Forecast", "census", "estimate", "path_units"]
