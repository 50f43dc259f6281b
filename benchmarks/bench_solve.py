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


def operation_count(rules_name: str) -> tuple[int, float]:
    """(columns solved, double-precision operations) of one build of ``rules_name``.

    Per column (one state): the box step does a max and an add per (roll, open box);
    each reroll stage does 6 operations per partial keep (5 adds, 1 multiply: 210 keeps)
    and a max plus the exact ``* unit`` per (keep, sub-keep) pair (1,260 pairs); the
    final expectation is 252 multiply-adds.
    """
    from solver.game.dice import FIRST_ROLL_KEEP, KEEP_SUB_COUNT, N_ROLLS
    from solver.game.rules import N_UPPER, get_rules
    from solver.game.states import upper_classes
    from solver.levels import masks_by_level

    rules = get_rules(rules_name)
    classes = upper_classes()
    per_upper = [(classes[um] == range(64)).sum() for um in range(1 << N_UPPER)]
    columns, ops = 0, 0.0
    stage = 6 * FIRST_ROLL_KEEP + 2 * int(KEEP_SUB_COUNT.sum())
    for level in masks_by_level(rules.n_boxes)[:-1]:
        for m in level:
            cols = per_upper[m & 63] * (rules.n_flags if m >> rules.yahtzee_box & 1 else 1)
            n_open = rules.n_boxes - bin(int(m)).count("1")
            columns += cols
            ops += cols * (2 * N_ROLLS * n_open + (rules.rolls_per_turn - 1) * stage + 2 * N_ROLLS)
    return columns, ops


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
        columns, ops = operation_count(rules)
        print(f"{'':<11} {columns:,} columns solved, {ops / 1e9:.2f} G double ops, "
              f"{ops / r['wall'] / 1e9:.1f} G ops/s")
    print("targets: official warm wall <= 1.0 s, yatzy <= 3.0 s, peak memory <= 1 GB")
    print("peak of this CPU (AVX2, 2 cores, ~2 vector add/max/mul per cycle, 4 doubles each):"
          " about 16 double ops per cycle, i.e. ~40 G ops/s at 2.5 GHz")


if __name__ == "__main__":
    main()
