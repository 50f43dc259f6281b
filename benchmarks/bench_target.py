"""Target and win objectives (issue 8): wall time, CPU time, peak memory, operations.

Figures (2-core machine), each from a fresh process so peak memory is its own:

- ``official, every target up to 300, new game``: the target DP with vectors long
  enough for every target <= 300 from every state (``solve_vectors(..., total=None)``);
  wanted <= 30 s wall and <= 2 GB peak;
- ``yatzy, every target (0 to 374)``: the same for the highest possible Yatzy score;
  wanted <= 90 s;
- ``target question, six open boxes``: ``advise(..., target=...)`` in process, nothing
  precomputed beyond the expected-score table (median of warm calls); wanted <= 0.5 s;
- ``win question, both cards six open``: the opponent's exact distribution plus the win
  DP; wanted <= 2 s;
- ``advise --opponent from a new game``: end to end in process.

``--opponent-only`` times just that last figure and ``advise --opponent`` from two
mid-game cards (a fresh process each, wall and CPU seconds; the opponent's distribution
is known, only the DP is timed); ``--compare-with CHECKOUT`` times them in another
checkout of this repository too (its own ``.venv``), the two alternating in the same
run, so a change is measured against the code before it under the same load.

CPU time next to wall time shows how much of the two cores the process got (the load
average says whether other work shared them); G ops/s counts the kernels' operations
(``solver.target.task_operations``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from _fresh import load_average

_FULL = r"""
import json, resource, sys, time
from solver.table import open_table
from solver.target import Utility, solve_vectors, turn_at
name, top = sys.argv[1], int(sys.argv[2])
table = open_table(name, build=True)
solve_vectors(table, Utility.target(20), start=(table.rules.full_mask >> 3 << 3, 0, 0))
wall, cpu = time.perf_counter(), time.process_time()
vectors = solve_vectors(table, Utility.target(top))
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
p = {x: turn_at(vectors, 0, 0, 0, top - x).value for x in (200, 201, 250, 300, 301) if x <= top}
print(json.dumps({"wall": wall, "cpu": cpu, "entries": vectors.entries,
                  "ops": vectors.operations, "p": p,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

_QUESTIONS = r"""
import json, statistics, time
from advisor.caches import Caches
from solver import vector_cache
from advisor.ranking import advise
from advisor.model import Dice, Scorecard
from advisor.objective import Objective
from solver.table import open_table
table = open_table("official", build=True)
memory = Caches()  # the process's caches: what one question solves, the next reads
mine = Scorecard.parse("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20")
theirs = Scorecard.parse("aces=2,twos=8,threes=9,fours=16,fives=10,sixes=24,4k=22")
def timed(fn, runs):
    fn()
    out = []
    for _ in range(runs):
        vector_cache.clear(memory)  # each question solved anew: nothing kept from the last one
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return statistics.median(out)
target = timed(lambda: advise(mine, Dice("55516"), target=260, table=table, memory=memory), 5)
win = timed(lambda: advise(mine, Dice("55516"), objective=Objective.win(theirs), table=table,
                          memory=memory), 3)
vector_cache.clear(memory)
start = time.perf_counter()
advise(Scorecard.new(), Dice("55516"), objective=Objective.win(theirs), table=table,
       memory=memory)
new_game = time.perf_counter() - start
vector_cache.clear(memory)
start = time.perf_counter()
advise(Scorecard.new(), Dice("55516"), target=300, table=table, memory=memory)
new_target = time.perf_counter() - start
start = time.perf_counter()  # the next turn of that game: answered by the kept vectors
advise(Scorecard.new().place(Dice((5, 5, 5, 6, 6)), "fives"), Dice("12346"), target=300,
       table=table, memory=memory)
next_turn = time.perf_counter() - start
print(json.dumps({"target": target, "win": win, "new_game_win": new_game,
                  "new_target": new_target, "next_turn": next_turn}))
"""


_WIN_QUESTION = r"""
import json, sys, time
from advisor.caches import Caches
from solver import vector_cache
from advisor.ranking import advise
from advisor.model import Dice, Scorecard
from advisor.objective import Objective
from solver.table import open_table
table = open_table("official", build=True)
memory = Caches()  # the process's caches: what one question solves, the next reads
mine, theirs = (Scorecard.parse(text) for text in sys.argv[1:3])
late = Scorecard.parse("aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20")
advise(late, Dice("55516"), objective=Objective.win(theirs), table=table,
       memory=memory)  # compiled, theirs known
vector_cache.clear(memory)
wall, cpu = time.perf_counter(), time.process_time()
best = advise(mine, Dice("55516"), objective=Objective.win(theirs), table=table,
              memory=memory).best
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                  "p": best.probability, "best": best.describe()}))
"""

WIN_QUESTIONS = (
    ("a new game", "", "aces=2,twos=8,threes=9,fours=16,fives=10,sixes=24,4k=22"),
    ("mid-game, 10 open against 9", "aces=3,fours=12,ls=40", "twos=6,sixes=24,fh=25,chance=22"),
    ("mid-game, 11 open against 7", "sixes=24,ls=40",
     "aces=3,twos=6,threes=9,fh=25,ss=30,chance=21"),
)
"""(what, my card, the opponent's card) of the win questions ``--opponent-only`` times.
The script prints the best option's probability, whatever the objective's key is called
in the checkout it runs in."""


def _run(script: str, *args: str, python: str = sys.executable, cwd: Path | None = None) -> dict:
    out = subprocess.run([python, "-c", script, *args], check=True, capture_output=True,
                         text=True, cwd=cwd)
    return json.loads(out.stdout.strip().splitlines()[-1])


def opponent_only(other: Path | None, runs: int, which: list[int]) -> int:
    """``advise --opponent`` (:data:`WIN_QUESTIONS`), here and (alternating) in ``other``,
    with the ratio of their wall and CPU times."""
    here = Path(__file__).resolve().parents[1]
    places = [("this checkout", here)] + ([("compared", other.resolve())] if other else [])
    for run in range(1, runs + 1):
        for q in which:
            what, mine, theirs = WIN_QUESTIONS[q]
            got = {}
            for name, root in places:
                before = load_average()
                r = got[name] = _run(_WIN_QUESTION, mine, theirs,
                                     python=str(root / ".venv" / "bin" / "python"), cwd=root)
                print(f"run {run}, {name}: advise --opponent from {what}: {r['wall']:.1f} s "
                      f"wall, {r['cpu']:.1f} s CPU; best {r['best']}, {r['p']!r} (load "
                      f"{before} -> {load_average()})", flush=True)
            if other:
                a, b = got["this checkout"], got["compared"]
                print(f"run {run}, {what}: compared / this checkout: "
                      f"{b['wall'] / a['wall']:.2f}x wall, {b['cpu'] / a['cpu']:.2f}x CPU",
                      flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent-only", action="store_true",
                        help="time only advise --opponent from a new game")
    parser.add_argument("--compare-with", type=Path, metavar="CHECKOUT",
                        help="another checkout of this repository (with its .venv) to time "
                             "beside this one (implies --opponent-only)")
    parser.add_argument("--runs", type=int, default=1, help="alternating runs of each")
    parser.add_argument("--question", type=int, action="append",
                        choices=range(len(WIN_QUESTIONS)),
                        help="with --opponent-only: only these questions (0: a new game, "
                             "1 and 2: mid-game cards; repeatable; default all)")
    args = parser.parse_args()
    if args.opponent_only or args.compare_with:
        return opponent_only(args.compare_with, args.runs,
                             args.question or list(range(len(WIN_QUESTIONS))))
    print(f"load average before: {load_average()}")
    for name, top, wanted in (("official", 300, "<= 30 s, <= 2 GB"),
                              ("yatzy", 374, "<= 90 s")):
        r = _run(_FULL, name, str(top))
        print(f"{name}, every target up to {top} from a new game: {r['wall']:.1f} s wall, "
              f"{r['cpu']:.1f} s CPU, peak {r['peak_mb']:.0f} MB (wanted {wanted})")
        print(f"  {r['entries'] / 1e6:.1f} M vector entries, {r['ops'] / 1e9:.0f} G ops: "
              f"{r['ops'] / r['wall'] / 1e9:.1f} G ops/s wall, "
              f"{r['ops'] / r['cpu'] / 1e9:.1f} G ops/s per busy core")
        if r["p"]:
            print("  new game, best play for each X: " + ", ".join(f"P(>= {x}) {p:.10f}"
                                                     for x, p in r["p"].items()))
    q = _run(_QUESTIONS)
    print(f"target question, six open boxes (warm, median): {q['target']:.3f} s "
          "(wanted <= 0.5 s)")
    print(f"win question, both cards six open (warm, median): {q['win']:.3f} s "
          "(wanted <= 2 s)")
    print(f"advise --opponent (six open) from a new game: {q['new_game_win']:.1f} s")
    print(f"advise --target 300 from a new game: {q['new_target']:.1f} s; the next turn of "
          f"that game (kept vectors): {q['next_turn']:.3f} s")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
