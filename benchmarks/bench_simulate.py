"""Simulator speed: games per second of each built-in strategy, JIT compile apart.

Target (issue 4): optimal-strategy simulation >= 20,000 games/s on the 2-core machine.

- ``JIT compile``: a fresh process with an empty numba cache plays a few games;
- ``games/s``: a warm run of many games in this process (kernels loaded, the early-turn
  cache built inside the timed call, as in every real run).

- ``target:300``: a fresh process solves the official target vectors of every level
  (``solve seconds``), then plays warm games (``games/s``, the solve apart); its peak
  memory and the rate of reaching 300 against the exact ``p_target``.

The load average printed with the figures says whether other work shared the cores.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import numba
from _fresh import cold_compile_seconds, load_average

GAMES = {"optimal": 400_000, "heuristic": 200_000, "greedy": 1_000_000}

_COMPILE = r"""
import time
from solver.table import open_table
table = open_table("official", build=True)
start = time.perf_counter()
from solver.simulate import simulate
simulate(table, "optimal", 100, seed=1)
print(time.perf_counter() - start)
"""

TARGET_GAMES = 20_000
_TARGET = r"""
import json, resource, sys, time
from solver.table import open_table
from solver.simulate import simulate
table = open_table("official", build=True)
simulate(table, "target:0", 200, seed=1)  # warm: load the kernels
result = simulate(table, "target:300", int(sys.argv[1]), seed=2024)
print(json.dumps({"solve": result.solve_seconds, "seconds": result.seconds,
                  "rate": result.reached_rate, "stderr": result.reached_stderr,
                  "p": result.p_target, "mean": result.mean,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def target_line() -> str:
    """The ``target:300`` figures, from a fresh process (its own peak memory)."""
    out = subprocess.run([sys.executable, "-c", _TARGET, str(TARGET_GAMES)], check=True,
                         capture_output=True, text=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    play = r["seconds"] - r["solve"]
    return (f"target:300 {TARGET_GAMES:>9,} games: vectors {r['solve']:.1f} s, play "
            f"{play:.2f} s {TARGET_GAMES / play:>8,.0f} games/s, peak {r['peak_mb']:.0f} MB; "
            f"reached {100 * r['rate']:.2f} % +- {100 * r['stderr']:.2f} "
            f"(exact p_target {100 * r['p']:.4f} %), mean {r['mean']:.3f}")


def main() -> int:
    from solver.simulate import simulate
    from solver.table import open_table

    table = open_table("official", build=True)
    print(f"load average before: {load_average()}")
    print(f"threads: {numba.get_num_threads()}")
    print(f"JIT compile (cold cache, fresh process): {cold_compile_seconds(_COMPILE):.1f} s")
    for strategy, games in GAMES.items():
        simulate(table, strategy, 1_000, seed=1)  # warm: load kernels
        start = time.perf_counter()
        result = simulate(table, strategy, games, seed=2024)
        seconds = time.perf_counter() - start
        print(f"{strategy:<10} {games:>9,} games {seconds:6.2f} s {games / seconds:>10,.0f} "
              f"games/s  mean {result.mean:.3f} +- {result.stderr:.3f}  sd {result.sd:.2f}"
              + ("  (target >= 20,000 games/s)" if strategy == "optimal" else ""))
    print(target_line())
    print(f"exact optimal mean: {table.expected_score:.4f}")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
