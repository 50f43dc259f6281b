"""``yahtzee play --objective win``: the wait before a turn's first advice.

A three-player game, the player to move with N boxes open (the player before with N,
the one after with N + 1): the two others' exact final-score distributions, the
distribution of their maximum and the win DP from the mover's card, as the session
does it at the first roll of a turn (fresh process per N, so nothing is cached but the
numba kernels). ``--win-from`` (default 10) decides from which N the wait is paid;
before, the advice is by expected score.
"""

from __future__ import annotations

import json
import subprocess
import sys

from _fresh import load_average

_TURN = r"""
import json, sys, time
from advisor.ranking import TurnAdvisor
from advisor.model import Scorecard
from advisor.objective import Objective
from solver.table import get_table
n_open = int(sys.argv[1])
table = get_table("official")
FILLS = ["aces=3", "twos=6", "threes=9", "fours=12", "fives=15", "sixes=18", "3k=22",
         "4k=0", "fh=25", "ss=30", "ls=40", "yahtzee=0", "chance=21"]
def card(n):
    return Scorecard.parse(",".join(FILLS[:13 - n]))
warm = card(1)
TurnAdvisor(warm, table, Objective.win_against([warm, warm])).probability()
start, cpu = time.perf_counter(), time.process_time()
advisor = TurnAdvisor(card(n_open), table, Objective.win_against([card(n_open),
                                                                  card(n_open + 1)]))
advisor.probability()
print(json.dumps({"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu}))
"""


def main() -> int:
    print(f"load average before: {load_average()}")
    for n_open in (4, 6, 8, 9, 10, 11):
        out = subprocess.run([sys.executable, "-c", _TURN, str(n_open)], check=True,
                             capture_output=True, text=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"play --objective win, 3 players, mover with {n_open} open boxes: "
              f"{r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
