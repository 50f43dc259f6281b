"""Advisor speed: a warm in-process ``advise`` call and ``yahtzee advise`` end to end.

Targets (issue 3): a warm in-process ``advise`` call <= 1 ms; ``yahtzee advise ...``
end to end <= 1 s wall with the table present.

- ``warm advise``: in one process, after the table is loaded and the kernel is warm, the
  median over many calls (each solves the current turn afresh: nothing is cached
  between calls except the keeps of a roll);
- ``end to end``: ``yahtzee advise`` in a fresh process, the median of several runs;
- ``where a fresh process spends its time``: imports, table load, first kernel call
  (numba loads the compiled kernel from its disk cache), and the advice itself.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
CALLS = 2000
RUNS = 7
CARD = "twos=6,fours=12,yahtzee=50,ss=30"
COMMAND = [str(BIN / "yahtzee"), "advise", "--dice", "22256", "--card", CARD]

_FRESH = r"""
import json, time
t0 = time.perf_counter()
import numpy
t1 = time.perf_counter()
import numba
t2 = time.perf_counter()
from solver.table import open_table, turn_values
from advisor.ranking import TurnAdvisor
from advisor.model import Dice, Scorecard
t3 = time.perf_counter()
table = open_table("official")
t4 = time.perf_counter()
card = Scorecard.parse("twos=6,fours=12,yahtzee=50,ss=30")
turn_values(table, card.mask, card.upper, card.flag)
t5 = time.perf_counter()
TurnAdvisor(card, table).advise(Dice("22256"), 2)
t6 = time.perf_counter()
print(json.dumps({"import numpy": t1 - t0, "import numba": t2 - t1,
                  "import solver + advisor": t3 - t2, "open table": t4 - t3,
                  "first kernel call": t5 - t4, "advise": t6 - t5}))
"""


def median_call(func, calls: int) -> float:
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def warm_figures() -> dict[str, float]:
    from advisor.model import Dice, Scorecard
    from advisor.ranking import advise
    from solver.table import open_table, turn_values

    table = open_table("official", build=True)
    figures = {}
    for label, text in (("new game", ""), ("mid game", CARD)):
        card = Scorecard.parse(text)
        for rolls_left in (2, 0):
            dice = Dice("22256")
            advise(card, dice, rolls_left=rolls_left, table=table)
            figures[f"advise, {label}, rolls left {rolls_left}"] = median_call(
                lambda c=card, d=dice, j=rolls_left: advise(c, d, rolls_left=j, table=table),
                CALLS)
    card = Scorecard.parse(CARD)
    figures["of which turn_values (kernel)"] = median_call(
        lambda: turn_values(table, card.mask, card.upper, card.flag), CALLS)
    return figures


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    print(f"warm in-process advise (median of {CALLS} calls; target <= 1 ms):")
    for label, seconds in warm_figures().items():
        print(f"  {label:<40} {seconds * 1e6:8.1f} us")

    wall(COMMAND)  # warm the OS file cache and numba's index
    print(f"\nend to end, fresh process (median of {RUNS} runs; target <= 1 s):")
    for label, command in (("yahtzee advise (rolls left 2)", COMMAND),
                           ("yahtzee advise --rolls-left 0", [*COMMAND, "--rolls-left", "0"]),
                           ("yahtzee advise --help", [*COMMAND[:2], "--help"]),
                           ("python -c pass", [sys.executable, "-c", "pass"])):
        runs = [wall(command) for _ in range(RUNS)]
        print(f"  {label:<40} {statistics.median(runs):8.3f} s  (min {min(runs):.3f})")

    print("\nwhere a fresh process spends its time (median of "
          f"{RUNS} runs):")
    parts: dict[str, list[float]] = {}
    for _ in range(RUNS):
        out = subprocess.run([sys.executable, "-c", _FRESH], check=True, capture_output=True,
                             text=True).stdout
        for key, seconds in json.loads(out).items():
            parts.setdefault(key, []).append(seconds)
    for key, values in parts.items():
        print(f"  {key:<40} {statistics.median(values):8.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
