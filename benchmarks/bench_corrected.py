"""The luck-corrected estimate of ``simulate`` (issue 21): its precision and its cost, and a
Python strategy played by worker processes.

- ``estimate``: greedy-turn, 4,000 games of seeds 0 to 4: the corrected mean against the
  exact 217.3834 (in standard errors) and its standard error over the plain mean's
  (target: <= 0.25), and without the luck control variates (``loss_only_stderr``);
- ``judging``: games per second of a built-in strategy judged (every decision against
  optimal play) and not judged (``judged=False``), and the ratio, in the same run;
- ``batch``: decisions per second of a vectorised batch strategy (keep the most common
  face, then the first box allowed), judged (target: >= 20,000 decisions/s);
- ``workers``: a Python strategy's games per second in 1 and 2 processes (same games,
  checked equal) and the speed-up (target: >= 1.7x on 2 quiet cores), with the load
  average just before and after those runs.

The load average printed with the figures says whether other work shared the cores.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from _fresh import load_average

from solver.simulate import batch_strategy

GREEDY_TURN_MEAN = 217.3834
PYTHON_GAMES = 6_000


def most_common_face(decision):  # noqa: ANN001, ANN201  (a user's strategy)
    """Keep the most common face twice, then the allowed box worth the most points now."""
    if decision.rolls_left:
        face = max(range(1, 7), key=lambda f: (decision.dice.count(f), f))
        kept = [f for f in decision.dice if f == face]
        if len(kept) < 5:
            return kept
    best = max(decision.placements(), key=lambda p: (p.points, -p.box))
    return decision.rules.boxes[best.box].name


@batch_strategy
def first_box(batch):  # noqa: ANN001, ANN201  (a user's strategy)
    """Vectorised: keep the most common face (ties: the higher), then the first box."""
    counts = np.stack([(batch.dice == f).sum(axis=1) for f in range(1, 7)], axis=1)
    face = 1 + np.argmax(counts * 10 + np.arange(1, 7), axis=1)
    keeps = ((batch.dice == face[:, None]) * (1 << np.arange(5))).sum(axis=1)
    box = 31 + np.argmax(batch.action_mask[:, 31:], axis=1)
    return np.where((batch.rolls_left > 0) & (counts.max(axis=1) < 5), keeps, box)


def main() -> int:
    from solver.simulate import simulate
    from solver.table import open_table

    table = open_table("official", build=True)
    print(f"load average before: {load_average()}")
    for seed in range(5):
        r = simulate(table, "greedy-turn", 4000, seed=seed)
        off = (r.corrected_mean - GREEDY_TURN_MEAN) / r.corrected_stderr
        print(f"estimate greedy-turn 4,000 games seed {seed}: corrected {r.corrected_mean:.4f} "
              f"+- {r.corrected_stderr:.4f} ({off:+.2f} SE from exact), plain {r.mean:.4f} "
              f"+- {r.stderr:.4f}, SE ratio "
              f"{r.corrected_stderr / r.stderr:.3f} (target <= 0.25; losses alone "
              f"{r.loss_only_stderr / r.stderr:.3f}; plain would need "
              f"{r.plain_games_needed:,.0f} games)")
    for strategy, games in (("optimal", 200_000), ("greedy-turn", 200_000)):
        simulate(table, strategy, 1_000, seed=1)  # warm
        rates = []
        for judged in (False, True):
            start = time.perf_counter()
            simulate(table, strategy, games, seed=2024, judged=judged)
            rates.append(games / (time.perf_counter() - start))
        print(f"judging {strategy:<12} {games:,} games: {rates[0]:>9,.0f} games/s not "
              f"judged, {rates[1]:>9,.0f} judged ({rates[1] / rates[0]:.2f}x)")
    simulate(table, first_box, 1_000, seed=1)  # warm
    start = time.perf_counter()
    r = simulate(table, first_box, 20_000, seed=2024)
    seconds = time.perf_counter() - start
    decisions = int(r.losses.decisions.sum())
    print(f"batch strategy 20,000 games: {decisions:,} decisions in {seconds:.2f} s, "
          f"{decisions / seconds:,.0f} decisions/s judged (target >= 20,000)")
    simulate(table, most_common_face, 100, seed=1)  # warm
    runs = {}
    before = load_average()
    for workers in (1, 2):
        start = time.perf_counter()
        runs[workers] = simulate(table, most_common_face, PYTHON_GAMES, seed=5,
                                 workers=workers)
        runs[workers] = (runs[workers], time.perf_counter() - start)
    same = np.array_equal(runs[1][0].scores, runs[2][0].scores) and np.array_equal(
        runs[1][0].losses.per_game, runs[2][0].losses.per_game)
    one, two = runs[1][1], runs[2][1]
    print(f"workers Python strategy {PYTHON_GAMES:,} games: 1 process {PYTHON_GAMES / one:,.0f} "
          f"games/s, 2 processes {PYTHON_GAMES / two:,.0f} games/s: {one / two:.2f}x "
          f"(target >= 1.7x on 2 quiet cores); same games and losses: {same}; load average "
          f"{before} before, {load_average()} after")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
