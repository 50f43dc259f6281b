"""Exact statistics of optimal play: wall time, peak memory and JIT compile time.

Target (issue 4): ``optimal_stats`` of the official rules <= 60 s on the 2-core machine.

- ``JIT compile``: a fresh process with an empty numba cache computes the stats of a
  late-game state (all kernels compiled, almost no work);
- ``first call`` / ``warm call``: the whole official distribution in this process (the
  first call loads the kernels from numba's disk cache);
- ``peak memory``: the process's maximum resident set size (``ru_maxrss``).

Figures are wall-clock times; the load average printed with them says whether other
work shared the two cores.
"""

from __future__ import annotations

import resource
import sys
import time

from _fresh import cold_compile_seconds, load_average

_COMPILE = r"""
import time
from solver.table import open_table
table = open_table("official", build=True)
start = time.perf_counter()
from solver.stats import optimal_stats
optimal_stats(table, start=(table.rules.full_mask & ~(1 << 12), 0, 0))
print(time.perf_counter() - start)
"""


def main() -> int:
    from solver.stats import optimal_stats
    from solver.table import open_table

    table = open_table("official", build=True)
    print(f"load average before: {load_average()}")
    print(f"JIT compile (cold cache, fresh process): {cold_compile_seconds(_COMPILE):.1f} s")
    start = time.perf_counter()
    stats = optimal_stats(table)
    first = time.perf_counter() - start
    start = time.perf_counter()
    stats = optimal_stats(table)
    warm = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"exact stats, official: first call {first:.1f} s, warm call {warm:.1f} s "
          f"(target <= 60 s)")
    print(f"peak memory (max RSS): {peak:.0f} MB")
    print(f"mean {stats.mean:.10f} (table {table.expected_score:.10f}), sd {stats.sd:.4f}")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
