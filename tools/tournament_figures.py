"""The figures of docs/objectives.md's tournament section (official rules): for N = 2 to
100,000 players, the exact chance of first place (the expected share, a tie shared) of
expected-score play and of tournament play (``tournament:N``) against a field, their
ratio; against the expected-score field (exact) and against the ``heuristic`` field (its
final scores from ``--heuristic-games`` simulated games, seed 0, read as an empirical
field: exact given that field, which is itself a sample).

One solve of the tournament DP from a new game per (field, N): CPU-heavy (minutes each);
run it alone, niced. ``python tools/tournament_figures.py [--heuristic-games G]
[--sizes 2,3] [--fields ev,heuristic] [--given-up]``.

``--given-up``: also the expected final score of tournament play and what it gives up
against expected-score play (``E(new game)`` less that mean), exact: the solve keeps
every level and the forward pass (:func:`solver.forward.final_scores`) plays it from a
new game; the row checks that the pass's expected share equals the DP's to 1e-12 and
that its distribution sums to 1.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

from solver.field import Field
from solver.forward import final_scores
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


def row(table, field_dist: np.ndarray, ev_dist: np.ndarray, players: int,
        given_up: bool = False) -> str:
    """One line: N, ev play's share, tournament play's share, ratio, seconds; with
    ``given_up`` also tournament play's mean final score and the points it gives up
    against expected-score play, the pass's seconds and CPU seconds."""
    utility = Utility.tournament(field_dist, players)
    began, cpu = time.perf_counter(), time.process_time()
    every = tuple(range(table.rules.n_boxes + 1)) if given_up else ()
    vectors = solve_vectors(table, utility, total=0, keep=every)
    best = turn_at(vectors, 0, 0, 0, 0).value
    seconds, cpu_s = time.perf_counter() - began, time.process_time() - cpu
    ev = share_of(ev_dist, utility)
    line = (f"{players:>8,}  {ev:.10f}  {best:.10f}  {best / ev:7.4f}  "
            f"{players * best:9.4f}  ({seconds:.0f} s, {cpu_s:.0f} s CPU)")
    if not given_up:
        return line
    began, cpu = time.perf_counter(), time.process_time()
    play = final_scores(table, vectors)
    seconds, cpu_s = time.perf_counter() - began, time.process_time() - cpu
    total = math.fsum(play.distribution.tolist())
    if abs(play.expected_utility(utility) - best) > 1e-12 or abs(total - 1.0) > 1e-12:
        raise AssertionError(f"N={players}: the pass's share {play.expected_utility(utility)} "
                             f"and sum {total} against the DP's {best}")
    mean_ev = math.fsum((ev_dist * np.arange(ev_dist.shape[0])).tolist())
    return (f"{line}  mean {play.mean:.4f}  given up {mean_ev - play.mean:.4f}  "
            f"sd {play.sd:.4f}  (pass {seconds:.0f} s, {cpu_s:.0f} s CPU, load "
            f"{os.getloadavg()[0]:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heuristic-games", type=int, default=1_000_000)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--given-up", action="store_true",
                        help="also tournament play's mean final score and the points it "
                             "gives up (every level kept, then the forward pass)")
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
            print(row(table, Field().distribution(table), ev_dist, n, args.given_up),
                  flush=True)
    if "heuristic" not in fields:
        return
    games = args.heuristic_games
    scores = simulate(table, "heuristic", games, 0, judged=False).scores
    heuristic = Field.of_scores(scores, table.rules).distribution(table)
    print(f"\nAgainst the heuristic field ({games:,} simulated games, seed 0, mean "
          f"{scores.mean():.2f}):", flush=True)
    print(head, flush=True)
    for n in sizes:
        print(row(table, heuristic, ev_dist, n, args.given_up), flush=True)


if __name__ == "__main__":
    sys.exit(main())
