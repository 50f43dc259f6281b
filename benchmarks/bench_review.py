"""The review of a 13-turn two-player game played to win, against one new-game win solve.

Issue 45: ``yahtzee analyze`` of such a record took 4.6 times ``yahtzee advise 22256
--opponent ""`` (a new game's win DP) in the same run, and was silent for minutes (at its
start and after its bar reached the end). Goal: at most 3 times, and never silent. Each
command runs in a fresh process, kernels compiled ahead (as after ``make run``); the
first turn's file (``solver.first_turn``) is kept as a game leaves it (``--cold``
deletes it first). Printed: both walls, their ratio, the longest time the review's
stderr said nothing, and the load. ``--in-play``: then the same game played in ``yahtzee
play --objective win``, its moves typed at once (every turn's background solve is left
at once: the review at its end works out every turn), and its review measured from the
game's ``== review`` line.

    python benchmarks/bench_review.py [--cold] [--in-play [--no-analyze]] [--old DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from _fresh import load_average
from bench_analyze import two_player_record


def timed(command: list[str], env: dict[str, str] | None = None
          ) -> tuple[float, float, str, float]:
    """(wall seconds, the longest gap between two writes to stderr, the last stdout line,
    CPU seconds of the command: steadier than the wall on a shared machine)."""
    cpu = _children_cpu()
    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=env)
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


def play_lines(record) -> str:  # noqa: ANN001
    """What a player types in ``yahtzee play`` to play ``record``'s game: each roll, each
    keep (``keep 225``, ``reroll all``), each box (``score twos``)."""
    lines = []
    for turn in record.turns:
        lines.append(str(turn.rolls[0]))
        for keep, roll in zip(turn.keeps, turn.rolls[1:], strict=False):
            faces = "".join(str(f) for f in keep.faces)
            lines += [f"keep {faces}" if faces else "reroll all", str(roll)]
        lines.append(f"score {turn.box}")
    return "\n".join(lines) + "\n"


def timed_play(command: list[str], typed: str) -> tuple[float, float, float, float]:
    """``yahtzee play`` fed ``typed`` at once: (wall seconds in all, wall seconds from its
    '== review' line to the end, the longest gap between two writes to stderr after
    that line, CPU seconds of the command and its worker processes)."""
    cpu = _children_cpu()
    began = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    review: list[float] = []
    writes: list[float] = []

    def read_err() -> None:
        assert process.stderr is not None
        while process.stderr.read1(4096):
            writes.append(time.perf_counter())

    reader = threading.Thread(target=read_err)
    reader.start()
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(typed.encode())
    process.stdin.close()
    for line in process.stdout:
        if line.startswith(b"== review") and not review:
            review.append(time.perf_counter())
    process.wait()
    reader.join()
    end = time.perf_counter()
    if process.returncode or not review:
        raise SystemExit(f"{command} failed (exit {process.returncode})")
    after = [review[0], *[w for w in writes if w > review[0]], end]
    silent = max(b - a for a, b in zip(after, after[1:], strict=False))
    return end - began, end - review[0], silent, _children_cpu() - cpu


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
    parser.add_argument("--in-play", action="store_true",
                        help="also the review at the end of `yahtzee play --objective win` "
                             "of the same game, its moves typed at once")
    parser.add_argument("--no-analyze", action="store_true",
                        help="(with --in-play) leave the standalone review out")
    parser.add_argument("--old", metavar="DIR",
                        help="first the same review by the code checked out in DIR (say a "
                             "git worktree of main, with this one's tables/ copied into it), "
                             "run on its path: before and after in the same run")
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
    codes = [("the old code", {**os.environ, "PYTHONPATH": args.old})] if args.old else []
    if not (args.in_play and args.no_analyze):
        codes.append(("this code", None))
    for code, env in codes:
        with tempfile.TemporaryDirectory() as folder:
            record = Path(folder) / "game.txt"
            write_record(record, two_player_record(table))
            record.write_text(objective_comment(WinEachTurn()) + record.read_text())
            review, silent, last, cpu = timed([yahtzee, "analyze", str(record)], env)
        print(f"analyze by {code}, 13 turns x 2 players played to win (first turn's file "
              f"{'kept' if kept else 'missing'}): {review:.1f} s, {review / new_game:.2f} "
              f"times the new game's solve (goal <= 3); CPU {cpu:.1f} s, {cpu / new_cpu:.2f} "
              f"times; longest silence {silent:.1f} s; last line: {last}; load now "
              f"{load_average()}", flush=True)
    if args.in_play:
        with tempfile.TemporaryDirectory() as folder:
            game = two_player_record(table)
            wall, review, silent, cpu = timed_play(
                [yahtzee, "play", "--objective", "win", "--names", "Ann,Bob", "--record",
                 str(Path(folder) / "played.txt")], play_lines(game))
        print(f"play --objective win of the same game, typed at once: {wall:.1f} s in all "
              f"({wall / new_game:.2f} times the new game's solve; CPU {cpu:.1f} s with its "
              f"worker, {cpu / new_cpu:.2f} times), the review from its '== review' line "
              f"{review:.1f} s ({review / new_game:.2f} times); longest silence after that "
              f"line {silent:.1f} s")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
