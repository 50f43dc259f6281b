"""``yahtzee solve --tournament N`` then ``advise --tournament N`` in new processes.

One run, each command a new process as a person types it: the win DP from a new game
(``advise 22256 --opponent ""``), the tournament's first solve from a new game kept on
disk (``solve --tournament N``), their ratio (wall and CPU), then ``advise 22256 --card C
--tournament N`` on cards of one game (new game to one box open), each end to end in a
new process (wall and CPU seconds), answered from the file. Heavy: minutes under load
and the file's hundreds of MB in the table cache; run it alone.
``python benchmarks/bench_tournament_file.py [N]``.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from _fresh import load_average

YAHTZEE = str(Path(sys.executable).with_name("yahtzee"))
FILLS = ["aces=3", "twos=6", "threes=9", "fours=12", "fives=15", "sixes=18", "3k=22",
         "4k=0", "fh=25", "ss=30", "ls=40", "yahtzee=0", "chance=21"]


def run(*args: str) -> tuple[float, float, str]:
    """(wall s, CPU s, stdout) of ``yahtzee ARGS`` in a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    out = subprocess.run([YAHTZEE, *args], check=True, capture_output=True, text=True,
                         env={**os.environ, "COLUMNS": "200"})
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout


def main() -> None:
    players = sys.argv[1] if len(sys.argv) > 1 else "10000"
    run("advise", "22256", "--card", ",".join(FILLS[:12]), "--opponent", "")  # warm
    load = [load_average()]
    win = run("advise", "22256", "--opponent", "", "--json")
    load.append(load_average())
    first = run("solve", "--tournament", players, "--force", "--json")
    load.append(load_average())
    later = []
    for n in range(0, 13):
        wall, cpu, out = run("advise", "22256", "--card", ",".join(FILLS[:n]),
                             "--tournament", players, "--json")
        later.append((round(wall, 2), round(cpu, 2)))
    load.append(load_average())
    ev = run("advise", "22256", "--json")
    solved = json.loads(first[2])
    print(json.dumps({"players": int(players),
                      "win_new_game_s": [round(win[0], 1), round(win[1], 1)],
                      "tournament_solve_s": [round(first[0], 1), round(first[1], 1)],
                      "ratio_wall": round(first[0] / win[0], 3),
                      "ratio_cpu": round(first[1] / win[1], 3),
                      "file_mb": round(solved["bytes"] / 1e6, 1),
                      "later_advise_wall_cpu_s": later,
                      "max_later_wall_s": max(w for w, _ in later),
                      "max_later_cpu_s": max(c for _, c in later),
                      "ev_advise_wall_cpu_s": [round(ev[0], 2), round(ev[1], 2)],
                      "load": load}))


if __name__ == "__main__":
    main()
