"""The review of a 13-turn two-player game played to win, against one new-game win solve.

Issue 45: ``yahtzee analyze`` of such a record took 4.6 times ``yahtzee advise 22256
--opponent ""`` (a new game's win DP) in the same run, and was silent for minutes (at its
start and after its bar reached the end). Goal: at most 3 times, and never silent. Each
command runs in a fresh process, kernels compiled ahead (as after ``make run``); the
first turn's file (``solver.first_turn``) is kept as a game leaves it (``--cold``
deletes it first). Printed: both walls, their ratio, the longest time the review's
stderr said nothing, and the load.

    python benchmarks/bench_review.py [--cold]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from _fresh import load_average
from bench_analyze import two_player_record


def timed(command: list[str]) -> tuple[float, float, str, float]:
    """(wall seconds, the longest gap between two writes to stderr, the last stdout line,
    CPU seconds of the command: steadier than the wall on a shared machine)."""
    cpu = _children_cpu()
    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    writes = [began]
    tail = bytearray()

    def read() -> None:
        assert process.stderr is not None
        while chunk := process.stderr.read1(4096):
            writes.append(time.perf_counter())
            tail.extend(chunk)

    reader = threading.Thread(target=read)
    reader.start()
    out = process.stdout.read() if process.stdout is not None else b""
    process.wait()
    reader.join()
    end = time.perf_counter()
    if process.returncode:
        raise SystemExit(f"{command} failed: {bytes(tail[-500:]).decode(errors='replace')}")
    writes.append(end)
    silent = max(b - a for a, b in zip(writes, writes[1:], strict=False))
    last = out.decode().strip().splitlines()[-1] if out.strip() else ""
    return end - began, silent, last, _children_cpu() - cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    from advisor.play_win import WinEachTurn, objective_comment
    from advisor.record_file import write_record
    from solver.first_turn import first_turn_path
    from solver.table import open_table
    from solver.warmup import warm_up

    parser = argparse.ArgumentParser()
    parser.add_argument("--cold", action="store_true",
                        help="delete the first turn's file before the review")
    args = parser.parse_args()
    table = open_table("official", build=True)
    warm_up("official", everything=True)
    yahtzee = str(Path(sys.executable).with_name("yahtzee"))
    print(f"load average before: {load_average()}", flush=True)
    new_game, _, _, new_cpu = timed([yahtzee, "advise", "22256", "--opponent", ""])
    print(f"advise 22256 --opponent '' (a new game's win solve): {new_game:.1f} s "
          f"({new_cpu:.1f} s CPU)", flush=True)
    path = first_turn_path(table.rules, 2)
    if args.cold:
        path.unlink(missing_ok=True)
    kept = path.is_file()
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "game.txt"
        write_record(record, two_player_record(table))
        record.write_text(objective_comment(WinEachTurn()) + record.read_text())
        review, silent, last, cpu = timed([yahtzee, "analyze", str(record)])
    print(f"analyze, 13 turns x 2 players played to win (first turn's file "
          f"{'kept' if kept else 'missing'}): {review:.1f} s, {review / new_game:.2f} times "
          f"the new game's solve (goal <= 3); CPU {cpu:.1f} s, {cpu / new_cpu:.2f} times; "
          f"longest silence {silent:.1f} s; last line: {last}")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
