"""The "why" of advice: the per-state figures' pass, its cache, and a question's cost.

- ``figures pass``: :func:`solver.moments.compute_moments` of the official rules (one
  backward pass of the optimal policy over every state), first and warm call;
- ``cache read``: the figures read back from their file (checked like a table);
- ``first why of a card``: ``advise(..., why=True)`` for a card whose turn is new (the
  turn's features: every final roll's policy box, every keep's average); ``next why``:
  another roll of the same turn (read off the features).

Wall-clock times, with the load average (2 cores: above ~1 means shared).
"""

from __future__ import annotations

import resource
import statistics
import sys
import tempfile
import time

from _fresh import load_average


def main() -> int:
    from advisor.model import Dice, Scorecard
    from advisor.ranking import TurnAdvisor
    from solver import moments as sm
    from solver.formats.tablefile import read_table, write_table
    from solver.table import open_table

    table = open_table("official", build=True)
    print(f"load average before: {load_average()}")
    start = time.perf_counter()
    figures = sm.compute_moments(table)
    first = time.perf_counter() - start
    start = time.perf_counter()
    sm.compute_moments(table)
    warm = time.perf_counter() - start
    print(f"figures pass, official: first call {first:.1f} s, warm call {warm:.1f} s")
    kind = sm._moments_kind()
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/official.ymoments"
        extra = {"table_sha256": sm.table_checksum(table)}
        write_table(path, table.rules, figures.figures, kind=kind, extra=extra)
        start = time.perf_counter()
        read_table(path, table.rules, kind=kind, expect=extra)
        print(f"cache read (33.6 MB, checked): {time.perf_counter() - start:.2f} s")
    cards = ["", "twos=6,threes=9", "aces=3,twos=6,threes=9,fours=12,3k=20,fh=25",
             "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30"]
    firsts, nexts = [], []
    for text in cards:
        advisor = TurnAdvisor(Scorecard.parse(text), table)
        _ = advisor.turn  # the turn's values apart: they are advise's own cost
        start = time.perf_counter()
        advisor.outcomes(figures)
        advisor.advise(Dice("12346"), 2, why=True)
        firsts.append(time.perf_counter() - start)
        for dice in ("22256", "11111", "13456"):
            start = time.perf_counter()
            advisor.advise(Dice(dice), 1, why=True)
            nexts.append(time.perf_counter() - start)
    print(f"first why of a card's turn: median {1000 * statistics.median(firsts):.1f} ms "
          f"(of {len(firsts)}); next why of the turn: median "
          f"{1000 * statistics.median(nexts):.2f} ms (of {len(nexts)})")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:.0f} MB")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
