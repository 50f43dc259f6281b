"""`yahtzee analyze` of a finished 13-turn, 2-player record, end to end.

Target (issue 9): <= 1 s for the whole command (a fresh process: start, imports, table
load, replay through the advisor, JSON out), kernels already compiled (as after
`make run`). Also printed: the replay alone in this process, and records analysed per
second over many simulated games.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _fresh import load_average

RUNS = 5
GAMES = 500


def two_player_record(table):  # noqa: ANN001, ANN201
    """A finished 2-player game: two greedy-turn games from the simulator, interleaved."""
    from advisor.record import GameRecord
    from advisor.record_file import records_from_traces
    from solver.simulate import simulate

    ann, bob = records_from_traces(table.rules.name,
                                   simulate(table, "greedy-turn", 2, seed=9, record=True)
                                   .traces)
    turns = []
    for a, b in zip(ann.turns, bob.turns, strict=True):
        turns += [a.__class__("Ann", a.rolls, a.keeps, a.box),
                  b.__class__("Bob", b.rolls, b.keeps, b.box)]
    return GameRecord(table.rules.name, ("Ann", "Bob"), tuple(turns))


def main() -> int:
    from advisor.analysis import analyze
    from advisor.caches import Caches
    from advisor.record_file import records_from_traces, write_record
    from solver.simulate import simulate
    from solver.table import open_table
    from solver.warmup import warm_up

    table = open_table("official", build=True)
    warm_up("official")
    print(f"load average before: {load_average()}")
    record = two_player_record(table)
    decisions = sum(1 for _ in record.positions())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.txt"
        write_record(path, record)
        command = [str(Path(sys.executable).with_name("yahtzee")), "analyze", str(path),
                   "--json"]
        walls = []
        for _ in range(RUNS):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            walls.append(time.perf_counter() - start)
    print(f"yahtzee analyze, 13 turns x 2 players ({decisions} decisions), end to end: "
          f"median {statistics.median(walls):.2f} s, min {min(walls):.2f} s over {RUNS} runs "
          f"(target <= 1 s)")
    start = time.perf_counter()
    memory = Caches()  # the process's caches: what one review solves, the next reads
    analyze(record, table=table, memory=memory)
    print(f"replay alone (in process): {1000 * (time.perf_counter() - start):.0f} ms")
    records = list(records_from_traces("official",
                                       simulate(table, "greedy-turn", GAMES, seed=1,
                                                record=True).traces))
    start = time.perf_counter()
    for one in records:
        analyze(one, table=table, memory=memory)
    seconds = time.perf_counter() - start
    print(f"analyze throughput: {GAMES} one-player games in {seconds:.2f} s, "
          f"{GAMES / seconds:,.0f} games/s")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
