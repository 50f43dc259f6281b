"""Fingerprints of what the tool computes, to show that a refactor changes none of it.

Runs the command line in a fresh tables folder and prints one line per output: a name
and the sha256 of the output (JSON with its timing keys removed, files byte for byte).
Run it before and after a change and compare the two listings with ``diff``:

    python tools/fingerprint.py > before.txt      # on the old code
    python tools/fingerprint.py > after.txt       # on the new code
    diff before.txt after.txt                     # nothing: every figure bit-identical

Covered: every rule set's table (the exported npy), statistics (a new game, a mid-game
card, with a target), the why figures of advice, target and win advice, strategy sheets,
simulated games of every built-in strategy and two Python strategies (seeds 0 and 7,
their records included), and the analysis of recorded games. ``--quick`` covers the
official rules only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from solver.game.rules import get_rules

RULES = ("official", "free-joker", "no-bonus", "two-rolls", "yatzy")
VOLATILE = ("seconds", "elapsed", "time", "per_second", "wall", "cpu")
"""JSON keys whose values depend on the machine's speed (dropped before hashing)."""

MID_CARD = {"yatzy": "ones=3,twos=6,threes=9,small_straight=15,chance=22",
            None: "ones=3,twos=6,threes=9,small_straight=30,chance=22,yahtzee=50"}
LATE_CARD = {"yatzy": ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=10,"
                       "two_pairs=16,three_of_a_kind=12,four_of_a_kind=16,small_straight=15"),
             None: ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three_of_a_kind=20,"
                    "four_of_a_kind=0,full_house=25,small_straight=30,chance=22")}
OPPONENT = {"yatzy": ("ones=2,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=8,"
                      "two_pairs=14,three_of_a_kind=9,four_of_a_kind=12,small_straight=15,"
                      "large_straight=20"),
            None: ("ones=2,twos=6,threes=9,fours=12,fives=15,sixes=18,three_of_a_kind=17,"
                   "four_of_a_kind=0,full_house=25,small_straight=30,chance=20,"
                   "large_straight=40")}

PYTHON_STRATEGIES = '''
import numpy as np
from solver.simulate import batch_strategy


def cautious(decision):
    """Keep the most common face; score the first allowed box with the most points."""
    if decision.rolls_left > 0:
        face = max(set(decision.dice), key=lambda f: (decision.dice.count(f), f))
        return [f for f in decision.dice if f == face]
    best = max(decision.placements(), key=lambda p: (p.points, -p.box))
    return decision.rules.boxes[best.box].name


@batch_strategy
def first_box(batch):
    box = 31 + np.argmax(batch.action_mask[:, 31:], axis=1)
    return np.where(batch.rolls_left > 0, 0, box)
'''


def _pick(table: dict[Any, str], rules: str) -> str:
    return table["yatzy"] if rules == "yatzy" else table[None]


def _clean(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()
                if not any(word in k for word in VOLATILE)}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


class Runner:
    def __init__(self, work: Path) -> None:
        self.work = work
        self.env = dict(os.environ, YAHTZEE_TABLES=str(work / "tables"),
                        XDG_DATA_HOME=str(work / "data"), PYTHONPATH=str(work))
        self.yahtzee = str(Path(sys.executable).with_name("yahtzee"))
        self.failures = 0

    def run(self, *args: str) -> str:
        done = subprocess.run([self.yahtzee, *args], capture_output=True, text=True,
                              env=self.env, cwd=self.work)
        if done.returncode != 0:
            self.failures += 1
            print(f"FAILED: yahtzee {' '.join(args)}: {done.stderr.strip()[-300:]}",
                  file=sys.stderr)
            return f"exit {done.returncode}"
        return done.stdout

    def json(self, name: str, *args: str) -> None:
        out = self.run(*args, "--json")
        try:
            text = json.dumps(_clean(json.loads(out)), sort_keys=True)
        except json.JSONDecodeError:
            text = out
        self.emit(name, text.encode())

    def text(self, name: str, *args: str) -> None:
        self.emit(name, self.run(*args).encode())

    def files(self, name: str, folder: Path) -> None:
        digest = hashlib.sha256()
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                digest.update(path.relative_to(folder).as_posix().encode())
                digest.update(path.read_bytes())
        self.emit(name, digest.hexdigest().encode())

    def emit(self, name: str, data: bytes) -> None:
        print(f"{name:60s} {hashlib.sha256(data).hexdigest()}", flush=True)


def fingerprint(runner: Runner, rule_sets: tuple[str, ...]) -> None:
    (runner.work / "mystrategies.py").write_text(PYTHON_STRATEGIES)
    for rules in rule_sets:
        r = ("--rules", rules)
        mid, late, opp = _pick(MID_CARD, rules), _pick(LATE_CARD, rules), _pick(OPPONENT, rules)
        npy = runner.work / f"{rules}.npy"
        runner.text(f"{rules}/export-log", "export", *r, "--format", "npy", "--out", str(npy))
        runner.emit(f"{rules}/table.npy", npy.read_bytes())
        runner.json(f"{rules}/stats-new", "stats", *r)
        runner.json(f"{rules}/stats-mid", "stats", *r, "--card", mid)
        runner.json(f"{rules}/stats-target", "stats", *r, "--card", late, "--target", "240")
        most = get_rules(rules).rolls_per_turn - 1  # rerolls a turn allows (1 under two-rolls)
        for dice, left in (("22256", "2"), ("11135", "1"), ("34566", "0"), ("66666", "2")):
            left = str(min(int(left), most))
            runner.json(f"{rules}/why-{dice}-{left}", "advise", *r, dice, "--rolls-left", left,
                        "--why", "--top", "0")
            runner.json(f"{rules}/mid-{dice}-{left}", "advise", *r, dice, "--rolls-left", left,
                        "--card", mid, "--top", "0")
        runner.json(f"{rules}/why-mid", "advise", *r, "12345", "--card", mid, "--why")
        runner.json(f"{rules}/target-late", "advise", *r, "22456", "--card", late,
                    "--target", "200", "--top", "0")
        runner.json(f"{rules}/win-late", "advise", *r, "33356", "--card", late,
                    "--opponent", opp, "--top", "0")
        runner.text(f"{rules}/strategy-mid.csv", "strategy", *r, "--card", mid,
                    "--format", "csv")
        runner.text(f"{rules}/strategy-target.csv", "strategy", *r, "--card", late,
                    "--target", "190", "--format", "csv")
        strategies = ["optimal", "greedy", "greedy-turn", "heuristic"]
        if rules == "official":
            strategies += ["target:250", "mystrategies:cautious", "mystrategies:first_box"]
        for seed in ("0", "7"):
            for strategy in strategies:
                games = "300" if ":" in strategy else "2000"
                folder = runner.work / f"records-{rules}-{strategy.replace(':', '_')}-{seed}"
                runner.json(f"{rules}/simulate-{strategy}-{seed}", "simulate", *r,
                            "--strategy", strategy, "--games", games, "--seed", seed,
                            "--records", str(folder))
                runner.files(f"{rules}/records-{strategy}-{seed}", folder)
            runner.json(f"{rules}/compare-{seed}", "simulate", *r, "--games", "1000",
                        "--seed", seed, "--compare", ",".join(strategies[:4]))
        record = runner.work / f"records-{rules}-greedy-7" / "game-000001.txt"
        runner.json(f"{rules}/analyze-greedy", "analyze", str(record))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="official rules only")
    parser.add_argument("--rules", nargs="*", default=None, help="these rule sets only")
    args = parser.parse_args()
    rule_sets = ("official",) if args.quick else tuple(args.rules or RULES)
    with tempfile.TemporaryDirectory(prefix="fingerprint-") as work:
        runner = Runner(Path(work))
        fingerprint(runner, rule_sets)
    if runner.failures:
        sys.exit(f"{runner.failures} commands failed (above)")


if __name__ == "__main__":
    main()
