"""When the whole field adapts (docs/objectives.md): everyone plays tournament-optimal
against the field of the round before, each round's field the exact final-score
distribution of that play (official rules).

Round 0's field is expected-score play (its exact new-game distribution). Round ``k``
solves the tournament DP of N players against field ``k - 1`` from a new game, every
level kept, and plays it forward (:func:`solver.forward.final_scores`): its final-score
distribution is field ``k``. The field has settled when the total variation between two
rounds' fields, ``sum |F_k - F_(k-1)| / 2``, is below ``--tolerance`` (1e-9); a cycle
when a field comes within it of an earlier one but the last. For the last field the
script prints each strategy's chance of first place against it: expected-score play,
round 1's play (tournament-optimal against the expected-score field) and the last
round's (optimal against the field before it).

CPU-heavy (a solve and a pass per round, minutes each); run it alone, niced.
``python tools/adapting_field.py [--players 10,100,10000] [--rounds 12]
[--tolerance 1e-9]``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

from solver.forward import final_scores
from solver.stats_file import new_game_stats
from solver.table import get_table
from solver.target import Utility, solve_vectors, turn_at


def share_of(distribution: np.ndarray, utility: Utility) -> float:
    """E[U(final)] of a player whose final score has ``distribution``."""
    u = np.full(distribution.shape[0], utility.above)
    k = min(distribution.shape[0], utility.top)
    u[:k] = utility.values[:k]
    return math.fsum((distribution * u).tolist())


def total_variation(p: np.ndarray, q: np.ndarray) -> float:
    """``sum |p - q| / 2`` of two distributions over final scores."""
    size = max(p.shape[0], q.shape[0])
    a, b = np.zeros(size), np.zeros(size)
    a[:p.shape[0]], b[:q.shape[0]] = p, q
    return 0.5 * math.fsum(np.abs(a - b).tolist())


def mean_of(distribution: np.ndarray) -> float:
    return math.fsum((distribution * np.arange(distribution.shape[0])).tolist())


def adapt(table, players: int, rounds: int, tolerance: float) -> None:
    """The rounds of one tournament size, printed as they end."""
    every = tuple(range(table.rules.n_boxes + 1))
    ev = new_game_stats(table).distribution
    ev = ev / math.fsum(ev.tolist())
    fields = [ev]
    print(f"N = {players:,}: round 0, expected-score play: mean {mean_of(ev):.4f}", flush=True)
    verdict = f"not settled in {rounds} rounds"
    for k in range(1, rounds + 1):
        began, cpu = time.perf_counter(), time.process_time()
        utility = Utility.tournament(fields[-1], players)
        vectors = solve_vectors(table, utility, total=0, keep=every)
        best = turn_at(vectors, 0, 0, 0, 0).value
        play = final_scores(table, vectors)
        del vectors
        new = play.distribution / math.fsum(play.distribution.tolist())
        change = total_variation(new, fields[-1])
        near = [j for j in range(len(fields) - 1) if total_variation(new, fields[j]) < tolerance]
        print(f"  round {k}: P(1st) against field {k - 1}: tournament play {best:.10f}, "
              f"expected-score play {share_of(ev, utility):.10f}; its mean "
              f"{play.mean:.4f}; total variation from field {k - 1}: {change:.3e} "
              f"({time.perf_counter() - began:.0f} s, {time.process_time() - cpu:.0f} s "
              f"CPU, load {os.getloadavg()[0]:.1f})", flush=True)
        fields.append(new)
        if change < tolerance:
            verdict = f"settled after {k} rounds (total variation {change:.2e} < {tolerance:g})"
            break
        if near:
            verdict = f"a cycle: field {k} is within {tolerance:g} of field {near[0]}"
            break
    last = Utility.tournament(fields[-1], players)
    print(f"  {verdict}; against the last field (mean {mean_of(fields[-1]):.4f}): "
          f"expected-score play {share_of(ev, last):.10f}, round 1's play "
          f"{share_of(fields[1], last):.10f}, the last round's play "
          f"{share_of(fields[-1], last):.10f} (1/N = {1 / players:.10f})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="10,100,10000")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--tolerance", type=float, default=1e-9)
    args = parser.parse_args()
    table = get_table("official")
    for n in (int(s) for s in args.players.split(",")):
        adapt(table, n, args.rounds, args.tolerance)


if __name__ == "__main__":
    sys.exit(main())
