"""Solver build: first run (JIT compilation), warm builds, states/s, peak memory.

Targets (issue 2, 5; 2-core machine): official warm build <= 1.0 s wall, first run with
compilation <= 15 s, peak memory <= 1 GB; Yatzy warm build <= 3 s.

Each figure comes from a fresh process, so one measurement cannot warm the next:
- ``first run``: ``yahtzee solve`` with an empty numba cache (compilation included);
- ``cold process``: the same with the cache warm (imports + cache load + build);
- ``warm build``: in one process, the median of 5 builds after one untimed build.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent

_WARM = r"""
import json, resource, statistics, sys, time
from solver.builder import build_values
name = sys.argv[1]
build_values(name)
walls, cpus = [], []
for _ in range(5):
    w, c = time.perf_counter(), time.process_time()
    result = build_values(name)
    walls.append(time.perf_counter() - w)
    cpus.append(time.process_time() - c)
print(json.dumps({"wall": statistics.median(walls), "best": min(walls),
                  "cpu": statistics.median(cpus), "states": result.states,
                  "value": float(result.values[0, 0, 0]),
                  "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _solve_cli(rules: str, env: dict[str, str], out: Path) -> float:
    start = time.perf_counter()
    subprocess.run([str(BIN / "yahtzee"), "solve", "--rules", rules, "--out", str(out)],
                   check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        cold_env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "numba-cache"))
        first = _solve_cli("official", cold_env, Path(tmp) / "a.ytable")
        again = _solve_cli("official", cold_env, Path(tmp) / "b.ytable")
    print(f"official first run (compile + build, `yahtzee solve`): {first:6.2f} s   target <= 15 s")
    print(f"official cold process, JIT cache warm (`yahtzee solve`): {again:6.2f} s")
    print()
    print(f"{'rules':<11} {'warm wall':>9} {'best':>7} {'cpu':>7} {'states':>10} "
          f"{'states/s':>11} {'peak MB':>8}  new-game value")
    for rules in ("official", "free-joker", "no-bonus", "two-rolls", "yatzy"):
        out = subprocess.run([sys.executable, "-c", _WARM, rules], check=True,
                             capture_output=True, text=True).stdout
        r = json.loads(out)
        print(f"{rules:<11} {r['wall']:8.3f}s {r['best']:6.3f}s {r['cpu']:6.3f}s "
              f"{r['states']:>10,} {r['states'] / r['wall']:>11,.0f} {r['maxrss_mb']:>8.0f}  "
              f"{r['value']:.10f}")
    print("targets: official warm wall <= 1.0 s, yatzy <= 3.0 s, peak memory <= 1 GB")


if __name__ == "__main__":
    main()
