"""The forward pass of tournament play (``solver.forward.final_scores``) from a new game,
beside the win DP's solve from a new game (``advise 22256 --opponent ""``) and the
tournament DP's own, as ratios in one run (wall and CPU seconds; the load beside).

One process: the kernels warmed on a late card first (compilation is not the pass), then
the win DP, the tournament DP of N players (every level kept) and the forward pass by
its vectors. Heavy: many minutes under load; run it alone.
``python benchmarks/bench_forward.py [N] [CARD]``: from CARD instead of a new game (the
win DP against a new card from CARD too).
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
from solver.forward import final_scores
from solver.stats_file import new_game_stats
from solver.table import get_table
from solver.target import Utility, solve_vectors

LATE = "aces=3,twos=6,threes=9,fours=12,fives=15,3k=20,4k=0,ss=30,ls=40,yahtzee=50"


def timed(func) -> tuple[tuple[float, float], object]:  # noqa: ANN001
    wall, cpu = time.perf_counter(), time.process_time()
    out = func()
    return (round(time.perf_counter() - wall, 1), round(time.process_time() - cpu, 1)), out


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    card = Scorecard.parse(sys.argv[2]) if len(sys.argv) > 2 else Scorecard.new()
    start = (card.mask, card.upper, card.flag)
    table = get_table("official")
    memory = Caches()  # the process's caches: what one question solves, the next reads
    rules = table.rules
    utility = Utility.tournament(new_game_stats(table).distribution, players)
    every = tuple(range(rules.n_boxes + 1))
    late = Scorecard.parse(LATE)
    state = (late.mask, late.upper, late.flag)
    warm = solve_vectors(table, utility, start=state, total=late.total, keep=every)
    final_scores(table, warm, start=state, total=late.total)
    turn_advisor(late, table, Objective.win(""), memory=memory).probability()
    vector_cache.clear(memory)
    load = [load_average()]
    win, _ = timed(lambda: turn_advisor(card, table, Objective.win(""), memory=memory)
                   .probability())
    vector_cache.clear(memory)
    load.append(load_average())
    dp, vectors = timed(lambda: solve_vectors(table, utility, start=start, total=card.total,
                                              keep=every))
    load.append(load_average())
    forward, result = timed(lambda: final_scores(table, vectors, start=start,
                                                 total=card.total))
    load.append(load_average())
    print(json.dumps({"players": players, "card": str(card), "win_s": win, "tournament_dp_s": dp,
                      "forward_pass_s": forward,
                      "forward_over_win_wall": round(forward[0] / win[0], 3),
                      "forward_over_win_cpu": round(forward[1] / win[1], 3),
                      "forward_over_dp_wall": round(forward[0] / dp[0], 3),
                      "forward_over_dp_cpu": round(forward[1] / dp[1], 3),
                      "win_share": result.value, "mean": result.mean,
                      "sum": float(result.distribution.sum()),
                      "expected_utility": result.expected_utility(utility),
                      "load": load}))


if __name__ == "__main__":
    main()
