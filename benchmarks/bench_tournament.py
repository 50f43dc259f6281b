"""``advise --tournament N``: the first solve from a new game, beside the win DP's from a
new game (``advise 22256 --opponent ""``), as a ratio in one run; then every later card
of a game answered from the kept vectors (the time of each advice, end to end in the
process: the turn's figures read from the vectors and every option ranked).

One process: both new-game solves (wall and CPU seconds; the load beside), then the
advice on every turn of a played game (13 cards, new game to one box open). Heavy:
minutes under load; run it alone. ``python benchmarks/bench_tournament.py [N]``.
"""

from __future__ import annotations

import json
import sys
import time

from _fresh import load_average

from advisor.caches import Caches
from advisor.model import Scorecard
from advisor.objective import Objective
from advisor.ranking import turn_advisor
from solver import vector_cache
from solver.table import get_table

FILLS = ["aces=3", "twos=6", "threes=9", "fours=12", "fives=15", "sixes=18", "3k=22",
         "4k=0", "fh=25", "ss=30", "ls=40", "yahtzee=0", "chance=21"]


def timed(func) -> tuple[float, float]:  # noqa: ANN001
    wall, cpu = time.perf_counter(), time.process_time()
    func()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    table = get_table("official")
    memory = Caches()  # the process's caches: what one question solves, the next reads
    new = Scorecard.new()
    # warm the kernels on a late card (compilation is not the solve)
    late = Scorecard.parse(",".join(FILLS[:12]))
    turn_advisor(late, table, Objective.win(""), memory=memory).probability()
    vector_cache.clear(memory)
    load = [load_average()]
    win = timed(lambda: turn_advisor(new, table, Objective.win(""), memory=memory)
                .probability())
    vector_cache.clear(memory)
    load.append(load_average())
    objective = Objective.tournament(players)
    first = timed(lambda: turn_advisor(new, table, objective, memory=memory).probability())
    load.append(load_average())
    kept = vector_cache.kept(memory)[0].vectors.levels  # what the later turns read
    megabytes = sum(level.vals.nbytes for level in kept.values()) / 1e6
    later = []
    for n in range(1, 13):
        card = Scorecard.parse(",".join(FILLS[:n]))
        wall, cpu = timed(lambda c=card: turn_advisor(c, table, objective, memory=memory)
                          .advise("22256", 2))
        later.append(round(wall, 3))
    print(json.dumps({"players": players, "win_new_game_s": [round(x, 1) for x in win],
                      "tournament_new_game_s": [round(x, 1) for x in first],
                      "ratio_wall": round(first[0] / win[0], 3),
                      "ratio_cpu": round(first[1] / win[1], 3),
                      "levels_kept": sorted(kept), "kept_mb": round(megabytes, 1),
                      "later_cards_advice_s": later, "max_later_s": max(later),
                      "load": load}))


if __name__ == "__main__":
    main()
