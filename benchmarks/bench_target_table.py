"""Target tables (issue 19): build time, size and peak memory of ``yahtzee solve
--targets``, then target questions end to end with the table (each a fresh ``yahtzee``
process, as a user types it): advise, stats (with and without the cached new-game
statistics, ``<rules>.ystats``, which ``solve --targets`` writes) and ``simulate
--strategy target:X`` (reading the table; then solving its vectors without it).

In a temporary table folder (a copy of the official table), so the user's cache is left
alone. Wanted: ``advise --target 300 22256 --json`` <= 2 s and ``stats --target X`` <= 2 s
end to end once the table is built. Usage: ``python benchmarks/bench_target_table.py
[RULES [MAX]]`` (default: official, the default --max).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _fresh import load_average

BIN = Path(sys.executable).parent


def run(env: dict, *args: str) -> tuple[float, str]:
    """Wall seconds of one ``yahtzee`` command, and its stdout."""
    start = time.perf_counter()
    out = subprocess.run([str(BIN / "yahtzee"), *args], env=env, check=True,
                         capture_output=True, text=True)
    return time.perf_counter() - start, out.stdout


def main() -> int:
    from solver.table import default_table_path, get_table

    rules = sys.argv[1] if len(sys.argv) > 1 else "official"
    top = sys.argv[2:3]
    get_table(rules)  # built in the user's cache if missing (not timed)
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory() as folder:
        shutil.copyfile(default_table_path(rules), Path(folder) / f"{rules}.ytable")
        env = {**os.environ, "YAHTZEE_TABLES": folder}
        seconds, out = run(env, "solve", "--targets", "--rules", rules, "--json",
                           *(["--max", top[0]] if top else []))
        built = json.loads(out)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"yahtzee solve --targets --rules {rules}: every target up to "
              f"{built['max_target']}, {built['bytes'] / 1e6:.0f} MB, {seconds:.1f} s wall "
              f"(the DP {built['solve_seconds']:.1f} s), peak {peak:.0f} MB")
        x = min(300, built["max_target"])
        for label, args in (
                (f"advise --target {x} 22256 --json (new game)",
                 ["advise", "22256", "--target", str(x), "--json", "--rules", rules]),
                (f"advise --target {x} 22256 --json, seven open boxes",
                 ["advise", "22256", "--target", str(x), "--json", "--rules", rules,
                  "--card", "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18"]),
                (f"stats --target {x} --json (new game)",
                 ["stats", "--target", str(x), "--json", "--rules", rules])):
            times = [run(env, *args)[0] for _ in range(3)]
            print(f"{label}: {min(times):.2f} s end to end (best of 3; first "
                  f"{times[0]:.2f} s; wanted <= 2 s)")
        stats_file = Path(folder) / f"{rules}.ystats"
        stats_file.unlink()
        slow, _ = run(env, "stats", "--target", str(x), "--json", "--rules", rules)
        print(f"stats --target {x} --json (new game) without {stats_file.name} (computing "
              f"it, as before it was cached): {slow:.2f} s end to end")
        simulate = ["simulate", "--strategy", f"target:{x}", "--games", "10000", "--json",
                    "--rules", rules]
        for label in ("reading the target table", "solving (no target table)"):
            seconds, out = run(env, *simulate)
            played = json.loads(out)
            print(f"simulate --strategy target:{x} --games 10000, {label}: {seconds:.1f} s "
                  f"end to end (vectors {played['solve_seconds']:.1f} s, "
                  f"{played['games_per_second']:,.0f} games/s; p_target "
                  f"{played['p_target']!r}, mean {played['mean']!r})")
            (Path(folder) / f"{rules}.ytargets").unlink(missing_ok=True)
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
