"""The forward pass of tournament play (``solver.forward.final_scores``) beside the
tournament DP it plays by and the win DP against a new card from the same card
(``advise 22256 --opponent ""``), as ratios in one run (wall and CPU seconds; the load
beside); with ``--old DIR``, also the pass of another checkout (an older commit's
``git archive``, say) on the same card, its time and the largest difference between the
two distributions.

One process per checkout, each warming its kernels on a late card first (compilation is
not the pass), then the DP of N players (every level kept) and the pass by its vectors;
here the win DP too. Heavy: from a new game minutes under load; run it alone.

    python benchmarks/bench_forward.py [N] [CARD] [--old DIR]

From CARD instead of a new game (the win DP against a new card from CARD too). The old
checkout runs first, in a child process with ``DIR`` first on its path (this checkout's
tables: ``YAHTZEE_TABLES``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _fresh import load_average

LATE = "aces=3,twos=6,threes=9,fours=12,fives=15,3k=20,4k=0,ss=30,ls=40,yahtzee=50"


def timed(func) -> tuple[tuple[float, float], object]:  # noqa: ANN001
    wall, cpu = time.perf_counter(), time.process_time()
    out = func()
    return (round(time.perf_counter() - wall, 2), round(time.process_time() - cpu, 2)), out


def pass_only(players: int, card_text: str, out: str) -> dict:
    """The DP and the pass from the card in this process (whichever checkout is first on
    the path); the distribution saved to ``out`` (.npy)."""
    from advisor.model import Scorecard
    from solver.forward import final_scores
    from solver.stats_file import new_game_stats
    from solver.table import get_table
    from solver.target import Utility, solve_vectors

    card = Scorecard.parse(card_text) if card_text else Scorecard.new()
    table = get_table("official")
    every = tuple(range(table.rules.n_boxes + 1))
    utility = Utility.tournament(new_game_stats(table).distribution, players)
    late = Scorecard.parse(LATE)
    state = (late.mask, late.upper, late.flag)
    warm = solve_vectors(table, utility, start=state, total=late.total, keep=every)
    final_scores(table, warm, start=state, total=late.total)
    start = (card.mask, card.upper, card.flag)
    load = [load_average()]
    dp, vectors = timed(lambda: solve_vectors(table, utility, start=start, total=card.total,
                                              keep=every))
    load.append(load_average())
    forward, result = timed(lambda: final_scores(table, vectors, start=start,
                                                 total=card.total))
    load.append(load_average())
    np.save(out, result.distribution)
    import solver.forward

    return {"code": str(Path(solver.forward.__file__).parent.parent), "tournament_dp_s": dp,
            "forward_pass_s": forward, "win_share": result.value, "mean": result.mean,
            "sum": float(result.distribution.sum()),
            "expected_utility": result.expected_utility(utility), "load": load}


def old_pass(old: str, players: int, card_text: str, out: str) -> dict:
    """:func:`pass_only` in a child process on the checkout ``old``."""
    from solver.table import tables_dir

    env = {**os.environ, "PYTHONPATH": old, "YAHTZEE_TABLES": str(tables_dir())}
    done = subprocess.run([sys.executable, __file__, "--pass-only", str(players), card_text,
                           out], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def win_dp(card_text: str) -> tuple[float, float]:
    """The win DP against a new card from the card (kernels warmed on a late card)."""
    from advisor.caches import Caches
    from advisor.model import Scorecard
    from advisor.objective import Objective
    from advisor.ranking import turn_advisor
    from solver import vector_cache
    from solver.table import get_table

    table = get_table("official")
    card = Scorecard.parse(card_text) if card_text else Scorecard.new()
    memory = Caches()  # the process's caches: what one question solves, the next reads
    turn_advisor(Scorecard.parse(LATE), table, Objective.win(""), memory=memory).probability()
    vector_cache.clear(memory)
    win, _ = timed(lambda: turn_advisor(card, table, Objective.win(""), memory=memory)
                   .probability())
    vector_cache.clear(memory)
    return win


def ratio(a: float, b: float) -> float | None:
    return round(a / b, 3) if b > 0 else None


def main(argv: list[str]) -> None:
    if argv[:1] == ["--pass-only"]:
        print(json.dumps(pass_only(int(argv[1]), argv[2], argv[3])))
        return
    old = None
    if "--old" in argv:
        at = argv.index("--old")
        old, argv = argv[at + 1], argv[:at] + argv[at + 2:]
    players = int(argv[0]) if argv else 10_000
    card_text = argv[1] if len(argv) > 1 else ""
    report: dict = {"players": players, "card": card_text or "new game"}
    with tempfile.TemporaryDirectory() as scratch:
        if old is not None:
            report["old"] = old_pass(old, players, card_text, f"{scratch}/old.npy")
        report["new"] = pass_only(players, card_text, f"{scratch}/new.npy")
        new = report["new"]
        if old is not None:
            gap = np.abs(np.load(f"{scratch}/old.npy") - np.load(f"{scratch}/new.npy"))
            report["largest_difference"] = float(gap.max())
            report["identical"] = bool((gap == 0).all())
            before, after = report["old"]["forward_pass_s"], new["forward_pass_s"]
            report["old_over_new_wall"] = ratio(before[0], after[0])
            report["old_over_new_cpu"] = ratio(before[1], after[1])
    report["win_s"] = win = win_dp(card_text)
    report["win_load"] = load_average()
    forward, dp = new["forward_pass_s"], new["tournament_dp_s"]
    report.update({"forward_over_dp_wall": ratio(forward[0], dp[0]),
                   "forward_over_dp_cpu": ratio(forward[1], dp[1]),
                   "forward_over_win_wall": ratio(forward[0], win[0]),
                   "forward_over_win_cpu": ratio(forward[1], win[1])})
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1:])
