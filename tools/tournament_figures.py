"""The figures of docs/objectives.md's tournament section (official rules): for N = 2 to
100,000 players, the exact chance of first place (the expected share, a tie shared) of
expected-score play and of tournament play (``tournament:N``) against a field, their
ratio; against the expected-score field (exact) and against the ``heuristic`` field (its
final scores from ``--heuristic-games`` simulated games, seed 0, read as an empirical
field: exact given that field, which is itself a sample).

One solve of the tournament DP from a new game per (field, N): CPU-heavy (minutes each);
run it alone, niced. ``python tools/tournament_figures.py [--heuristic-games G]
[--sizes 2,3] [--fields ev,heuristic]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from solver.field import Field
from solver.simulate import simulate
from solver.stats_file import new_game_stats
from solver.table import get_table
from solver.target import Utility, solve_vectors, turn_at

SIZES = (2, 3, 4, 10, 100, 1_000, 10_000, 100_000)


def share_of(distribution: np.ndarray, utility: Utility) -> float:
    """E[U(final)] of a player whose final score has ``distribution``."""
    u = np.full(distribution.shape[0], utility.above)
    k = min(distribution.shape[0], utility.top)
    u[:k] = utility.values[:k]
    return math.fsum((distribution * u).tolist())


def row(table, field_dist: np.ndarray, ev_dist: np.ndarray, players: int) -> str:
    """One line: N, ev play's share, tournament play's share, ratio, seconds."""
    utility = Utility.tournament(field_dist, players)
    began = time.perf_counter()
    vectors = solve_vectors(table, utility, total=0)
    best = turn_at(vectors, 0, 0, 0, 0).value
    seconds = time.perf_counter() - began
    ev = share_of(ev_dist, utility)
    return (f"{players:>8,}  {ev:.10f}  {best:.10f}  {best / ev:7.4f}  "
            f"{players * best:9.4f}  ({seconds:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heuristic-games", type=int, default=1_000_000)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--fields", default="ev,heuristic",
                        help="the fields, comma-separated: ev (expected-score play, exact), "
                             "heuristic (simulated games)")
    args = parser.parse_args()
    fields = {f.strip() for f in args.fields.split(",")}
    sizes = [int(s) for s in args.sizes.split(",")]
    table = get_table("official")
    ev_dist = new_game_stats(table).distribution
    head = (f"{'N':>8}  {'P(1st) ev play':<14}  {'P(1st) tourn.':<14}  {'ratio':>7}  "
            f"{'N x P(1st)':>9}")
    if "ev" in fields:
        print("Against the expected-score field (exact):", flush=True)
        print(head, flush=True)
        for n in sizes:
            print(row(table, Field().distribution(table), ev_dist, n), flush=True)
    if "heuristic" not in fields:
        return
    games = args.heuristic_games
    scores = simulate(table, "heuristic", games, 0, judged=False).scores
    heuristic = Field.of_scores(scores, table.rules).distribution(table)
    print(f"\nAgainst the heuristic field ({games:,} simulated games, seed 0, mean "
          f"{scores.mean():.2f}):", flush=True)
    print(head, flush=True)
    for n in sizes:
        print(row(table, heuristic, ev_dist, n), flush=True)


if __name__ == "__main__":
    sys.exit(main())
